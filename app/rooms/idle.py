"""O-IDLE: a seat nobody plays is played by a bot until its person is back. After
``idle_timeouts`` turns in a row ran out (O-TIMER), or at once when the turn comes to a person
who is not connected (O-DISCONNECT), the seat is **away**: a bot plays it at bot speed, in view
of everyone (``seats[i].away``, event ``away``). Any command from the person, or ``back``,
gives them the seat again from the next decision on. An away seat still scores, wins and counts
in leagues as its person's. ``idle_timeouts`` 0 turns it off. Pure."""

from __future__ import annotations

from app.engine import Event
from app.engine.events import TIMED_OUT
from app.store.records import SeatAway

from .commands import Back
from .errors import RoomError
from .people import Person
from .state import Context, Outcome, RoomState

NOTHING_TO_DO = "nothing_to_do"


def _limit(state: RoomState) -> int:
    return int(state.meta.rules.get("idle_timeouts", 2))


def set_away(state: RoomState, seat: int, away: bool) -> Outcome:
    meta = state.meta.copy()
    info = meta.seats[seat]
    info.away = away
    info.timeouts = 0
    return Outcome(SeatAway(seat, away), [Event("away", {"seat": seat, "away": away})],
                   state=RoomState(meta, state.game))


def count_timeouts(state: RoomState, events: list[Event]) -> tuple[RoomState, list[int]]:
    """After the room's timer acted: each person whose own turn ran out counts one more (the
    new state, unchanged if nobody did), and the seats now due to go away."""
    limit = _limit(state)
    seats = state.meta.seats
    timed = [int(e.public["seat"]) for e in events  # a slap's timeout is not its caller's
             if e.kind == TIMED_OUT and e.public.get("seat") is not None
             and e.public.get("waited") != "slap"]
    timed = [s for s in dict.fromkeys(timed)
             if 0 <= s < len(seats) and seats[s].human and not seats[s].away]
    if not timed or limit == 0:
        return state, []
    meta = state.meta.copy()
    for seat in timed:
        meta.seats[seat].timeouts += 1
    due = [s for s in timed if meta.seats[s].timeouts >= limit]
    return RoomState(meta, state.game), due


def acted(state: RoomState, seat: int | None) -> RoomState:
    """The person of ``seat`` acted themselves: the turns that ran out no longer run in a row."""
    if seat is None or seat >= len(state.meta.seats) or not state.meta.seats[seat].timeouts:
        return state
    meta = state.meta.copy()
    meta.seats[seat].timeouts = 0
    return RoomState(meta, state.game)


def gone_on_turn(state: RoomState) -> list[int]:
    """O-DISCONNECT: the seats the table waits for whose person is not connected (and not
    away yet): they go away at once."""
    game = state.game
    if game is None or not state.playing or _limit(state) == 0 or game.phase != "playing":
        return []
    seats = state.meta.seats
    return [s for s in game.waiting_on()
            if s < len(seats) and seats[s].human and not seats[s].away and not seats[s].connected]


def back(state: RoomState, person: Person, command: Back, ctx: Context) -> Outcome:
    """``back``: the person takes their away seat again."""
    seat = person.seat
    if seat is None or not state.meta.seats[seat].away:
        raise RoomError(NOTHING_TO_DO, "your seat is not away")
    return set_away(state, seat, False)
