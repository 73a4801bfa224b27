"""This worker's rooms: create, find (loading from the store when needed), recover, unload.

Where a room runs is its ``Placement``'s to say (app/rooms/placement.py): with one worker every
room runs here; with several (app/cluster) a room runs on the holder of its lease, and ``get``
returns a handle that forwards to it. A room that runs here is claimed, then the store is fenced
at the claim before the room is read (a previous owner may have written meanwhile, and can
write no more from then on).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Callable
from typing import Any

from app.bus import Bus
from app.config import Settings
from app.engine import EngineError
from app.store.base import RoomStore
from app.store.errors import StoreError, UnknownRoom
from app.store.records import FormatTooNew, format_for, stamped

from .actor import Clock
from .codes import new_room_code, normalize_code
from .errors import RoomError, RoomUnavailable
from .handle import RoomHandle
from .meta import RoomMeta
from .placement import Placement, RoomElsewhere, SoloPlacement
from .rebuild import rebuilt_state
from .recorder import MatchRecorder, NoRecorder
from .room import Room, wall_clock_ms
from .spec import RoomSpec
from .state import RoomState

log = logging.getLogger("uno.rooms")


class RoomRegistry:
    def __init__(
        self,
        store: RoomStore,
        bus: Bus,
        settings: Settings,
        clock: Clock = wall_clock_ms,
        recorder: MatchRecorder | None = None,
        placement: Placement | None = None,
        spectators: Callable[[str], int] = lambda code: 0,
    ) -> None:
        self.store = store
        self.recorder: MatchRecorder = recorder or NoRecorder()
        self.bus = bus
        self.settings = settings
        self.clock = clock
        self.placement: Placement = placement or SoloPlacement(store)
        self.spectators_here = spectators  # this worker's spectators of a room
        self._format = format_for(settings.record_format, settings.testing)
        self.draining = False  # told to stop: no room starts here any more
        self._rooms: dict[str, Room] = {}
        self._loading: dict[str, asyncio.Future[RoomHandle | None]] = {}
        self._creating: set[str] = set()  # codes drawn by a creation under way here
        self._created_by: dict[str, set[str]] = {}  # client -> codes of rooms it made here
        self._creator_of: dict[str, str] = {}  # and back, until the room stops here

    @property
    def rooms(self) -> dict[str, Room]:
        """The rooms running on this worker (read it; the registry keeps it)."""
        return self._rooms

    def loading(self, code: str) -> bool:
        """Is room ``code`` being loaded here now?"""
        return code in self._loading

    async def running_here(self, code: str) -> bool:
        """Does room ``code`` run here (once its load under way, if any, is over)?"""
        loading = self._loading.get(code)
        if loading is not None:
            await asyncio.wait([loading])  # its result or error is its caller's
        return self.local(code) is not None

    def local(self, code: str) -> Room | None:
        """Room ``code`` if it runs here now."""
        room = self._rooms.get(code)
        return room if room is not None and not room.stopped else None

    async def create(self, spec: RoomSpec, creator: str | None = None) -> str:
        """Open a new room as ``spec`` says; its code. ``creator`` (a client address) is
        counted in ``open_empty_rooms``."""
        if self.draining:
            raise RoomUnavailable("this worker is restarting: try again")
        if len(self._rooms) >= self.settings.max_rooms:
            raise RoomError("server_full", "too many rooms are open; try again later", 503)
        meta = spec.meta("", self.clock(), secrets.randbelow(2**52), self.settings.testing)
        for _ in range(20):
            code = new_room_code()
            if code in self._rooms or code in self._creating:
                continue
            # Held until the room runs: a creation at the same time on this worker drawing the
            # same code would claim the same lease, and release it under this room on losing.
            self._creating.add(code)
            try:
                opened = await self._open_new(code, meta)
            finally:
                self._creating.discard(code)
            if not opened:
                continue
            if creator is not None:
                self._created_by.setdefault(creator, set()).add(code)
                self._creator_of[code] = creator
            return code
        raise RoomError("server_full", "no free room code found; try again", 503)

    async def profile_id(self, player_key: str | None) -> int | None:
        """The guest profile a secret key proves (None: none, or no key)."""
        return await self.recorder.profile_id(player_key)

    async def _open_new(self, code: str, meta: RoomMeta) -> bool:
        """Open room ``code`` in the store (under its claim) and run it; False: code taken."""
        if await self.store.load_room(code) is not None:
            return False
        meta.code = code
        placement = self.placement
        try:
            await placement.claim(code)
            await self.store.create_room(code, stamped(meta.to_dict(), self._format))
            generation = await placement.fence(code)
        except (StoreError, RoomError):
            await placement.release(code)
            return False  # taken by another worker meanwhile
        room = Room(RoomState(meta), self.store, self.bus, self.settings, self.clock,
                    recorder=self.recorder)
        room.lease_generation = generation
        self._run(room)
        await placement.started(code, self.summary(room) if meta.public else None, True)
        return True

    async def get(self, code: str, *, known: bool = False) -> RoomHandle | None:
        """Room ``code``, loaded from the store if it is not running here (or a handle on it
        where another worker runs it); None: unknown. ``known``: the code is an open room's
        (no look before claiming it)."""
        code = normalize_code(code)
        room = self.local(code)
        if room is not None:
            return room
        if self.draining:  # its rooms are moving away: nothing new comes here
            raise RoomUnavailable("this worker is restarting: try again")
        waiting = self._loading.get(code)
        if waiting is not None:
            return await asyncio.shield(waiting)
        future: asyncio.Future[RoomHandle | None] = asyncio.get_running_loop().create_future()
        self._loading[code] = future
        try:
            found = await self._load(code, known)
            future.set_result(found)
            return found
        except BaseException as exc:
            future.set_exception(exc)
            future.exception()  # retrieved: nobody else may be waiting
            raise
        finally:
            del self._loading[code]

    async def _load(self, code: str, known: bool = False) -> RoomHandle | None:
        stored = None if known else await self.store.load_room(code)
        if stored is None and not known:
            return None  # unknown codes take no claim
        placement = self.placement
        try:
            await placement.claim(code)
        except RoomElsewhere:
            if stored is None:
                stored = await self.store.load_room(code)
                if stored is None:
                    return None
            return placement.remote(code)
        try:
            generation = await placement.fence(code)
            stored = await self.store.load_room(code)
        except UnknownRoom:
            stored = None
        except BaseException:
            await placement.release(code)
            raise
        if stored is None:
            await placement.release(code)
            return None
        try:
            state, seq, history = rebuilt_state(stored, self.clock(), self._format)
        except FormatTooNew as exc:  # a rolling deploy: a worker of the newer build takes it
            await placement.release(code)
            log.warning("room %s is not for this build: %s", code, exc)
            raise RoomUnavailable(f"room {code} was written by a newer build: try again "
                                  "shortly") from None
        except (EngineError, KeyError, TypeError, ValueError):
            await placement.release(code)
            log.exception("room %s cannot be rebuilt from the store", code)
            raise RoomError("unavailable", f"room {code} cannot be restored", 503) from None
        room = Room(state, self.store, self.bus, self.settings, self.clock, seq, history,
                    self.recorder)
        room.lease_generation = generation
        self._run(room)
        await placement.started(code, self.summary(room) if state.meta.public else None, False)
        return room

    async def recover(self) -> int:
        """Start-up: bring back every room the store has open, except those parked (unloaded
        for idleness: they load when someone asks for them, as ``get`` does, and until then
        take no memory here and, with many workers, no lease)."""
        count = 0
        for code in await self.store.open_rooms():
            try:
                await self.get(code)
            except RoomError:
                continue
            if self.local(code) is not None:
                count += 1
        return count

    def store_back(self) -> None:
        """The database is back after an outage: every room here carries on by itself."""
        for room in list(self._rooms.values()):
            room.store_back()

    def open_empty_rooms(self, creator: str) -> int:
        """Rooms ``creator`` made on this worker that are still open and that nobody else has
        joined, nor played a match in."""
        count = 0
        for code in self._created_by.get(creator, ()):
            room = self.local(code)
            if room is None:
                continue  # dropped here (moved to another worker)
            meta = room.state.meta
            if meta.matches_started == 0 and sum(1 for s in meta.seats if s.human) <= 1:
                count += 1
        return count

    def public_rooms(self) -> list[dict[str, Any]]:
        return [self.summary(room) for room in self._rooms.values()
                if room.state.meta.public and not room.stopped]

    async def listed_rooms(self) -> list[dict[str, Any]]:
        """Public rooms open to join or watch: this worker's, and with many workers every
        worker's."""
        return await self.placement.listed_rooms(self.public_rooms())

    def spectators(self, code: str) -> int:
        """Spectators of room ``code``: this worker's, plus (many workers) the others'."""
        return self.spectators_here(code) + self.placement.spectators_elsewhere(code)

    def summary(self, room: Room) -> dict[str, Any]:
        """The public summary of a room run here, as the room list shows it."""
        return room.listing(self.spectators(room.code))

    async def close(self) -> None:
        rooms = list(self._rooms.values())
        self._rooms.clear()
        for room in rooms:
            room.on_stop = None
            await room.stop()

    async def drop(self, code: str) -> None:
        """Stop running room ``code`` here without touching the store (its claim is gone)."""
        room = self._rooms.pop(code, None)
        if room is not None:
            room.on_stop = None
            await room.stop()
            self._unfence(room)

    def _unfence(self, room: Room) -> None:
        """Room ``room`` stopped here and writes no more (its task is done, or ends without
        another write): the store may drop the fencing entry it keeps for it. Its writes
        still queued carry their generation, so a newer owner's fence still refuses them."""
        if room.lease_generation is not None:
            self.store.forget(room.code, room.lease_generation)

    def _run(self, room: Room) -> None:
        room.on_stop = self._forget
        self._rooms[room.code] = room
        room.start()

    def _forget(self, room: Room) -> None:
        if self._rooms.get(room.code) is not room:
            return
        del self._rooms[room.code]
        creator = self._creator_of.pop(room.code, None)
        if creator is not None:
            made = self._created_by[creator]
            made.discard(room.code)
            if not made:
                del self._created_by[creator]
        self._unfence(room)
        self.placement.stopped(room.code, room.state.meta.public)


__all__ = ["RoomRegistry"]
