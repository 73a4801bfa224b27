"""The cluster bus's receiving side: sharded subscriptions (SSUBSCRIBE), grouped by the master
that serves each channel's slot, one connection per master (``RespStream``: every message that
arrived in one read is handed out at once), not one per channel.

    listener = ShardedListener(topology, url_for, on_message, on_lost)
    listener.want(b"uno:bus:room:{ABCD}")      # subscribed on the master of the slot of ABCD
    listener.drop(b"uno:bus:room:{ABCD}")
    await listener.settled()                    # every (un)subscription answered

Each connection is supervised as the single-Redis listener is: a PING when quiet, a new
connection after a backoff when it fails. A subscription breaks when its master goes away (the
connection fails), when its slot moves (Redis unsubscribes it: an unasked-for ``sunsubscribe``),
or when a master refuses it (MOVED: the map was behind); the slot map is read again and the
channel subscribed where its slot is served now. Once it is, ``on_lost`` is told: what was
published on it in between never arrived here.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections import deque
from collections.abc import Callable
from typing import Any

import hiredis
from redis.exceptions import ConnectionError as RedisConnectionError

from .resp import RespStream, command
from .topology import Topology, slot_of

log = logging.getLogger("uno.bus")

OnMessage = Callable[[bytes, bytes], None]  # (channel, payload)
OnLost = Callable[[list[bytes]], None]  # channels subscribed again after a break
MAP_RETRY_SECONDS = 0.1  # between reads of the slot map while a channel is not subscribed


class ShardedListener:
    def __init__(self, topology: Topology, url_for: Callable[[str], str],
                 on_message: OnMessage, on_lost: OnLost, *, ping_seconds: float = 5.0,
                 backoff: tuple[float, float] = (0.05, 1.0)) -> None:
        self._topology = topology
        self._url_for = url_for
        self.on_message = on_message
        self._on_lost = on_lost
        self.ping_seconds = ping_seconds
        self.backoff = backoff
        self._wanted: dict[bytes, int] = {}  # channel -> its slot
        self._assigned: dict[bytes, str] = {}  # channel -> the master it is subscribed on
        self._nodes: dict[str, _NodeListener] = {}
        self._ever: set[bytes] = set()  # channels subscribed at least once
        self._broken: set[bytes] = set()  # channels whose subscription broke, not yet back
        self._answered = asyncio.Event()
        self._refreshing: set[asyncio.Task[None]] = set()
        self.reconnects = 0  # connections opened again after one failed
        topology.on_change.append(self._rebalance)

    @property
    def connected(self) -> bool:
        """Every channel wanted is subscribed on the master serving its slot."""
        return len(self._assigned) == len(self._wanted) and all(
            channel in self._nodes[node].subscribed for channel, node in self._assigned.items())

    def want(self, channel: bytes) -> None:
        if channel not in self._wanted:
            self._wanted[channel] = slot_of(channel)
            self._assign(channel)

    def drop(self, channel: bytes) -> None:
        if self._wanted.pop(channel, None) is None:
            return
        self._ever.discard(channel)
        self._broken.discard(channel)
        node = self._assigned.pop(channel, None)
        if node is not None:
            self._nodes[node].remove(channel)

    async def settled(self) -> None:
        """Until every (un)subscription sent so far is answered, or its connection went."""
        while any(node.unanswered for node in self._nodes.values()):
            self._answered.clear()
            await self._answered.wait()

    async def close(self) -> None:
        for task in list(self._refreshing):
            task.cancel()
        for node in list(self._nodes.values()):
            await node.stop()
        self._nodes.clear()

    # -- where each channel is subscribed --------------------------------------------------------

    def _assign(self, channel: bytes) -> None:
        node = self._topology.primary(self._wanted[channel])
        if node is None:  # nobody serves the slot now: the next slot map places it
            self._refresh()
            return
        self._assigned[channel] = node
        listener = self._nodes.get(node)
        if listener is None:
            listener = self._nodes[node] = _NodeListener(self, node, self._url_for(node))
        listener.add(channel)

    def _rebalance(self) -> None:
        """The slot map changed: every channel whose slot is served elsewhere now moves."""
        for channel, slot in self._wanted.items():
            current = self._assigned.get(channel)
            if current == self._topology.primary(slot):
                continue
            if current is not None:
                self._assigned.pop(channel)
                listener = self._nodes.get(current)
                if listener is not None:
                    listener.remove(channel)
                self._broke([channel])
            self._assign(channel)

    def _broke(self, channels: list[bytes]) -> None:
        self._broken.update(channel for channel in channels if channel in self._ever)

    def _refresh(self) -> None:
        """Read the slot map again (in the background), until every channel is subscribed: a
        master that went away is replaced as soon as the map says so, not a backoff later."""
        if not self._refreshing:
            task = asyncio.get_running_loop().create_task(self._settle_map())
            self._refreshing.add(task)
            task.add_done_callback(self._refreshing.discard)

    async def _settle_map(self) -> None:
        while True:
            await self._topology.refresh()
            self._rebalance()  # also when the read failed (no change event then)
            if self.connected:
                return
            await asyncio.sleep(MAP_RETRY_SECONDS)

    # -- what the connections report ---------------------------------------------------------------

    def confirmed(self, channel: bytes) -> None:
        self._ever.add(channel)
        if channel in self._broken:
            self._broken.discard(channel)
            # At once, before the next message read on the connection: a reply that arrives
            # after events that were lost must find its socket already told to resume.
            try:
                self._on_lost([channel])
            except Exception:
                log.exception("redis cluster: a lost-messages hook failed")

    def answered(self) -> None:
        self._answered.set()

    def node_failed(self, node: str, channels: list[bytes]) -> None:
        """``node``'s connection failed: its subscriptions broke (it may be down for good: the
        slot map is read again, and its channels move where their slots went)."""
        self._broke([c for c in channels if self._assigned.get(c) == node])
        self._answered.set()
        self._refresh()

    def unsubscribed(self, node: str, channel: bytes, moved_to: str | None) -> None:
        """``node`` dropped (or refused) ``channel``: its slot is served elsewhere."""
        if self._assigned.get(channel) != node:
            return
        self._assigned.pop(channel)
        self._broke([channel])
        if moved_to is not None:
            self._topology.moved(self._wanted[channel], moved_to)
            self._assigned[channel] = moved_to
            listener = self._nodes.get(moved_to)
            if listener is None:
                listener = self._nodes[moved_to] = _NodeListener(self, moved_to,
                                                                 self._url_for(moved_to))
            listener.add(channel)
        else:
            self._refresh()  # the map places it (the listener waits for that map)

    def still_needed(self, listener: _NodeListener) -> bool:
        """A connection is kept while its node serves slots, or has channels to subscribe."""
        if self._nodes.get(listener.node) is not listener:
            return False
        needed = bool(listener.channels) or listener.node in self._topology.primaries()
        if not needed:
            del self._nodes[listener.node]
        return needed


class _NodeListener:
    """One master's connection and the channels subscribed on it."""

    def __init__(self, owner: ShardedListener, node: str, url: str) -> None:
        self._owner = owner
        self.node = node
        self._url = url
        self.channels: set[bytes] = set()  # to be subscribed here
        self.subscribed: set[bytes] = set()  # confirmed on the live connection
        self._stream: RespStream | None = None
        self._sent: deque[tuple[bytes, bytes]] = deque()  # (verb, channel) not yet answered
        self._opening = True  # a connection is being opened
        self._task = asyncio.get_running_loop().create_task(self._run(),
                                                            name=f"redis listener {node}")

    @property
    def unanswered(self) -> bool:
        """Connecting, or (un)subscriptions sent and not answered yet."""
        return self._opening or (self._stream is not None and bool(self._sent))

    def add(self, channel: bytes) -> None:
        self.channels.add(channel)
        self._send(b"SSUBSCRIBE", channel)

    def remove(self, channel: bytes) -> None:
        self.channels.discard(channel)
        if channel in self.subscribed or any(c == channel for _, c in self._sent):
            self.subscribed.discard(channel)
            self._send(b"SUNSUBSCRIBE", channel)

    async def stop(self) -> None:
        self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._task

    def _send(self, verb: bytes, channel: bytes) -> None:
        if self._stream is not None:
            self._sent.append((verb, channel))
            self._stream.send([command(verb, channel)])

    async def _run(self) -> None:
        owner = self._owner
        failures = 0
        while owner.still_needed(self):
            try:
                await self._serve(failures)
                return
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                failures += 1
                low, high = owner.backoff
                delay = min(high, low * 2 ** min(failures - 1, 10)) * random.uniform(0.5, 1.0)
                log.warning("redis cluster: lost %s (%r); retrying in %.2f s", self.node, exc,
                            delay)
                lost = list(self.subscribed)
                self._close()
                owner.node_failed(self.node, lost)
            await asyncio.sleep(delay)

    async def _serve(self, failures: int) -> None:
        self._opening = True
        try:
            stream = await RespStream.open(self._url)
        finally:
            self._opening = False
        self._stream = stream
        for channel in sorted(self.channels):  # one command each: a channel has its own slot
            self._send(b"SSUBSCRIBE", channel)
        if not self._sent:
            self._owner.answered()
        if failures:
            self._owner.reconnects += 1
        while True:
            for reply in await self._arrived(stream):
                self._on_reply(reply)

    def _close(self) -> None:
        stream, self._stream = self._stream, None
        self.subscribed.clear()
        self._sent.clear()
        if stream is not None:
            stream.close()

    async def _arrived(self, stream: RespStream) -> list[Any]:
        """As ``RedisBus._arrived``: a PING when quiet, an error when that is not answered."""
        seconds = self._owner.ping_seconds
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(seconds):
                return await stream.arrived()
        self._send(b"PING", b"")
        try:
            async with asyncio.timeout(seconds):
                return await stream.arrived()
        except TimeoutError:
            raise RedisConnectionError(f"{self.node} did not answer a PING") from None

    def _on_reply(self, reply: Any) -> None:
        if isinstance(reply, hiredis.ReplyError):
            self._refused(str(reply))
            return
        kind = reply[0]
        if kind == b"smessage":
            self._owner.on_message(reply[1], reply[2])
        elif kind == b"ssubscribe":
            channel = reply[1]
            self._answer(b"SSUBSCRIBE", channel)
            if channel in self.channels:
                self.subscribed.add(channel)
                self._owner.confirmed(channel)
        elif kind == b"sunsubscribe":
            channel = reply[1]
            if not self._answer(b"SUNSUBSCRIBE", channel):  # not asked for: the slot moved
                self.subscribed.discard(channel)
                if channel in self.channels:
                    self.channels.discard(channel)
                    self._owner.unsubscribed(self.node, channel, None)
        elif kind == b"pong":
            self._answer(b"PING", b"")

    def _answer(self, verb: bytes, channel: bytes) -> bool:
        """Take the oldest command sent for ``(verb, channel)``; False if none was sent."""
        for index, sent in enumerate(self._sent):
            if sent == (verb, channel):
                del self._sent[index]
                if not self._sent:
                    self._owner.answered()
                return True
        return False

    def _refused(self, error: str) -> None:
        """An error answers the oldest command; a MOVED names the slot it is about (after an
        unasked-for unsubscribe its own answer may have been taken already: then ignored)."""
        parts = error.split()
        sent = self._sent
        if parts[0] == "MOVED" and len(parts) == 3:
            slot = int(parts[1])
            found = next((s for s in sent if s[1] and slot_of(s[1]) == slot), None)
            if found is None:
                return
            sent.remove(found)
            verb, channel = found
            if verb == b"SSUBSCRIBE" and channel in self.channels:
                self.channels.discard(channel)
                self._owner.unsubscribed(self.node, channel, parts[2])
        elif sent:
            verb, channel = sent.popleft()
            log.warning("redis cluster: %s refused %s %r: %s", self.node, verb.decode(), channel,
                        error)
        if not sent:
            self._owner.answered()
