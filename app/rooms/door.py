"""People coming and going, for the room actor (app/rooms/actor.py): joins and spectator tokens,
sockets connecting and disconnecting (who is here: ``Presence``), the host role passing on,
the queue filling free seats, people let in, how many watch. The door owns who is connected;
the actor owns the room's state, and every change goes through its ``apply``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from app.config import Settings
from app.jsonwire import compact_json

from . import approval, audience, queue, seating, spectators
from .codes import new_token, token_hash
from .controls import Admitted
from .errors import STORE_UNAVAILABLE, RoomError, RoomUnavailable
from .hub import Viewer, person_of
from .journal import Journal
from .messages import (
    Admission,
    CountSpectators,
    Granted,
    IdleCheck,
    JoinRequest,
    Message,
    WatchRequest,
)
from .people import Person
from .presence import Presence
from .recorder import MatchRecorder
from .state import Outcome, RoomState
from .store_wait import StoreWait


class Room(Protocol):
    """What the door needs of the actor: its state, and its one way of changing it."""

    state: RoomState
    journal: Journal
    wait: StoreWait

    async def apply(self, outcome: Outcome) -> Any: ...


class Door:
    def __init__(self, room: Room, recorder: MatchRecorder, settings: Settings,
                 clock: Callable[[], int], post_later: Callable[[float, Message], None]) -> None:
        self._room = room
        self._recorder = recorder
        self._settings = settings
        self._clock = clock
        self._post_later = post_later
        self.presence = Presence()

    @property
    def spectators(self) -> int:
        return self.presence.spectators(self._room.state.meta.audience)

    async def _apply_any(self, outcome: Outcome | None) -> None:
        if outcome is not None:
            await self._room.apply(outcome)

    async def _while_stored(self, outcome: Outcome | None) -> None:
        """Apply a change of who is here, unless the database is away: then it waits for
        ``reconcile`` (a socket may come and go while the room waits for its database)."""
        if outcome is None:
            return
        try:
            await self._room.apply(outcome)
        except RoomError as exc:
            if exc.code != STORE_UNAVAILABLE:
                raise

    # -- joining ----------------------------------------------------------------------------

    async def join(self, request: JoinRequest) -> Granted:
        room = self._room
        player_id = await self._recorder.profile_id(request.player_key)
        token = new_token()
        if room.state.meta.approval:  # O-APPROVAL: the host decides
            asked = await room.apply(approval.ask(room.state, request.name, token_hash(token),
                                                  player_id, request.device, self._clock(),
                                                  watch=False))
            return Granted(token, request=asked)
        seat = await room.apply(seating.join(room.state, request.name, token_hash(token),
                                             player_id, request.device))
        return Granted(token, seat=seat)

    async def watch(self, request: WatchRequest) -> Granted:
        room = self._room
        player_id = await self._recorder.profile_id(request.player_key)
        token = new_token()
        if room.state.meta.approval_watch:
            asked = await room.apply(approval.ask(
                room.state, request.name or "A spectator", token_hash(token), player_id,
                request.device, self._clock(), watch=True))
            return Granted(token, request=asked)
        spectator = await room.apply(spectators.watch(
            room.state, request.name, token_hash(token), player_id, request.device,
            self._settings.spectators_per_room, self.presence.connected()))
        return Granted(token, spectator=spectator)

    # -- sockets ----------------------------------------------------------------------------

    async def connect(self, viewer: Viewer, since: int | None) -> Admission:
        """Identify the viewer by its token (checked here, in order with kicks), mark its
        person connected, then send its first frames."""
        room = self._room
        if room.wait.tainted:  # ahead of its store: nothing of it may be shown until reloaded
            raise RoomUnavailable("the room waits for its database; try again in a moment")
        person = seating.identify(room.state.meta, viewer.token_hash)
        viewer.seat, viewer.spectator, viewer.request = (person.seat, person.spectator,
                                                         person.request)
        hashed = viewer.token_hash
        first = self.presence.opened(hashed)
        if hashed is None:
            viewer.watcher = self.presence.number()
        if person.request is not None:
            pass  # O-APPROVAL: waiting, neither player nor spectator
        elif person.seat is None:
            self.count_spectators()
            await self._while_stored(self.fill_seats())  # O-QUEUE: their turn may be now
        else:
            if first and not room.state.meta.seats[person.seat].connected:
                await self._while_stored(self.seat_presence(person.seat, True))
            await self._while_stored(self.pass_host())
        journal = room.journal
        viewer.begin(journal.resume_frames(room.state, person_of(viewer), since,
                                           self.spectators), journal.seq)
        return Admission(viewer.seat, viewer.spectator, viewer.watcher, viewer.request)

    async def disconnect(self, viewer: Viewer) -> None:
        hashed = viewer.token_hash
        last = self.presence.closed(hashed, anonymous=hashed is None)
        if self.presence.viewers == 0:
            self._post_later(self._settings.idle_seconds, IdleCheck())
        if viewer.seat is None:
            self.count_spectators()
        if not last or hashed is None:
            return
        seat = self._room.state.meta.seat_of_token(hashed)
        if seat is not None:  # else kicked or left: the seat is gone already
            await self._while_stored(self.seat_presence(seat, False))

    async def reconcile(self) -> None:
        """After the database was away: every seat says what its sockets say, and the host role
        and the free seats are settled as they would have been."""
        for seat, info in enumerate(self._room.state.meta.seats):
            if info.human and self.presence.present(info.token_hash) != info.connected:
                await self._room.apply(self.seat_presence(seat, not info.connected))
        await self._apply_any(self.pass_host())
        await self._apply_any(self.fill_seats())

    async def welcome(self, hashed: str, person: Person) -> None:
        """O-APPROVAL: a person let in: their waiting sockets (on any worker) get the table as
        it is now, after an ``admitted`` frame."""
        room = self._room
        journal = room.journal
        seq = journal.seq
        admitted = compact_json({"type": "event", "seq": seq, "event": {
            "kind": "admitted", "seat": person.seat, "spectator": person.spectator}})
        state = journal.state_frame(room.state, person, self.spectators)
        await journal.publish(Admitted(hashed, person.seat, person.spectator,
                                       [admitted, state], seq))
        if person.seat is not None and self.presence.present(hashed):
            await room.apply(self.seat_presence(person.seat, True))

    # -- what follows from who is here ------------------------------------------------------

    def fill_seats(self) -> Outcome | None:
        """O-QUEUE: between matches the free seats go to the queue, to those here now."""
        state = self._room.state
        meta = state.meta
        if not meta.audience.queue or len(meta.seats) >= meta.max_players:
            return None
        return queue.fill(state, self.presence.connected())

    def count_spectators(self) -> None:
        """Everyone hears how many watch, at most every WATCHING_EVERY seconds."""
        presence = self.presence
        if not presence.counting:
            presence.counting = True
            self._post_later(audience.WATCHING_EVERY, CountSpectators())

    async def announce_spectators(self) -> None:
        presence = self.presence
        presence.counting = False
        count = self.spectators
        if count != presence.announced:
            presence.announced = count
            await self._while_stored(audience.watching(count))

    def seat_presence(self, seat: int, connected: bool) -> Outcome:
        return seating.presence(self._room.state, seat, connected, self._clock(),
                                self._settings.host_grace_seconds)

    def pass_host(self) -> Outcome | None:
        return seating.pass_host(self._room.state, self._clock(),
                                 self._settings.host_grace_seconds)
