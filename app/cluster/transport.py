"""What the cluster's pieces need of Redis: topics on pub/sub and the shared keys. Two sibling
implementations: ``RedisBus`` (one Redis, ``UNO_REDIS_URL``) and ``ClusterBus`` (a Redis
Cluster, ``UNO_REDIS_CLUSTER``: sharded pub/sub, every key of a room in one slot)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from app.bus import Handler, Unsubscribe

from .redis_keys import RedisKeys


class Transport(Protocol):
    keys: RedisKeys  # leases, worker names, listings
    # Called once the listener is subscribed again after losing Redis altogether (messages
    # published in between are lost to this worker).
    on_reconnect: list[Callable[[], None]]
    # Called with the topics subscribed again after their subscription alone broke (a Redis
    # Cluster: their master failed over, or their slot moved): messages published on them in
    # between never arrived here.
    on_topics_lost: list[Callable[[frozenset[str]], None]]

    @property
    def connected(self) -> bool:
        """Every topic subscribed, on a live connection."""

    @property
    def reconnects(self) -> int:
        """Times a listener came back after losing Redis."""

    async def start(self) -> None: ...

    async def close(self) -> None: ...

    async def ping(self) -> bool:
        """Ready: Redis answers (and, on one Redis, the listener is subscribed)."""

    async def publish(self, topic: str, message: dict[str, Any]) -> None:
        """Returns once Redis has ``message``, after every message given before it."""

    def post(self, topic: str, message: dict[str, Any]) -> None:
        """``publish`` without waiting; raises the error that lost an earlier post, once."""

    def post_json(self, topic: str, payload: str) -> None: ...

    async def flush(self) -> None: ...

    @property
    def sends(self) -> int:
        """Writes of messages to Redis so far (tests, benchmarks)."""

    def drop_own(self, origin: str) -> None:
        """Drop, unread, the messages received that ``origin`` (this worker) published."""

    def subscribe(self, topic: str, handler: Handler) -> Unsubscribe: ...

    async def settled(self) -> None:
        """Until Redis has confirmed every (un)subscription asked for so far."""

    async def ready(self, topic: str, timeout: float = 5.0) -> None:
        """Returns once a message published on ``topic`` from now on reaches the subscribers
        here (TimeoutError if Redis is away)."""

    async def listening(self, topics: list[str]) -> list[bool | None]:
        """Whether some connection is subscribed to each topic (None: cannot tell now)."""

    def reply_topic(self, topic: str, code: str) -> str:
        """The topic on which the subscribers of ``topic`` get a reply about room ``code`` in
        order with the room's events (its ack after them): ``topic`` itself on one Redis; on
        a cluster the room's own channel, addressed to ``topic``'s subscribers, which must
        listen to the room."""
