"""H-BLITZ: each round has a total clock. The room sends ``Timeout`` at ``Game.deadline_ms``, the
earliest of the turn's deadline (O-TIMER), the round's end and the end of an UNO catch grace
(O-WINDOW). At the round's end the player holding the fewest cards wins the round (ties: fewest
points; still tied: shared), scored as if they went out."""

from __future__ import annotations

from . import events as ev
from .events import Event
from .scoring import CLOCK, end_round, hand_value
from .state import GameState
from .table import active_seats


def next_deadline(state: GameState) -> int | None:
    """When the room should send ``Timeout`` next: the turn's deadline (O-TIMER), the round's
    end (H-BLITZ) or the end of an UNO catch grace (O-WINDOW), whichever comes first; None: no
    timer runs."""
    now = state.now_ms
    times = [at for at in state.catch_open_ms.values() if at > now]
    for at in (state.deadline_ms, state.clock_ends_ms):
        if at is not None:
            times.append(at)
    return min(times) if times else None


def timer_due(state: GameState) -> bool:
    """The turn's deadline or the round's clock has passed: a ``Timeout`` acts for someone."""
    deadline = state.deadline_ms
    return clock_ran_out(state) or (deadline is not None and state.now_ms >= deadline)


def clock_ran_out(state: GameState) -> bool:
    clock = state.clock_ends_ms
    return clock is not None and state.now_ms >= clock


def clock_over(state: GameState, out: list[Event]) -> None:
    """The round's clock ran out. Under H-LAST a player who went out keeps the round's win."""
    if state.places:
        winners = [state.places[0]]
    else:
        hands = state.hands
        rules = state.rules
        keys = {s: (len(hands[s]), hand_value(rules, hands[s])) for s in active_seats(state)}
        fewest = min(keys.values())
        winners = [s for s, key in keys.items() if key == fewest]
    out.append(Event(ev.CLOCK_OVER, {"winners": winners}))
    end_round(state, winners, out, CLOCK)
