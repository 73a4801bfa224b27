"""The in-process bus: one worker, synchronous fan-out, leases in a dict."""

from __future__ import annotations

import logging
import time
from typing import Any

from .base import Handler, Unsubscribe

log = logging.getLogger("uno.bus")


class InProcessBus:
    def __init__(self) -> None:
        self._subscribers: dict[str, list[Handler]] = {}
        self._leases: dict[str, tuple[str, float]] = {}

    async def publish(self, topic: str, message: dict[str, Any]) -> None:
        for handler in list(self._subscribers.get(topic, ())):
            try:
                handler(message)
            except Exception:  # one broken subscriber must not stop the others
                log.exception("bus subscriber failed on %s", topic)

    def subscribe(self, topic: str, handler: Handler) -> Unsubscribe:
        self._subscribers.setdefault(topic, []).append(handler)

        def unsubscribe() -> None:
            handlers = self._subscribers.get(topic)
            if handlers and handler in handlers:
                handlers.remove(handler)
                if not handlers:
                    del self._subscribers[topic]

        return unsubscribe

    def subscriber_count(self, topic: str) -> int:
        return len(self._subscribers.get(topic, ()))

    async def acquire(self, key: str, owner: str, ttl_seconds: float) -> bool:
        now = time.monotonic()
        held = self._leases.get(key)
        if held is not None and held[0] != owner and held[1] > now:
            return False
        self._leases[key] = (owner, now + ttl_seconds)
        return True

    async def release(self, key: str, owner: str) -> None:
        held = self._leases.get(key)
        if held is not None and held[0] == owner:
            del self._leases[key]

    async def ping(self) -> bool:
        return True

    async def close(self) -> None:
        self._subscribers.clear()
        self._leases.clear()
