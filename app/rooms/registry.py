"""This worker's rooms: create, find (loading from the store when needed), recover, unload.

With many workers (``ownership`` set) a room runs where its lease is held: taking a room (create,
load, failover) claims the lease, then fences the store at the lease's generation before reading
the room (``_claim``); a periodic sweep (``run``, every ``sweep_seconds``, jittered) takes over
the rooms in a match whose lease nobody holds, so a room with no client left (bots playing, a
turn timer running) carries on after its owner dies. Each tick also shares this worker's public
rooms and spectators per room (app/rooms/listing.py), so ``GET /api/rooms`` on any worker shows
every worker's public rooms (``listed_rooms``), and a room's spectators are counted on every
worker that holds sockets of it, not just on its owner.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import secrets
from collections.abc import Callable
from typing import Any

from app.bus import Bus
from app.config import Settings
from app.engine import EngineError, InvalidRules, RiggedDeal, preset
from app.store.base import RoomStore
from app.store.errors import Fenced, StoreError, UnknownRoom

from .codes import new_room_code, new_token, normalize_code, token_hash
from .errors import RoomError
from .forwarding import Forwarder, RemoteRoom
from .hub import room_topic
from .listing import SharedListing
from .meta import RoomMeta, SeatInfo
from .ownership import Ownership, lease_key
from .recorder import MatchRecorder, NoRecorder
from .replay import rebuild
from .room import Clock, Room, wall_clock_ms
from .views import summary

log = logging.getLogger("uno.rooms")


class RoomRegistry:
    def __init__(
        self,
        store: RoomStore,
        bus: Bus,
        settings: Settings,
        clock: Clock = wall_clock_ms,
        recorder: MatchRecorder | None = None,
    ) -> None:
        self.store = store
        self.recorder: MatchRecorder = recorder or NoRecorder()
        self.bus = bus
        self.settings = settings
        self.clock = clock
        self.rooms: dict[str, Room] = {}
        self._loading: dict[str, asyncio.Future[Room | None]] = {}
        self._creating: set[str] = set()  # codes drawn by a creation under way here
        self._created_by: dict[str, set[str]] = {}  # client -> codes of rooms it made here
        self._creator_of: dict[str, str] = {}  # and back, until the room stops here
        self.spectators: Any = None  # set by the app: code -> spectator count
        # Set by the app: this worker's spectators per room (many workers: shared each tick).
        self.spectator_counts: Callable[[], dict[str, int]] | None = None
        self._listing: SharedListing | None = None  # see ``listing``
        # Many workers (UNO_REDIS_URL): a room runs only on the holder of its lease.
        self.ownership: Ownership | None = None
        self.forwarder: Forwarder | None = None  # set: rooms run elsewhere are forwarded to
        self._releasing: set[asyncio.Task[None]] = set()
        self._sweeper: asyncio.Task[None] | None = None
        self.swept = 0  # rooms this worker took over in sweeps (tests, metrics)

    @property
    def listing(self) -> SharedListing | None:
        """What this worker shares with the others (many workers only)."""
        ownership = self.ownership
        if ownership is None:
            return None
        if self._listing is None or self._listing.worker != ownership.worker:
            self._listing = SharedListing(ownership.bus, ownership.worker,
                                          3 * self.settings.sweep_seconds)
        return self._listing

    async def create(
        self,
        name: str,
        *,
        preset_name: str | None = None,
        rules: dict[str, Any] | None = None,
        public: bool = True,
        max_players: int = 10,
        seed: int | None = None,
        deal: dict[str, Any] | None = None,
        player_key: str | None = None,
        league: str | None = None,
        fixed_rules: dict[str, Any] | None = None,
        creator: str | None = None,
    ) -> tuple[str, int, str]:
        """A new room with its creator in seat 0 as the host: (code, seat, token). The rules
        in ``fixed_rules`` (a league's) win over ``rules`` and no host command changes them;
        ``creator`` (a client address) is counted in ``open_empty_rooms``."""
        if len(self.rooms) >= self.settings.max_rooms:
            raise RoomError("server_full", "too many rooms are open; try again later", 503)
        ruleset = preset(preset_name or "official", {**(rules or {}), **(fixed_rules or {})})
        if deal is not None:
            if not self.settings.testing:
                raise RoomError("forbidden", "rigged deals need a server run with UNO_TESTING=1",
                                403)
            hands = deal.get("hands")
            try:
                RiggedDeal.parse(deal, len(hands) if isinstance(hands, list) else 0, ruleset.deck)
            except InvalidRules as exc:
                raise RoomError("bad_deal", exc.message, 400) from exc
        token = new_token()
        player_id = await self.recorder.profile_id(player_key)
        meta = RoomMeta(
            code="",
            rules=ruleset.to_dict(),
            preset=preset_name or "official",
            public=public,
            max_players=max_players,
            seed=seed if seed is not None else secrets.randbelow(2**52),
            seeded=seed is not None,
            deal=deal,
            league=league,
            fixed_rules=fixed_rules,
            host=0,
            created_ms=self.clock(),
            seats=[SeatInfo(name, token_hash(token), player_id=player_id)],
        )
        for _ in range(20):
            code = new_room_code()
            if code in self.rooms or code in self._creating:
                continue
            # Held until the room runs: a creation at the same time on this worker drawing the
            # same code would claim the same lease, and release it under this room on losing.
            self._creating.add(code)
            try:
                opened = await self._open_new(code, meta)
            finally:
                self._creating.discard(code)
            if opened is None:
                continue
            if public and self.ownership is not None:
                await self._list([opened])  # listed on every worker at once, not next tick
            if creator is not None:
                self._created_by.setdefault(creator, set()).add(code)
                self._creator_of[code] = creator
            return code, 0, token
        raise RoomError("server_full", "no free room code found; try again", 503)

    async def _open_new(self, code: str, meta: RoomMeta) -> Room | None:
        """Open room ``code`` in the store (under its lease) and run it; None: code taken."""
        if await self.store.load_room(code) is not None:
            return None
        meta.code = code
        generation = None
        try:
            if self.ownership is not None:
                await self.ownership.claim(code)
            await self.store.create_room(code, meta.to_dict())
            if self.ownership is not None:
                generation = await self._fence(code)
        except (StoreError, RoomError):
            await self._release(code)
            return None  # taken by another worker meanwhile
        room = Room(meta, self.store, self.bus, self.settings, self.clock,
                    recorder=self.recorder)
        room.lease_generation = generation
        self._run(room)
        return room

    async def get(self, code: str, *, known: bool = False) -> Room | None:
        """The live room ``code``, loaded from the store if it is not in memory; None: unknown.
        ``known``: the code is an open room's (no look before claiming its lease)."""
        code = normalize_code(code)
        room = self.rooms.get(code)
        if room is not None and not room.stopped:
            return room
        waiting = self._loading.get(code)
        if waiting is not None:
            return await asyncio.shield(waiting)
        future: asyncio.Future[Room | None] = asyncio.get_running_loop().create_future()
        self._loading[code] = future
        try:
            room = await self._load(code, known)
            future.set_result(room)
            return room
        except BaseException as exc:
            future.set_exception(exc)
            future.exception()  # retrieved: nobody else may be waiting
            raise
        finally:
            del self._loading[code]

    async def _load(self, code: str, known: bool = False) -> Room | None:
        stored = None if known else await self.store.load_room(code)
        if stored is None and not known:
            return None  # unknown codes take no lease
        if self.ownership is not None:
            try:
                await self.ownership.claim(code)
            except RoomError:
                if self.forwarder is None:
                    raise  # 503: another worker runs it
                if stored is None:
                    stored = await self.store.load_room(code)
                    if stored is None:
                        return None
                return RemoteRoom(self.forwarder, RoomMeta.from_dict(stored.meta), self.store,
                                  self.bus, self.settings, self.clock)
        generation = None
        try:
            # Fence the store at the lease's generation, then read the room under it: the
            # previous owner may have written meanwhile, and can write no more from now on.
            if self.ownership is not None:
                generation = await self._fence(code)
            else:
                await self.store.take_over(code, None)
            stored = await self.store.load_room(code)
        except UnknownRoom:
            stored = None
        except BaseException:
            await self._release(code)
            raise
        if stored is None:
            await self._release(code)
            return None
        try:
            room = rebuild(stored, self.store, self.bus, self.settings, self.clock)
            room.recorder = self.recorder
            room.lease_generation = generation
        except (EngineError, KeyError, TypeError, ValueError):
            log.exception("room %s cannot be rebuilt from the store", code)
            raise RoomError("unavailable", f"room {code} cannot be restored", 503) from None
        self._run(room)
        if self.ownership is not None:
            # Sockets elsewhere were seated by the previous owner: they reconnect and resume.
            await self.bus.publish(room_topic(code), {"control": "moved"})
        return room

    async def _fence(self, code: str) -> int:
        """Fence the store's writes to ``code`` at the lease just claimed, and return its
        generation (a RoomError 503, the lease released, if a newer owner fenced it already)."""
        assert self.ownership is not None
        generation = self.ownership.generations[code]
        try:
            await self.store.take_over(code, generation)
            return generation
        except Fenced as exc:
            # The database knows a newer generation than Redis gave: Redis lost its counters
            # (restarted without its data). Move the counter past the database's and claim again.
            log.warning("room %s: lease generation %d is behind the store's %d; claiming again",
                        code, generation, exc.current)
            await self.ownership.release(code)
            await self.ownership.bus.raise_generation(lease_key(code), exc.current)
        generation = await self.ownership.claim(code)
        try:
            await self.store.take_over(code, generation)
        except Fenced as exc:
            await self._release(code)
            raise RoomError("unavailable", f"room {code} is served by another worker",
                            503) from exc
        return generation

    def run(self) -> None:
        """Start the takeover sweep (many workers only)."""
        if self.ownership is not None and self._sweeper is None:
            self._sweeper = asyncio.create_task(self._sweep_loop(), name="takeover sweep")

    async def _sweep_loop(self) -> None:
        while True:
            # Jittered: the workers' sweeps do not line up.
            await asyncio.sleep(self.settings.sweep_seconds * random.uniform(0.75, 1.25))
            await self._list(list(self.rooms.values()))
            listing = self.listing
            if listing is not None:
                counts = self.spectator_counts() if self.spectator_counts is not None else {}
                await listing.share_spectators(counts)
            try:
                await self.sweep()
            except Exception as exc:  # the store or Redis away: try again next time
                log.warning("takeover sweep failed (%r)", exc)

    async def _list(self, rooms: list[Room]) -> None:
        """Put these rooms, those public and running, in the cluster-wide listing."""
        listing = self.listing
        if listing is None:
            return
        await listing.list_rooms({
            room.code: self.summary(room)
            for room in rooms
            if room.meta.public and not room.stopped and not isinstance(room, RemoteRoom)
        })

    async def listed_rooms(self) -> list[dict[str, Any]]:
        """Public rooms open to join or watch: this worker's, and with many workers every
        worker's (as listed within the last few seconds; this worker's own are current).
        Spectators are counted on every worker: this one's now, the others' as last shared."""
        listing = self.listing
        if listing is None:
            return self.public_rooms()
        try:
            listed = await listing.listed_rooms()
        except Exception as exc:  # Redis away: this worker's rooms at least
            log.warning("public rooms of other workers not read (%r)", exc)
            return self.public_rooms()
        local = self.public_rooms()
        here = {entry["code"] for entry in local}
        others = [
            entry for entry in listed
            if entry.get("code") not in here and entry.get("code") not in self.rooms
        ]
        for entry in others:  # the owner's count is its own sockets': count every worker's
            entry["spectators"] = self._spectators(str(entry.get("code")))
        return local + others

    async def sweep(self) -> int:
        """Take over every room in a match (not parked) whose lease nobody holds: lease first,
        then the room rebuilt from its snapshot and the records since, as on failover.
        The number of rooms taken."""
        if self.ownership is None:
            return 0
        codes = [
            code for code in await self.store.rooms_to_run()
            if code not in self._loading
            and (code not in self.rooms or self.rooms[code].stopped)
        ]
        if not codes:
            return 0
        holders = await self.ownership.bus.lease_holders([lease_key(code) for code in codes])
        taken = 0
        for code, holder in zip(codes, holders, strict=True):
            if holder is not None:
                continue
            try:
                room = await self.get(code, known=True)
            except (RoomError, StoreError) as exc:
                log.info("takeover sweep: room %s not taken (%r)", code, exc)
                continue
            if room is not None and not isinstance(room, RemoteRoom):
                log.warning("takeover sweep: room %s had no owner; running it here", code)
                taken += 1
        self.swept += taken
        return taken

    async def recover(self) -> int:
        """Start-up: bring back every room the store has open, except those parked (unloaded
        for idleness: they load when someone asks for them, as ``get`` does, and until then
        take no memory here and, with many workers, no lease)."""
        count = 0
        for code in await self.store.open_rooms():
            try:
                room = await self.get(code)
                if room is not None and not isinstance(room, RemoteRoom):
                    count += 1
            except RoomError:
                continue
        return count

    def open_empty_rooms(self, creator: str) -> int:
        """Rooms ``creator`` made on this worker that are still open and that nobody else has
        joined, nor played a match in."""
        count = 0
        for code in self._created_by.get(creator, ()):
            room = self.rooms.get(code)
            if room is None or room.stopped:
                continue  # dropped here (moved to another worker)
            meta = room.meta
            if meta.matches_started == 0 and sum(1 for s in meta.seats if s.human) <= 1:
                count += 1
        return count

    def public_rooms(self) -> list[dict[str, Any]]:
        out = []
        for room in self.rooms.values():
            if room.meta.public and not room.stopped:
                out.append(summary(room.meta, room.game, self._spectators(room.code)))
        return out

    def summary(self, room: Room) -> dict[str, Any]:
        return summary(room.meta, room.game, self._spectators(room.code))

    async def close(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._sweeper
            self._sweeper = None
        rooms = list(self.rooms.values())
        self.rooms.clear()
        for room in rooms:
            room.on_stop = None
            await room.stop()

    async def drop(self, code: str) -> None:
        """Stop running room ``code`` here without touching the store (its lease is gone)."""
        room = self.rooms.pop(code, None)
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

    async def _release(self, code: str, unlist: bool = False, unloaded: bool = False) -> None:
        """Give up room ``code``'s lease (and its listing). ``unloaded``: in the background,
        after the room stopped here; skipped if the room was loaded here again meanwhile (this
        worker claiming it again got the same lease, which is the new room's now), and the
        listing left alone if the room stopped because another worker took it over."""
        if self.ownership is None:
            return
        try:
            if unloaded and await self._running_again(code):
                return
            listing = self.listing
            if unlist and listing is not None and not (unloaded and await self._moved(code)):
                await listing.unlist(code)
            if unloaded and await self._running_again(code):
                return
            await self.ownership.release(code)
        except Exception as exc:  # the lease's TTL ends it anyway
            log.warning("room %s: lease not released (%r)", code, exc)

    async def _moved(self, code: str) -> bool:
        """Another worker holds room ``code``'s lease (and lists the room)."""
        assert self.ownership is not None
        holder = await self.ownership.bus.lease_holder(lease_key(code))
        return holder is not None and holder[0] != self.ownership.worker

    async def _running_again(self, code: str) -> bool:
        """Room ``code`` runs here again (after its load under way, if any, is over)."""
        loading = self._loading.get(code)
        if loading is not None:
            await asyncio.wait([loading])  # its result or error is its caller's
        room = self.rooms.get(code)
        return room is not None and not room.stopped

    def _spectators(self, code: str) -> int:
        """Spectators of room ``code``: this worker's, plus (many workers) the others'."""
        here = int(self.spectators(code)) if self.spectators is not None else 0
        listing = self.listing
        return here + (listing.spectators_elsewhere(code) if listing is not None else 0)

    def _run(self, room: Room) -> None:
        room.on_stop = self._forget
        self.rooms[room.code] = room
        room.start()

    def _forget(self, room: Room) -> None:
        if self.rooms.get(room.code) is room:
            del self.rooms[room.code]
            creator = self._creator_of.pop(room.code, None)
            if creator is not None:
                made = self._created_by[creator]
                made.discard(room.code)
                if not made:
                    del self._created_by[creator]
            self._unfence(room)
            if self.ownership is not None:
                task = asyncio.create_task(
                    self._release(room.code, unlist=room.meta.public, unloaded=True))
                self._releasing.add(task)
                task.add_done_callback(self._releasing.discard)
