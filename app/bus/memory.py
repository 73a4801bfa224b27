"""The in-process bus: one worker, synchronous fan-out in publish order."""

from __future__ import annotations

import logging
from typing import Any

from .base import BusStatus, Handler, Unsubscribe

log = logging.getLogger("uno.bus")


class InProcessBus:
    def __init__(self) -> None:
        self._subscribers: dict[str, list[Handler]] = {}

    async def publish(self, topic: str, message: dict[str, Any]) -> None:
        self.deliver(topic, message)

    def deliver(self, topic: str, message: dict[str, Any]) -> None:
        """Hand ``message`` to this process's subscribers of ``topic``, now, in order."""
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

    def topics(self) -> list[str]:
        """The topics this process's subscribers listen to."""
        return list(self._subscribers)

    async def ping(self) -> bool:
        return True

    def status(self) -> BusStatus:
        return BusStatus()  # nothing to lose: always connected

    async def close(self) -> None:
        self._subscribers.clear()
