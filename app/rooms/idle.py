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
from .errors import NOTHING_TO_DO, RoomError
from .people import Person
from .state import Context, Outcome, RoomState


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


def gone_on_turn(state: RoomState, now_ms: int, grace_ms: int) -> tuple[list[int], int | None]:
    """O-DISCONNECT: the seats the table waits for whose person has been gone for the
    reconnect grace (a reload, a network blip is not gone): they go away now. Also, when a
    waited person is gone for less than the grace, the time to look again (ms from now)."""
    game = state.game
    if game is None or not state.playing or _limit(state) == 0 or game.phase != "playing":
        return [], None
    seats = state.meta.seats
    due: list[int] = []
    again: int | None = None
    for seat in game.waiting_on():
        info = seats[seat] if seat < len(seats) else None
        if info is None or info.bot or info.away or info.connected:
            continue
        gone_for = now_ms - (info.disconnected_ms if info.disconnected_ms is not None
                             else now_ms - grace_ms)
        if gone_for >= grace_ms:
            due.append(seat)
        else:
            left = grace_ms - gone_for
            again = left if again is None else min(again, left)
    return due, again


def back(state: RoomState, person: Person, command: Back, ctx: Context) -> Outcome:
    """``back``: the person takes their away seat again."""
    seat = person.seat
    if seat is None or not state.meta.seats[seat].away:
        raise RoomError(NOTHING_TO_DO, "your seat is not away")
    return set_away(state, seat, False)
