"""U-CALL, U-CATCH, U-FALSE, the O-WINDOW grace, and H-UNOCALL (strict calls, or none)."""

from __future__ import annotations

from collections import Counter

from . import events as ev
from .cards import CARD_RANK, IS_NUMBER
from .errors import (
    BAD_TARGET,
    NOT_ALLOWED_BY_RULES,
    NOT_CATCHABLE,
    NOTHING_TO_DO,
    TOO_EARLY,
    RuleError,
)
from .events import Event
from .house import start_slap
from .state import CHOOSE_COLOR, PLAY_DRAWN, STACK, GameState
from .table import draw_cards


def graces_ended(state: GameState) -> list[int]:
    """O-WINDOW: the seats whose catch grace has ended by now but was not yet announced."""
    now = state.now_ms
    return sorted(seat for seat, at in state.catch_open_ms.items() if at <= now)


def open_catches(state: GameState, seats: list[int], out: list[Event]) -> None:
    """O-WINDOW: the room's timer found these graces over: catching them is legal from now,
    and every seat is told (the event carries the changed legal moves to the table)."""
    for seat in seats:
        del state.catch_open_ms[seat]
        out.append(Event(ev.CATCH_OPEN, {"seat": seat}))


def call_uno(state: GameState, seat: int, out: list[Event]) -> None:
    """Safe if called before anyone catches you; with two cards on your turn it counts for the
    play that leaves one (H-UNOCALL strict: only holding one card; off: never)."""
    mode = state.rules.uno_call
    if mode == "off":
        raise RuleError(NOT_ALLOWED_BY_RULES, "H-UNOCALL: UNO calls are off at this table")
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
    elif mode == "strict":
        raise RuleError(NOT_ALLOWED_BY_RULES, "H-UNOCALL strict: call UNO holding one card")
    elif may_call_before_play(state, seat):
        if state.precall == seat:
            raise RuleError(NOTHING_TO_DO, "you already called UNO")
        state.precall = seat
    else:
        raise RuleError(
            NOTHING_TO_DO, "call UNO with one card left, or with two cards on your turn"
        )
    out.append(Event(ev.UNO_CALLED, {"seat": seat}))


def may_call_before_play(state: GameState, seat: int) -> bool:
    """U-CALL: on your own turn, holding two cards (H-MULTI: or as many as one play may leave
    at one card: all but one of them numbers of one number)."""
    if not on_own_turn(state, seat):
        return False
    hand = state.hands[seat]
    if len(hand) == 2:
        return True
    if not state.rules.multi_play or len(hand) < 2:
        return False
    ranks = Counter(CARD_RANK[c] for c in hand if IS_NUMBER[c])
    return max(ranks.values(), default=0) >= len(hand) - 1


def on_own_turn(state: GameState, seat: int) -> bool:
    """Is it ``seat``'s turn to play? U-CALL with two cards. Also with a drawn card to play, and
    ("U-CALL, answering") when answering a pending stack or choosing a first Wild's color."""
    pending = state.pending
    if pending is not None:
        return pending.seat == seat and pending.kind in _OWN_TURN
    return state.turn == seat


_OWN_TURN = (PLAY_DRAWN, STACK, CHOOSE_COLOR)


def catch(state: GameState, seat: int, target: int, out: list[Event]) -> None:
    if not state.rules.catches:
        raise RuleError(NOT_ALLOWED_BY_RULES, "H-UNOCALL: no calls, no catches at this table")
    if seat in state.eliminated:
        raise RuleError(NOT_ALLOWED_BY_RULES, "H-ELIM: you have left the match")
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
