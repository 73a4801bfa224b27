"""The bus interface: topics carry JSON-safe dicts, in publish order per topic.

With one worker the in-process bus hands each message to its subscribers at once. With several,
the cluster's bus (app/cluster/leased_bus.py) also carries them between workers through Redis.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

Handler = Callable[[dict[str, Any]], None]
Unsubscribe = Callable[[], None]


@dataclass(frozen=True, slots=True)
class BusStatus:
    """For /metrics: is the listener connected now, and how often did it come back."""

    connected: bool = True
    reconnects: int = 0


class Bus(Protocol):
    async def publish(self, topic: str, message: dict[str, Any]) -> None: ...

    def subscribe(self, topic: str, handler: Handler) -> Unsubscribe:
        """Call ``handler`` with every message published on ``topic`` from now on."""

    async def ping(self) -> bool:
        """Is the bus reachable (for /readyz)?"""

    def status(self) -> BusStatus:
        """The listener's state now (for /metrics)."""

    async def close(self) -> None: ...
