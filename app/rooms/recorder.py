"""Match history as the room reports it: a match starts, each round ends, the match ends, a
player leaves mid-match. The SQL history store implements it (``HistoryRecorder``); without a
database the default only hands out match ids."""

from __future__ import annotations

import logging
import uuid
from typing import Any, Protocol

from .meta import RoomMeta

log = logging.getLogger("uno.history")


class MatchRecorder(Protocol):
    async def start(self, meta: RoomMeta, seed: int, first_seq: int) -> str:
        """Record a match starting now in ``meta``'s room; its id."""

    async def round_over(self, match: str, result: dict[str, Any]) -> None: ...

    async def match_over(self, match: str, result: dict[str, Any], last_seq: int) -> None: ...

    async def left(self, match: str, seat: int) -> None: ...

    async def profile_id(self, key: str | None) -> int | None:
        """The guest profile a secret key proves (the key itself is never stored)."""


class NoRecorder:
    async def start(self, meta: RoomMeta, seed: int, first_seq: int) -> str:
        return uuid.uuid4().hex

    async def round_over(self, match: str, result: dict[str, Any]) -> None:
        return None

    async def match_over(self, match: str, result: dict[str, Any], last_seq: int) -> None:
        return None

    async def left(self, match: str, seat: int) -> None:
        return None

    async def profile_id(self, key: str | None) -> int | None:
        return None
