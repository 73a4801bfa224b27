"""Pending decisions: the Wild Draw Four challenge (C-*, also of a stack), a first Wild's color,
and O-TIMER timeouts for every kind of wait (and for the round's clock, H-BLITZ)."""

from __future__ import annotations

from . import events as ev
from .cards import CARD_COLOR, CARD_TEXT, COLOR_LETTERS, COLORS, Color
from .clock import clock_over, clock_ran_out, timer_due
from .commands import Play
from .drawing import at_hand_limit, draw, keep, skip_turn, take_stack
from .errors import NOT_YOUR_TURN, NOTHING_TO_DO, TOO_EARLY, RuleError
from .events import Event
from .house import exchange_timeout, slap_timeout
from .state import CHALLENGE, CHOOSE_COLOR, EXCHANGE, PLAY_DRAWN, STACK, GameState, Pending
from .table import draw_cards, next_seat
from .turns import announce_turn, begin_turn_action, play
from .uno import graces_ended, open_catches


def _expect(state: GameState, seat: int, kinds: tuple[str, ...], what: str) -> Pending:
    pending = state.pending
    if pending is None or pending.kind not in kinds:
        raise RuleError(NOTHING_TO_DO, f"there is no {what} to answer")
    if pending.seat != seat:
        raise RuleError(NOT_YOUR_TURN, f"only seat {pending.seat} may answer the {what}")
    return pending


def accept(state: GameState, seat: int, out: list[Event]) -> None:
    """Take the Wild Draw Four (or the whole stack) and lose the turn."""
    pending = _expect(state, seat, (CHALLENGE, STACK), "draw card")
    begin_turn_action(state, seat)
    take_stack(state, pending, out)


def challenge(state: GameState, seat: int, out: list[Event]) -> None:
    """C-OFFICIAL / C-RETURN (with a stack: its whole penalty): the offender's hand is shown to
    the challenger alone."""
    pending = _expect(state, seat, (CHALLENGE, STACK), "Wild Draw Four")
    if pending.offender < 0:
        raise RuleError(NOTHING_TO_DO, "this draw cannot be challenged")
    begin_turn_action(state, seat)
    state.pending = None
    offender = pending.offender
    hand = state.hands[offender]
    guilty = any(CARD_COLOR[c] == pending.prev_color for c in hand)
    out.append(
        Event(
            ev.CHALLENGED,
            {"seat": seat, "offender": offender, "guilty": guilty},
            {seat: {"hand": [CARD_TEXT[c] for c in sorted(hand)]}},
        )
    )
    if guilty:
        if state.rules.challenge == "return":
            hand.append(state.discard.pop())
            state.color = pending.prev_color
            out.append(
                Event(ev.COLOR_CHOSEN, {"seat": offender, "color": COLOR_LETTERS[state.color]})
            )
        draw_cards(state, offender, pending.amount, "challenge", out)
        state.turn = seat
    else:
        draw_cards(state, seat, pending.amount + 2, "challenge", out)
        state.turn = next_seat(state, seat)
    announce_turn(state, out)


def choose_color(state: GameState, seat: int, color: Color, out: list[Event]) -> None:
    _expect(state, seat, (CHOOSE_COLOR,), "color choice")
    state.pending = None
    state.color = color
    out.append(Event(ev.COLOR_CHOSEN, {"seat": seat, "color": COLOR_LETTERS[color]}))
    announce_turn(state, out)


def timeout(state: GameState, out: list[Event]) -> None:
    """O-TIMER: the deadline passed; act for the waited-on seats with the safe default. An UNO
    catch grace that ended is announced first (O-WINDOW)."""
    graces = graces_ended(state)
    if graces:
        open_catches(state, graces, out)
        if not timer_due(state):
            return
    elif state.catch_open_ms and not timer_due(state):
        raise RuleError(TOO_EARLY, "the UNO catch grace has not ended yet")
    if clock_ran_out(state):
        clock_over(state, out)
        return
    if state.deadline_ms is None:
        if state.clock_ends_ms is not None:
            raise RuleError(TOO_EARLY, "the round's clock has not run out yet")
        raise RuleError(NOTHING_TO_DO, "no timer is running")
    if state.now_ms < state.deadline_ms:
        raise RuleError(TOO_EARLY, "the timer has not run out yet")
    if state.slap is not None:
        out.append(Event(ev.TIMED_OUT, {"seat": state.slap.seat, "waited": "slap"}))
        slap_timeout(state, out)
        return
    pending = state.pending
    seat = pending.seat if pending is not None else state.turn
    waited = pending.kind if pending else "turn"
    out.append(Event(ev.TIMED_OUT, {"seat": seat, "waited": waited}))
    if pending is None:
        if at_hand_limit(state, seat):  # H-HANDLIMIT: no more cards; the turn passes
            skip_turn(state, seat, out)
            return
        draw(state, seat, out, reason="timeout")
        pending = state.pending
        if pending is None or pending.kind != PLAY_DRAWN:
            return
    if pending.kind in (CHALLENGE, STACK):
        accept(state, seat, out)
    elif pending.kind == CHOOSE_COLOR:
        choose_color(state, seat, state.rng.choice(COLORS), out)
    elif pending.kind == EXCHANGE:
        exchange_timeout(state, out)
    elif state.rules.must_play_drawn:
        others = [s for s in range(state.players) if s != seat and not state.out[s]]
        target = state.rng.choice(others)  # used only by a card that needs a target
        play(state, seat, Play(pending.card, state.rng.choice(COLORS), target), out)
    else:
        keep(state, seat, out)
