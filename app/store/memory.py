"""An in-memory RoomStore: the default in unit tests (no database, no sleeps).

``MemoryRoomStore(shared=other)`` is another worker's view of the same rooms (its own fencing
generations, the same data), so fencing behaves as on SQL.
"""

from __future__ import annotations

import copy
from typing import Any

from .base import UNFENCED, RoomRecord, StoredRoom
from .errors import Fenced, RoomExists, UnknownRoom


class MemoryRoomStore:
    def __init__(self, shared: MemoryRoomStore | None = None) -> None:
        self._rooms: dict[str, StoredRoom] = shared._rooms if shared else {}
        self._closed: set[str] = shared._closed if shared else set()
        self._generations: dict[str, int] = shared._generations if shared else {}
        self._parked: set[str] = shared._parked if shared else set()
        self._fences: dict[str, int] = {}  # this store's generation per room it took over
        self._appends = 0

    def _fence(self, code: str) -> None:
        current = self._generations.get(code, 0)
        mine = self._fences.get(code, UNFENCED)
        if current > mine:
            raise Fenced(code, mine, current)

    async def create_room(self, code: str, meta: dict[str, Any]) -> None:
        if code in self._rooms and code not in self._closed:
            raise RoomExists(f"room {code} is already open")  # as the SQL store's constraint
        self._rooms[code] = StoredRoom(code, copy.deepcopy(meta), None, 0)
        self._generations[code] = 0
        self._parked.discard(code)
        self._closed.discard(code)  # a closed room's code is free again, with a clean log

    async def append(self, code: str, record: RoomRecord, meta: dict[str, Any] | None,
                     snapshot: dict[str, Any] | None = None) -> None:
        room = self._rooms[code]
        self._fence(code)
        self._appends += 1
        room.records.append(copy.deepcopy(record))
        if meta is not None:
            room.meta = copy.deepcopy(meta)
        if snapshot is not None:
            self._keep_snapshot(room, record.seq, snapshot)

    @property
    def available(self) -> bool:
        return True

    @property
    def transactions(self) -> int:
        return self._appends  # each append is its own

    async def save_snapshot(self, code: str, seq: int, snapshot: dict[str, Any]) -> None:
        room = self._rooms[code]
        self._fence(code)
        self._keep_snapshot(room, seq, snapshot)

    @staticmethod
    def _keep_snapshot(room: StoredRoom, seq: int, snapshot: dict[str, Any]) -> None:
        room.snapshot = copy.deepcopy(snapshot)
        room.snapshot_seq = seq
        room.records = [r for r in room.records if r.seq > seq]

    async def load_room(self, code: str) -> StoredRoom | None:
        room = self._rooms.get(code)
        return copy.deepcopy(room) if room is not None and code not in self._closed else None

    async def open_rooms(self) -> list[str]:
        return [code for code in self._rooms
                if code not in self._closed and code not in self._parked]

    async def close_room(self, code: str) -> None:
        if code in self._rooms and code not in self._closed:
            self._fence(code)
        self._closed.add(code)
        self._fences.pop(code, None)

    async def take_over(self, code: str, generation: int | None) -> None:
        if code not in self._rooms or code in self._closed:
            raise UnknownRoom(f"no open room {code}")
        if generation is not None:
            current = self._generations.get(code, 0)
            if current > generation or (
                current == generation and self._fences.get(code) != generation
            ):
                raise Fenced(code, generation, current)
            self._generations[code] = generation
            self._fences[code] = generation
        self._parked.discard(code)

    async def park(self, code: str) -> None:
        if code not in self._rooms or code in self._closed:
            raise UnknownRoom(f"no open room {code}")
        self._fence(code)
        self._parked.add(code)
        self._fences.pop(code, None)

    def forget(self, code: str, generation: int) -> None:
        """As ``SqlRoomStore.forget``: this worker no longer runs the room it took over at
        ``generation``; a later take-over's entry stays."""
        if self._fences.get(code) == generation:
            del self._fences[code]

    async def rooms_to_run(self) -> list[str]:
        return [
            code
            for code, room in self._rooms.items()
            if code not in self._closed
            and code not in self._parked
            and room.meta.get("phase", "lobby") != "lobby"
        ]
