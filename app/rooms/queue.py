"""O-QUEUE: a named spectator queues for a seat; between matches the free seats go to the queue
in order (the host may reorder it or take people off); a queued spectator who is not connected
when their turn to sit comes is skipped and stays queued. Pure: ``present`` (the token hashes
of the people connected now) is the actor's to give."""

from __future__ import annotations

from typing import Any

from app.engine import Event
from app.store.records import QueueChanged, SeatedFromQueue

from .commands import Queue, QueueOrder, Unqueue
from .controls import Reseat
from .errors import BAD_SEAT, FORBIDDEN, NOTHING_TO_DO, RoomError
from .meta import RoomMeta, SeatInfo
from .people import Person, Spectator
from .seating import seats_public, to_lobby
from .state import Context, Outcome, RoomState


def queue_public(meta: RoomMeta) -> list[dict[str, Any]]:
    """``state.queue``: who waits for a seat, first to sit first."""
    audience = meta.audience
    out = []
    for spectator_id in audience.queue:
        found = audience.spectator(spectator_id)
        if found is not None:
            out.append({"spectator": found.id, "name": found.name})
    return out


def _changed(meta: RoomMeta, game: Any) -> Outcome:
    return Outcome(QueueChanged(list(meta.audience.queue)),
                   [Event("queue", {"queue": queue_public(meta)})], state=RoomState(meta, game))


def _named(state: RoomState, person: Person) -> Spectator:
    found = (None if person.spectator is None
             else state.meta.audience.spectator(person.spectator))
    if found is None:
        raise RoomError(FORBIDDEN, "only a spectator with a token of their own may queue")
    return found


def join_queue(state: RoomState, person: Person, command: Queue, ctx: Context) -> Outcome:
    spectator = _named(state, person)
    if spectator.name is None:
        raise RoomError(FORBIDDEN, "give a name to queue for a seat (POST .../watch with 'name')")
    if spectator.id in state.meta.audience.queue:
        raise RoomError(NOTHING_TO_DO, "you are in the queue already")
    meta = state.meta.copy()
    meta.audience.queue.append(spectator.id)
    return _changed(meta, state.game)


def leave_queue(state: RoomState, person: Person, command: Unqueue, ctx: Context) -> Outcome:
    """A spectator leaves the queue; the host (naming ``spectator``) takes someone off it."""
    if command.spectator is None:
        target = _named(state, person).id
    elif person.seat is None or person.seat != state.meta.host:
        raise RoomError(FORBIDDEN, "only the host may take someone else off the queue")
    else:
        target = command.spectator
    if target not in state.meta.audience.queue:
        raise RoomError(NOTHING_TO_DO, f"spectator {target} is not in the queue")
    meta = state.meta.copy()
    meta.audience.queue.remove(target)
    return _changed(meta, state.game)


def reorder(state: RoomState, person: Person, command: QueueOrder, ctx: Context) -> Outcome:
    queue = state.meta.audience.queue
    order = list(command.order)
    if sorted(order) != sorted(queue):
        raise RoomError(BAD_SEAT, "the new order must name every queued spectator once: "
                        f"{queue}")
    meta = state.meta.copy()
    meta.audience.queue = order
    return _changed(meta, state.game)


def fill(state: RoomState, present: frozenset[str]) -> Outcome | None:
    """Between matches: the free seats go to the queue, in order, to those connected now."""
    meta = state.meta
    free = meta.max_players - len(meta.seats)
    audience = meta.audience
    if not audience.queue or free <= 0 or not state.between_matches:
        return None
    ready = [s for s in (audience.spectator(i) for i in audience.queue)
             if s is not None and s.token_hash in present and s.name is not None][:free]
    if not ready:
        return None
    meta = to_lobby(state)
    seated: list[list[int]] = []
    events: list[Event] = []
    for spectator in ready:
        meta.seats.append(SeatInfo(spectator.name or "", spectator.token_hash,
                                   player_id=spectator.player_id, connected=True,
                                   device=spectator.device))
        seat = len(meta.seats) - 1
        meta.audience.queue.remove(spectator.id)
        meta.audience.spectators = [s for s in meta.audience.spectators if s.id != spectator.id]
        if meta.host is None and meta.tournament is None:
            meta.host = seat
        seated.append([spectator.id, seat])
        events.append(Event("seated", {"spectator": spectator.id, "seat": seat,
                                       "name": spectator.name, **seats_public(meta)}))
    events.append(Event("queue", {"queue": queue_public(meta)}))
    reseat = Reseat({spectator.token_hash: seat for spectator, (_, seat) in zip(ready, seated,
                                                                                  strict=True)})
    return Outcome(SeatedFromQueue(seated), events, state=RoomState(meta), controls=[reseat])
