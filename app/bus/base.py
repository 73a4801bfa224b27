"""The bus interface: topics carry JSON-safe dicts; leases say which worker owns a room.

With one worker the in-process bus hands each message to its subscribers at once, in publish
order. A Redis bus delivers in order per topic too, from a supervised listener task.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

Handler = Callable[[dict[str, Any]], None]
Unsubscribe = Callable[[], None]


class Bus(Protocol):
    async def publish(self, topic: str, message: dict[str, Any]) -> None: ...

    def subscribe(self, topic: str, handler: Handler) -> Unsubscribe:
        """Call ``handler`` with every message published on ``topic`` from now on."""

    async def acquire(self, key: str, owner: str, ttl_seconds: float) -> bool:
        """Take or renew the lease ``key`` for ``owner``; False if another owner holds it."""

    async def release(self, key: str, owner: str) -> None: ...

    async def ping(self) -> bool: ...

    async def close(self) -> None: ...
