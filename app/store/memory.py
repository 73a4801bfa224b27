"""An in-memory RoomStore: the default in unit tests (no database, no sleeps)."""

from __future__ import annotations

import copy
from typing import Any

from .base import RoomRecord, StoredRoom


class MemoryRoomStore:
    def __init__(self) -> None:
        self._rooms: dict[str, StoredRoom] = {}
        self._closed: set[str] = set()

    async def create_room(self, code: str, meta: dict[str, Any]) -> None:
        self._rooms[code] = StoredRoom(code, copy.deepcopy(meta), None, 0)

    async def append(self, code: str, record: RoomRecord, meta: dict[str, Any] | None) -> None:
        room = self._rooms[code]
        room.records.append(copy.deepcopy(record))
        if meta is not None:
            room.meta = copy.deepcopy(meta)

    async def save_snapshot(self, code: str, seq: int, snapshot: dict[str, Any]) -> None:
        room = self._rooms[code]
        room.snapshot = copy.deepcopy(snapshot)
        room.snapshot_seq = seq
        room.records = [r for r in room.records if r.seq > seq]

    async def load_room(self, code: str) -> StoredRoom | None:
        room = self._rooms.get(code)
        return copy.deepcopy(room) if room is not None and code not in self._closed else None

    async def open_rooms(self) -> list[str]:
        return [code for code in self._rooms if code not in self._closed]

    async def close_room(self, code: str) -> None:
        self._closed.add(code)
