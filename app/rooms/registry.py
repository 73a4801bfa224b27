"""This worker's rooms: create, find (loading from the store when needed), recover, unload."""

from __future__ import annotations

import asyncio
import logging
import secrets
from typing import Any

from app.bus import Bus
from app.config import Settings
from app.engine import EngineError, InvalidRules, RiggedDeal, preset
from app.store.base import RoomStore
from app.store.errors import StoreError

from .codes import new_room_code, new_token, normalize_code, token_hash
from .errors import RoomError
from .forwarding import Forwarder, RemoteRoom
from .hub import room_topic
from .lobby import clean_name
from .meta import RoomMeta, SeatInfo
from .ownership import Ownership
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
        self.spectators: Any = None  # set by the app: code -> spectator count
        # Many workers (UNO_REDIS_URL): a room runs only on the holder of its lease.
        self.ownership: Ownership | None = None
        self.forwarder: Forwarder | None = None  # set: rooms run elsewhere are forwarded to
        self._releasing: set[asyncio.Task[None]] = set()

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
    ) -> tuple[str, int, str]:
        """A new room with its creator in seat 0 as the host: (code, seat, token)."""
        if len(self.rooms) >= self.settings.max_rooms:
            raise RoomError("server_full", "too many rooms are open; try again later", 503)
        name = clean_name(name)
        ruleset = preset(preset_name or "official", rules or {})
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
            deal=deal,
            league=league,
            host=0,
            created_ms=self.clock(),
            seats=[SeatInfo(name, token_hash(token), player_id=player_id)],
        )
        for _ in range(20):
            code = new_room_code()
            if code in self.rooms or await self.store.load_room(code) is not None:
                continue
            meta.code = code
            try:
                if self.ownership is not None:
                    await self.ownership.claim(code)
                await self.store.create_room(code, meta.to_dict())
            except (StoreError, RoomError):
                await self._release(code)
                continue  # taken by another worker meanwhile
            self._run(Room(meta, self.store, self.bus, self.settings, self.clock,
                           recorder=self.recorder))
            return code, 0, token
        raise RoomError("server_full", "no free room code found; try again", 503)

    async def get(self, code: str) -> Room | None:
        """The live room ``code``, loaded from the store if it is not in memory; None: unknown."""
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
            room = await self._load(code)
            future.set_result(room)
            return room
        except BaseException as exc:
            future.set_exception(exc)
            future.exception()  # retrieved: nobody else may be waiting
            raise
        finally:
            del self._loading[code]

    async def _load(self, code: str) -> Room | None:
        stored = await self.store.load_room(code)
        if stored is None:
            return None  # unknown codes take no lease
        if self.ownership is not None:
            try:
                await self.ownership.claim(code)
            except RoomError:
                if self.forwarder is None:
                    raise  # 503: another worker runs it
                return RemoteRoom(self.forwarder, RoomMeta.from_dict(stored.meta), self.store,
                                  self.bus, self.settings, self.clock)
            # Read again under the lease: the previous owner may have written meanwhile.
            stored = await self.store.load_room(code)
            if stored is None:
                await self._release(code)
                return None
        try:
            room = rebuild(stored, self.store, self.bus, self.settings, self.clock)
            room.recorder = self.recorder
        except (EngineError, KeyError, TypeError, ValueError):
            log.exception("room %s cannot be rebuilt from the store", code)
            raise RoomError("unavailable", f"room {code} cannot be restored", 503) from None
        self._run(room)
        if self.ownership is not None:
            # Sockets elsewhere were seated by the previous owner: they reconnect and resume.
            await self.bus.publish(room_topic(code), {"control": "moved"})
        return room

    async def recover(self) -> int:
        """Start-up: bring back every room the store has open."""
        count = 0
        for code in await self.store.open_rooms():
            try:
                room = await self.get(code)
                if room is not None and not isinstance(room, RemoteRoom):
                    count += 1
            except RoomError:
                continue
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

    async def _release(self, code: str) -> None:
        if self.ownership is not None:
            try:
                await self.ownership.release(code)
            except Exception as exc:  # the lease's TTL ends it anyway
                log.warning("room %s: lease not released (%r)", code, exc)

    def _spectators(self, code: str) -> int:
        return int(self.spectators(code)) if self.spectators is not None else 0

    def _run(self, room: Room) -> None:
        room.on_stop = self._forget
        self.rooms[room.code] = room
        room.start()

    def _forget(self, room: Room) -> None:
        if self.rooms.get(room.code) is room:
            del self.rooms[room.code]
            if self.ownership is not None:
                task = asyncio.create_task(self._release(room.code))
                self._releasing.add(task)
                task.add_done_callback(self._releasing.discard)
