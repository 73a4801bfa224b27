"""House rules that run beside the turn: H-SILENT, U-CENTER (slap) and H-FIVE (exchange)."""

from __future__ import annotations

from typing import Final

from . import events as ev
from .cards import CARD_TEXT, Card
from .errors import BAD_TARGET, NOT_IN_HAND, NOTHING_TO_DO, RuleError
from .events import Event
from .state import EXCHANGE, SLAP, GameState, Pending
from .table import active_seats, draw_cards

SILENCE_PENALTY: Final = 2
SLAP_PENALTY: Final = 2


def silenced(state: GameState) -> bool:
    return state.silence_since >= 0


def after_command(state: GameState, out: list[Event]) -> None:
    """H-SILENT: announce a silence that began, end one whose condition is met."""
    if state.silence_since < 0:
        return
    if state.silence_since == state.version:
        out.append(Event(ev.SILENCE, {"active": True, "by": state.silence_by}))
        return
    waited = state.pending.seat if state.pending is not None else state.turn
    if (state.silence_by >= 0 and waited == state.silence_by) or (
        state.silence_color >= 0 and state.color != state.silence_color
    ):
        end_silence(state, out)


def end_silence(state: GameState, out: list[Event]) -> None:
    state.silence_by = state.silence_color = state.silence_since = -1
    out.append(Event(ev.SILENCE, {"active": False}))


def chat(state: GameState, seat: int, text: str, out: list[Event]) -> None:
    """A chat line; during an H-SILENT silence it costs the speaker 2 cards and ends it."""
    out.append(Event(ev.CHAT, {"seat": seat, "text": text}))
    if silenced(state) and state.phase == "playing":
        draw_cards(state, seat, SILENCE_PENALTY, "silence", out)
        end_silence(state, out)


def start_slap(state: GameState, caller: int, out: list[Event]) -> None:
    """U-CENTER: every other player still in the round must slap."""
    seats = [s for s in active_seats(state) if s != caller]
    state.slap = Pending(SLAP, caller, seats=seats)
    out.append(Event(ev.SLAP_STARTED, {"seat": caller, "waiting": list(seats)}))


def slap(state: GameState, seat: int, out: list[Event]) -> None:
    pending = state.slap
    if pending is None or seat not in pending.seats:
        raise RuleError(NOTHING_TO_DO, "there is nothing to slap now")
    pending.seats.remove(seat)
    pending.done.append(seat)
    out.append(Event(ev.SLAPPED, {"seat": seat}))
    if not pending.seats:
        _end_slap(state, [seat], out)


def slap_timeout(state: GameState, out: list[Event]) -> None:
    pending = state.slap
    assert pending is not None
    _end_slap(state, list(pending.seats), out)


def _end_slap(state: GameState, losers: list[int], out: list[Event]) -> None:
    state.slap = None
    out.append(Event(ev.SLAP_OVER, {"losers": losers}))
    for seat in losers:
        draw_cards(state, seat, SLAP_PENALTY, "slap", out)


def exchange_waiting(pending: Pending) -> list[int]:
    return [
        s for s, c in ((pending.seat, pending.card), (pending.target, pending.target_card)) if c < 0
    ]


def give(state: GameState, seat: int, card: Card, out: list[Event]) -> None:
    """H-FIVE: each side of the exchange chooses the card it gives."""
    pending = state.pending
    if pending is None or pending.kind != EXCHANGE:
        raise RuleError(NOTHING_TO_DO, "there is no exchange to answer")
    if seat not in exchange_waiting(pending):
        raise RuleError(BAD_TARGET, "you have no card to give in this exchange")
    if card not in state.hands[seat]:
        raise RuleError(NOT_IN_HAND, f"you hold no {CARD_TEXT[card]}")
    if seat == pending.seat:
        pending.card = card
    else:
        pending.target_card = card
    out.append(Event(ev.GAVE, {"seat": seat}, {seat: {"card": CARD_TEXT[card]}}))
    if not exchange_waiting(pending):
        _finish_exchange(state, pending, out)


def exchange_timeout(state: GameState, out: list[Event]) -> None:
    """The server picks a random card for each side that did not choose in time."""
    pending = state.pending
    assert pending is not None
    for seat in exchange_waiting(pending):
        give(state, seat, state.rng.choice(state.hands[seat]), out)


def _finish_exchange(state: GameState, pending: Pending, out: list[Event]) -> None:
    a, b = pending.seat, pending.target
    card_a, card_b = pending.card, pending.target_card
    state.pending = None
    state.hands[a].remove(card_a)
    state.hands[b].remove(card_b)
    state.hands[a].append(card_b)
    state.hands[b].append(card_a)
    private = {
        a: {"gave": CARD_TEXT[card_a], "received": CARD_TEXT[card_b]},
        b: {"gave": CARD_TEXT[card_b], "received": CARD_TEXT[card_a]},
    }
    out.append(Event(ev.EXCHANGED, {"seat": a, "target": b}, private))
