"""The server as ``python -m app`` runs it, with the libraries' own protocol code in place of
the project's hand-written pieces, for the comparison the README shows (bench.server --ws,
bench.cluster --redis-client):

- ``UNO_BENCH_REDIS=redis-py``: the bus publishes through redis-py pipelines (what one turn of
  the event loop gave, in one pipeline, in order) and listens through redis-py's ``PubSub``,
  instead of ``app/cluster/publisher.py`` and ``app/cluster/resp.py``. On a Redis Cluster
  (``UNO_REDIS_CLUSTER``) likewise: SPUBLISH through the cluster client's pipelines, SSUBSCRIBE
  through its ``ClusterPubSub`` (one ``PubSub`` per master, each read by a task of its own),
  instead of ``app/cluster/shard_publisher.py`` and ``app/cluster/shard_listener.py``.
- ``--ws websockets-sansio`` (a plain uvicorn option, no code here): uvicorn's own protocol, the
  one ``app/api/websocket_protocol.py`` derives from.

    UNO_BENCH_REDIS=redis-py .venv/bin/python -m bench.library_app --port 8000
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sys
from collections.abc import Callable, Coroutine
from typing import Any, cast

from redis.asyncio.client import PubSub
from redis.asyncio.cluster import ClusterPubSub
from uvicorn.main import main

import app.cluster
from app.__main__ import SERVE
from app.bus import Handler, Unsubscribe
from app.cluster.cluster_bus import REPLY, ClusterBus
from app.cluster.redis_bus import RedisBus
from app.cluster.resp import RespStream
from app.jsonwire import compact_json

Outgoing = tuple[str, str, "asyncio.Future[None] | None"]  # channel, payload, who waits


class RedisPyBus(RedisBus):
    """``RedisBus`` publishing and listening with redis-py's own API."""

    def __init__(self, url: str, **options: Any) -> None:
        super().__init__(url, **options)
        self._outbox: list[Outgoing] = []
        self._given = asyncio.Event()
        self._sender: asyncio.Task[None] | None = None
        self._post_error: Exception | None = None
        self._pipelines = 0
        self._pubsub: PubSub | None = None
        self._changes: asyncio.Queue[tuple[str, list[str]]] = asyncio.Queue()

    # -- publishing: one task sends each turn's messages in one pipeline, in order ------------

    def _give(self, channel: str, payload: str, done: asyncio.Future[None] | None) -> None:
        self._outbox.append((channel, payload, done))
        self._given.set()
        if self._sender is None:
            self._sender = asyncio.create_task(self._send_all(), name="redis-py publisher")

    async def _send_all(self) -> None:
        while True:
            await self._given.wait()
            self._given.clear()
            batch, self._outbox = self._outbox, []
            pipe = self._redis.pipeline(transaction=False)
            for channel, payload, _ in batch:
                pipe.publish(channel, payload)
            try:
                await pipe.execute()
            except Exception as exc:
                self._post_error = exc
                for *_, done in batch:
                    if done is not None and not done.done():
                        done.set_exception(exc)
                continue
            self._pipelines += 1
            for *_, done in batch:
                if done is not None and not done.done():
                    done.set_result(None)

    async def publish(self, topic: str, message: dict[str, Any]) -> None:
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._give(self._channel(topic), compact_json(message), done)
        await done

    def post_json(self, topic: str, payload: str) -> None:
        error, self._post_error = self._post_error, None
        if error is not None:
            raise error
        self._give(self._channel(topic), payload, None)

    async def flush(self) -> None:
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._give(self._channel("_alive"), "{}", done)
        with contextlib.suppress(Exception):
            await done

    @property
    def sends(self) -> int:
        return self._pipelines

    async def close(self) -> None:
        with contextlib.suppress(Exception):
            async with asyncio.timeout(2):
                await self.flush()
        if self._sender is not None:
            self._sender.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._sender
        await super().close()

    # -- listening: redis-py's PubSub ----------------------------------------------------------

    def _subscription(self, stream: RespStream, verb: str, channels: list[str]) -> None:
        self._unconfirmed += len(channels)
        self._changes.put_nowait((verb, channels))

    async def _apply_changes(self, pubsub: PubSub) -> None:
        """(Un)subscriptions in the order asked for, one at a time."""
        while True:
            verb, channels = await self._changes.get()
            if verb == "SUBSCRIBE":
                await pubsub.subscribe(*channels)
            else:
                await pubsub.unsubscribe(*channels)

    async def _serve(self, failures: int) -> None:
        pubsub = self._redis.pubsub()
        self._changes = asyncio.Queue()
        # _listen closes what ``_subscribed`` holds when the connection fails.
        self._subscribed = cast(RespStream, _Closing(pubsub))
        channels = [self._channel(t) for t in self._subscribers]
        first = [self._channel("_alive"), *channels]
        self._unconfirmed += len(first)
        await pubsub.subscribe(*first)  # PubSub reads nothing before its first subscription
        changes = asyncio.create_task(self._apply_changes(pubsub))
        try:
            while True:
                if changes.done():
                    changes.result()  # raises what stopped it
                message = await pubsub.get_message(timeout=self._ping_seconds)
                if message is not None:
                    self._on_reply([message["type"].encode(), message["channel"],
                                    message["data"]])
                if not self.connected and not self._unconfirmed:
                    self.connected = True
                    if failures:
                        self._reconnected(len(channels))
        finally:
            changes.cancel()


class _Closing:
    """What ``RedisBus._listen`` closes after a failure: here, redis-py's PubSub."""

    def __init__(self, pubsub: PubSub) -> None:
        self._pubsub = pubsub

    def close(self) -> None:
        # Typed as a callable so the call checks under redis-py releases with and without hints.
        aclose: Callable[[], Coroutine[Any, Any, None]] = self._pubsub.aclose
        asyncio.get_running_loop().create_task(aclose())


class RedisPyClusterBus(ClusterBus):
    """``ClusterBus`` publishing and listening with redis-py's own cluster API."""

    def __init__(self, seeds: str, **options: Any) -> None:
        super().__init__(seeds, **options)
        self._outbox: list[Outgoing] = []
        self._given = asyncio.Event()
        self._sender: asyncio.Task[None] | None = None
        self._post_error: Exception | None = None
        self._pipelines = 0
        self._pubsub: ClusterPubSub | None = None
        self._changes: asyncio.Queue[tuple[str, bytes]] = asyncio.Queue()
        self._changer: asyncio.Task[None] | None = None
        self._readers: dict[str, asyncio.Task[None]] = {}

    # -- publishing: what one turn gave, in one cluster pipeline (grouped by master) -----------

    def _give(self, topic: str, payload: str, done: asyncio.Future[None] | None) -> None:
        via, _, to = topic.partition(REPLY)
        if to:
            payload = '{"to":' + compact_json(to) + ',"m":' + payload + "}"
        self._outbox.append((self._channel(via).decode(), payload, done))
        self._given.set()
        if self._sender is None:
            self._sender = asyncio.create_task(self._send_all(), name="redis-py publisher")

    async def _send_all(self) -> None:
        while True:
            await self._given.wait()
            self._given.clear()
            batch, self._outbox = self._outbox, []
            pipe = self._client.pipeline(transaction=False)
            for channel, payload, _ in batch:
                pipe.execute_command("SPUBLISH", channel, payload)
            try:
                await pipe.execute()
            except Exception as exc:
                self._post_error = exc
                for *_, done in batch:
                    if done is not None and not done.done():
                        done.set_exception(exc)
                continue
            self._pipelines += 1
            for *_, done in batch:
                if done is not None and not done.done():
                    done.set_result(None)

    def post_json(self, topic: str, payload: str) -> None:
        error, self._post_error = self._post_error, None
        if error is not None:
            raise error
        self._give(topic, payload, None)

    async def flush(self) -> None:
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._give("_alive", "{}", done)
        with contextlib.suppress(Exception):
            await done

    @property
    def sends(self) -> int:
        return self._pipelines

    # -- listening: ClusterPubSub, a reader per master's PubSub -------------------------------

    def subscribe(self, topic: str, handler: Handler) -> Unsubscribe:
        handlers = self._subscribers.setdefault(topic, [])
        handlers.append(handler)
        channel = self._channel(topic)
        if len(handlers) == 1:
            self._topics[channel] = topic
            self._change("SSUBSCRIBE", channel)

        def unsubscribe() -> None:
            current = self._subscribers.get(topic)
            if current and handler in current:
                current.remove(handler)
                if not current:
                    del self._subscribers[topic]
                    self._topics.pop(channel, None)
                    self._change("SUNSUBSCRIBE", channel)

        return unsubscribe

    def _change(self, verb: str, channel: bytes) -> None:
        self._changes.put_nowait((verb, channel))
        if self._changer is None:
            self._changer = asyncio.create_task(self._apply_changes())

    async def _apply_changes(self) -> None:
        """(Un)subscriptions in the order asked for, one at a time."""
        self._pubsub = self._client.pubsub()
        while True:
            verb, channel = await self._changes.get()
            if verb == "SSUBSCRIBE":
                await self._pubsub.ssubscribe(channel)
            else:
                await self._pubsub.sunsubscribe(channel)
            for node, pubsub in self._pubsub.node_pubsub_mapping.items():
                if node not in self._readers:
                    self._readers[node] = asyncio.create_task(self._read(pubsub))
            self._changes.task_done()

    async def _read(self, pubsub: PubSub) -> None:
        while True:
            message = await pubsub.get_message(timeout=self._listener.ping_seconds)
            if message is not None and message["type"] == "smessage":
                self._dispatch(message["channel"], message["data"])

    async def settled(self) -> None:
        await self._changes.join()

    async def close(self) -> None:
        with contextlib.suppress(Exception):
            async with asyncio.timeout(2):
                await self.flush()
        for task in (self._sender, self._changer, *self._readers.values()):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        if self._pubsub is not None:
            await self._pubsub.aclose()
        await super().close()


if __name__ == "__main__":
    if os.environ.get("UNO_BENCH_REDIS") == "redis-py":
        app.cluster.RedisBus = RedisPyBus  # type: ignore[attr-defined]
        app.cluster.ClusterBus = RedisPyClusterBus  # type: ignore[attr-defined]
    main([*SERVE, *sys.argv[1:]])
