"""The cluster bus's sending side: each message goes by SPUBLISH to the master that serves its
channel's slot, through one ``Publisher`` (one connection, batched writes) per master, in the
order given for each slot.

    publisher = ShardedPublisher(topology, url_for, retry_seconds=5.0)
    publisher.give(slot, command("SPUBLISH", channel, payload), done)   # done: a future, or None
    await publisher.flush()

Redirection: a master that no longer serves a slot (it moved, ``CLUSTER SETSLOT ... NODE``)
answers MOVED. That message, and every later one for the slot, is held until everything written
to the old master has been answered (its other MOVED answers join in order), then all of them go
to the new master, in the order given. A slot still moving (TRYAGAIN) or a cluster that says it
is down (CLUSTERDOWN) is tried again a moment later, the same way.

Failover: what waited for a master that cannot be reached (killed, its replica not promoted yet)
is held; the slot map is read again every ``RETRY_SECONDS``, and each message goes where its
slot is served then, or to the old master once it answers again. Held longer than
``retry_seconds``, a message fails as on one Redis: its waiter gets the error, and a post's error
is raised by the next post (``take_error``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from redis.exceptions import ConnectionError as RedisConnectionError

from .publisher import Message, Publisher, Waiter
from .resp import RespStream
from .topology import Topology, slot_of

log = logging.getLogger("uno.bus")

RETRY_SECONDS = 0.1  # between looks at the slot map while a master is away
# Errors after which the same message is right on the new master, or a moment later (an ASK
# would be: sharded pub/sub stays on a slot's old master until the move ends, so none comes).
_MOVED = ("MOVED ",)
_LATER = ("ASK ", "TRYAGAIN", "CLUSTERDOWN", "MASTERDOWN", "LOADING")


@dataclass
class _Away:
    """A master that could not be reached: since when, and what waits for it, in order."""

    since: float
    waiting: list[tuple[int, Message]] = field(default_factory=list)


class ShardedPublisher:
    def __init__(self, topology: Topology, url_for: Callable[[str], str],
                 retry_seconds: float) -> None:
        self._topology = topology
        self._url_for = url_for  # "host:port" -> the URL a connection opens
        self._retry_seconds = retry_seconds
        self._nodes: dict[str, Publisher] = {}
        self._redirected: dict[int, list[Message]] = {}  # slot -> refused by its old master
        self._held: dict[int, list[Message]] = {}  # slot -> given while it is being redirected
        self._moved_to: dict[int, str] = {}  # slot -> its new master, ahead of the slot map
        self._away: dict[str, _Away] = {}
        self._later: dict[int, float] = {}  # slot -> since when its master says "not now"
        self._tasks: set[asyncio.Task[None]] = set()
        self._error: Exception | None = None
        self.redirects = 0  # messages sent again after a MOVED (tests, metrics)
        topology.on_change.append(self._moved_to.clear)  # the map has caught up

    @property
    def writes(self) -> int:
        return sum(publisher.writes for publisher in self._nodes.values())

    def give(self, slot: int, encoded: bytes, done: Waiter) -> None:
        """Send ``encoded`` (an SPUBLISH to a channel of ``slot``) after everything given
        before for that slot; ``done`` as for ``Publisher.give``."""
        held = self._held.get(slot)
        if held is not None:
            held.append((encoded, done))
            return
        node = self._moved_to.get(slot) or self._topology.primary(slot)
        if node is None:  # nobody serves the slot (mid-failover): wait for a master
            self._unreachable("?", [(encoded, done)], RedisConnectionError("slot not served"))
            return
        away = self._away.get(node)
        if away is not None:
            away.waiting.append((slot, (encoded, done)))
            return
        self._publisher(node).give(encoded, done)

    def take_error(self) -> Exception | None:
        error, self._error = self._error, None
        for publisher in self._nodes.values():
            error = error or publisher.take_error()
        return error

    async def flush(self) -> None:
        await asyncio.gather(*(publisher.flush() for publisher in list(self._nodes.values())))

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        closed = RedisConnectionError("the bus closed")
        for messages in (*self._redirected.values(), *self._held.values()):
            self._fail(messages, closed)
        for away in self._away.values():
            self._fail([message for _, message in away.waiting], closed)
        self._redirected.clear()
        self._held.clear()
        self._away.clear()
        for publisher in list(self._nodes.values()):
            await publisher.close()

    # -- one connection per master ----------------------------------------------------------------

    def _publisher(self, node: str) -> Publisher:
        publisher = self._nodes.get(node)
        if publisher is None:
            publisher = self._nodes[node] = Publisher(
                self._url_for(node),
                redirected=lambda encoded, done, error: self._refused(node, encoded, done, error),
                unreachable=lambda waiting, error: self._unreachable(node, waiting, error))
        return publisher

    def _refused(self, node: str, encoded: bytes, done: Waiter, error: str) -> bool:
        """A master refused a message: MOVED (and TRYAGAIN...) are taken and sent again."""
        slot = _slot_of_command(encoded)
        if slot is None:
            return False
        if error.startswith(_MOVED):
            target = error.split()[2]
        elif error.startswith(_LATER):
            target = None
        else:
            return False  # e.g. out of memory: failed as on one Redis
        redirected = self._redirected.get(slot)
        if redirected is not None:
            redirected.append((encoded, done))
            return True
        self._redirected[slot] = [(encoded, done)]
        self._held[slot] = []
        self._spawn(self._redirect(slot, node, target))
        return True

    async def _redirect(self, slot: int, node: str, target: str | None) -> None:
        """Once ``node`` has answered everything written to it (the other refusals for
        ``slot`` have joined in order), send them all again where the slot is served now."""
        old = self._nodes.get(node)
        if old is not None:
            await old.flush()
        if target is None:  # not moved, just not possible yet: look again in a moment
            now = time.monotonic()
            since = self._later.get(slot)
            if since is None or now - since > 2 * self._retry_seconds:  # a new episode
                since = self._later[slot] = now
            await asyncio.sleep(RETRY_SECONDS)
            await self._topology.refresh()
            if now - since > self._retry_seconds:
                error = RedisConnectionError(f"Redis Cluster slot {slot} not served")
                self._fail(self._redirected.pop(slot, []) + self._held.pop(slot, []), error)
                return
        else:
            self._moved_to[slot] = target
            self._topology.moved(slot, target)
        messages = self._redirected.pop(slot, []) + self._held.pop(slot, [])
        self.redirects += len(messages)
        for encoded, done in messages:
            self.give(slot, encoded, done)

    def _unreachable(self, node: str, waiting: list[Message], error: Exception) -> bool:
        """No connection to ``node``: hold what waited for it until its slots are served
        elsewhere, or it answers again."""
        away = self._away.get(node)
        if away is None:
            away = self._away[node] = _Away(time.monotonic())
            log.warning("redis cluster: %s unreachable (%r); holding its messages", node, error)
            self._spawn(self._wait_for_master(node, away))
        for encoded, done in waiting:
            slot = _slot_of_command(encoded)
            if slot is None:  # a flush's PING: there is nothing left to wait for there
                self._fail([(encoded, done)], error)
            else:
                away.waiting.append((slot, (encoded, done)))
        return True

    async def _wait_for_master(self, node: str, away: _Away) -> None:
        while True:
            await asyncio.sleep(RETRY_SECONDS)
            await self._topology.refresh()
            primary = self._topology.primary
            if node == "?":  # a slot nobody served: until someone does
                ready = any(primary(slot) is not None for slot, _ in away.waiting)
            else:  # a master away: until a slot moved elsewhere, or it answers again
                ready = any(primary(slot) not in (node, None) for slot, _ in away.waiting) or (
                    await _answers(self._url_for(node)))
            if ready:
                del self._away[node]
                for slot, (encoded, done) in away.waiting:  # each where its slot is served now
                    self.give(slot, encoded, done)
                return
            if time.monotonic() - away.since > self._retry_seconds:
                del self._away[node]
                error = RedisConnectionError(f"Redis Cluster node {node} unreachable")
                log.warning("redis cluster: %d messages for %s not published",
                            len(away.waiting), node)
                self._fail([message for _, message in away.waiting], error)
                return

    def _fail(self, messages: list[Message], error: Exception) -> None:
        for _, done in messages:
            if done is None:
                self._error = error
            elif not done.done():
                done.set_exception(error)

    def _spawn(self, work: object) -> None:
        assert asyncio.iscoroutine(work)
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)


def _slot_of_command(encoded: bytes) -> int | None:
    """The slot of the channel of an encoded ``SPUBLISH channel payload`` (None: another
    command). Read only when a message comes back: the busy path never parses."""
    if not encoded.startswith(b"*3\r\n$8\r\nSPUBLISH\r\n$"):
        return None
    start = encoded.index(b"\r\n", 19) + 2
    length = int(encoded[19:start - 2])
    return slot_of(encoded[start:start + length])


async def _answers(url: str) -> bool:
    with contextlib.suppress(OSError, TimeoutError):
        stream = await RespStream.open(url, timeout=0.5)
        stream.close()
        return True
    return False
