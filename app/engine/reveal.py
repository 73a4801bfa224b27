"""H-REVEAL: a hand of fewer cards than ``reveal_below`` is shown to everyone at the table,
spectators included. Views show it as ``seats[i].hand``; after each command a ``revealed`` event
carries every shown hand that changed (``hand`` null: no longer shown; ``state.shown`` holds what
was last announced). Nothing else about a hand goes public: a hand that grows past the limit is
announced hidden, never its new cards."""

from __future__ import annotations

from . import events as ev
from .events import Event
from .state import PLAYING, GameState
from .table import hand_texts


def shown_hand(state: GameState, seat: int) -> list[str] | None:
    """The hand as everyone may see it, or None while it stays hidden."""
    hand = state.hands[seat]
    limit = state.rules.reveal_below
    if limit and len(hand) < limit and state.phase == PLAYING and seat not in state.eliminated:
        return hand_texts(hand)
    return None


def announce(state: GameState, out: list[Event]) -> None:
    """One ``revealed`` event for each seat whose shown hand changed since the last one."""
    before = state.shown or [None] * state.players
    after = [shown_hand(state, seat) for seat in range(state.players)]
    for seat, hand in enumerate(after):
        if hand != before[seat]:
            out.append(Event(ev.REVEALED, {"seat": seat, "hand": hand}))
    state.shown = after
