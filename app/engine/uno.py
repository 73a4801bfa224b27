"""U-CALL, U-CATCH, U-FALSE and the O-WINDOW grace."""

from __future__ import annotations

from . import events as ev
from .errors import BAD_TARGET, NOT_CATCHABLE, NOTHING_TO_DO, TOO_EARLY, RuleError
from .events import Event
from .house import start_slap
from .state import CHOOSE_COLOR, PLAY_DRAWN, STACK, GameState
from .table import draw_cards


def call_uno(state: GameState, seat: int, out: list[Event]) -> None:
    """Safe if called before anyone catches you; with two cards on your turn it counts for the
    play that leaves one."""
    hand = state.hands[seat]
    if len(hand) == 1:
        if state.uno_called[seat]:
            raise RuleError(NOTHING_TO_DO, "you already called UNO")
        state.uno_called[seat] = True
        state.catchable.pop(seat, None)
        state.catch_open_ms.pop(seat, None)
        out.append(Event(ev.UNO_CALLED, {"seat": seat}))
        if state.rules.uno_slap and state.slap is None:
            start_slap(state, seat, out)
        return
    elif len(hand) == 2 and on_own_turn(state, seat):
        if state.precall == seat:
            raise RuleError(NOTHING_TO_DO, "you already called UNO")
        state.precall = seat
    else:
        raise RuleError(
            NOTHING_TO_DO, "call UNO with one card left, or with two cards on your turn"
        )
    out.append(Event(ev.UNO_CALLED, {"seat": seat}))


def on_own_turn(state: GameState, seat: int) -> bool:
    """Is it ``seat``'s turn to play? U-CALL with two cards. Also with a drawn card to play, and
    ("U-CALL, answering") when answering a pending stack or choosing a first Wild's color."""
    pending = state.pending
    if pending is not None:
        return pending.seat == seat and pending.kind in _OWN_TURN
    return state.turn == seat


_OWN_TURN = (PLAY_DRAWN, STACK, CHOOSE_COLOR)


def catch(state: GameState, seat: int, target: int, out: list[Event]) -> None:
    if not 0 <= target < state.players or target == seat:
        raise RuleError(BAD_TARGET, "catch another player at the table")
    holds = (
        target in state.catchable and len(state.hands[target]) == 1 and not state.uno_called[target]
    )
    if holds:
        if state.now_ms < state.catch_open_ms.get(target, 0):
            raise RuleError(TOO_EARLY, "too early: the UNO grace time has not passed")
        del state.catchable[target]
        state.catch_open_ms.pop(target, None)
        out.append(Event(ev.CAUGHT, {"seat": target, "by": seat}))
        draw_cards(state, target, state.rules.uno_penalty, "uno_penalty", out)
        return
    penalty = state.rules.false_catch_penalty
    if penalty == 0:
        raise RuleError(NOT_CATCHABLE, f"seat {target} cannot be caught now")
    out.append(Event(ev.FALSE_CATCH, {"seat": seat, "target": target}))
    draw_cards(state, seat, penalty, "false_catch", out)
