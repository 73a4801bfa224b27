"""A blocked table: every card is in a hand or on the discard pile and play only goes round in
circles (for example two Reverses drawn and played back and forth under H-DRAW-UNTIL and
H-FORCE-DRAWN), or a table where everyone at the hand limit passes (H-HANDLIMIT). The rule book
is silent; like threefold repetition in chess, a position that comes back a third time while
the draw pile is empty, or turn after turn of passes, ends the round: the lowest hand wins it."""

from __future__ import annotations

from typing import Final

from . import events as ev
from .events import Event
from .scoring import BLOCKED, end_round, hand_value
from .state import PLAYING, GameState
from .table import active_seats, next_seat

REPEATS: Final = 3


def check_blocked(state: GameState, out: list[Event], passed: bool = False) -> None:
    """Called when a new turn begins. Positions are only counted while the draw pile is empty
    (with cards to draw, the next turn is not a repetition) or right after a pass (``passed``:
    the pass counts its position itself), at plain turn starts."""
    if not passed and state.passed_turn == state.turns_started:
        return  # counted by the pass already
    if (state.draw_pile and not passed) or state.phase != PLAYING:
        if state.positions:
            state.positions.clear()
        return
    if state.pending is not None or state.slap is not None:
        return
    position = (
        state.turn,
        state.direction,
        state.color,
        tuple(state.discard),
        tuple(tuple(sorted(hand)) for hand in state.hands),
    )
    # After passes (H-HANDLIMIT) cards may still be drawn: the pile's size is part of it then.
    key = hash((*position, len(state.draw_pile)) if state.draw_pile else position)
    seen = state.positions.get(key, 0) + 1
    state.positions[key] = seen
    if seen < REPEATS:
        return
    winner = _lowest_hand(state)
    out.append(Event(ev.BLOCKED, {"winner": winner}))
    state.positions.clear()
    end_round(state, [winner], out, BLOCKED)


def _lowest_hand(state: GameState) -> int:
    """The lowest hand value; on a tie the first such seat in turn order from the turn."""
    order = []
    seat = state.turn
    for _ in range(len(active_seats(state))):
        order.append(seat)
        seat = next_seat(state, seat)
    return min(order, key=lambda s: hand_value(state.rules, state.hands[s]))
