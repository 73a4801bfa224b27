"""Who runs a tournament's rounds. One worker: this one (``SoloLeases``). Several: the holder
of its lease, the same leases rooms are owned by (app/cluster/leases.py ``TournamentLeases``),
keyed by the tournament's 5-letter code, which no room code can be."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol


class Leases(Protocol):
    async def claim(self, code: str) -> int | None:
        """Take tournament ``code`` to run here: the lease generation, or None (another worker
        holds it)."""

    async def release(self, code: str) -> None: ...

    def on_lost(self, hook: Callable[[str], None]) -> None:
        """Call ``hook`` with a code whose lease this worker gave up or lost."""


class SoloLeases:
    """One worker: every tournament is this worker's, and nothing needs fencing."""

    async def claim(self, code: str) -> int | None:
        return 0

    async def release(self, code: str) -> None:
        return None

    def on_lost(self, hook: Callable[[str], None]) -> None:
        return None
