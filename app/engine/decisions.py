"""Pending decisions: the Wild Draw Four challenge (C-*), a first Wild's color, and timeouts."""

from __future__ import annotations

from . import events as ev
from .cards import CARD_COLOR, CARD_TEXT, COLOR_LETTERS, COLORS, Color
from .commands import Play
from .errors import DECISION_PENDING, NOT_YOUR_TURN, NOTHING_TO_DO, TOO_EARLY, RuleError
from .events import Event
from .state import CHALLENGE, CHOOSE_COLOR, PLAY_DRAWN, GameState, Pending
from .table import draw_cards, next_seat
from .turns import announce_turn, begin_turn_action, draw, keep, play


def _expect(state: GameState, seat: int, kind: str) -> Pending:
    pending = state.pending
    if pending is None or pending.kind != kind:
        raise RuleError(NOTHING_TO_DO, f"there is no {kind.replace('_', ' ')} to answer")
    if pending.seat != seat:
        raise RuleError(NOT_YOUR_TURN, f"only seat {pending.seat} may answer the {kind}")
    return pending


def accept(state: GameState, seat: int, out: list[Event]) -> None:
    pending = _expect(state, seat, CHALLENGE)
    begin_turn_action(state, seat)
    state.pending = None
    draw_cards(state, seat, pending.amount, "wild_draw4", out)
    state.turn = next_seat(state, seat)
    announce_turn(state, out)


def challenge(state: GameState, seat: int, out: list[Event]) -> None:
    """C-OFFICIAL / C-RETURN: the offender's hand is shown to the challenger alone."""
    pending = _expect(state, seat, CHALLENGE)
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
    _expect(state, seat, CHOOSE_COLOR)
    state.pending = None
    state.color = color
    out.append(Event(ev.COLOR_CHOSEN, {"seat": seat, "color": COLOR_LETTERS[color]}))
    announce_turn(state, out)


def timeout(state: GameState, out: list[Event]) -> None:
    """O-TIMER: the deadline passed; act for the waited-on seat with the safe default."""
    if state.deadline_ms is None:
        raise RuleError(NOTHING_TO_DO, "no timer is running")
    if state.now_ms < state.deadline_ms:
        raise RuleError(TOO_EARLY, "the timer has not run out yet")
    pending = state.pending
    seat = pending.seat if pending is not None else state.turn
    out.append(Event(ev.TIMED_OUT, {"seat": seat}))
    if pending is None:
        draw(state, seat, out, reason="timeout")
        pending = state.pending
        if pending is None or pending.kind != PLAY_DRAWN:
            return
    if pending.kind == CHALLENGE:
        accept(state, seat, out)
    elif pending.kind == CHOOSE_COLOR:
        choose_color(state, seat, state.rng.choice(COLORS), out)
    elif pending.kind == PLAY_DRAWN:
        if state.rules.must_play_drawn:
            others = [s for s in range(state.players) if s != seat]
            target = state.rng.choice(others)  # used only by a swap_hands custom card
            play(state, seat, Play(pending.card, state.rng.choice(COLORS), target), out)
        else:
            keep(state, seat, out)
    else:
        raise RuleError(DECISION_PENDING, f"no default for {pending.kind}")
