"""The Redis bus's sending side: every command it sends, in order, on one connection.

What is given during one turn of the event loop goes out in one write at the end of that turn;
replies are read as they arrive and settle whoever waits for them. A write never waits for the
replies to an earlier one: a room's events do not queue behind a round trip still in flight
(under load, its reply is read a turn or two of a busy loop later).

    publisher = Publisher("redis://127.0.0.1:6379/0")
    publisher.give(command("PUBLISH", "ch", "hi"), None)     # not waited for
    done = loop.create_future()
    publisher.give(command("PUBLISH", "ch", "again"), done)
    await done                                               # Redis has both
    await publisher.close()

A connection that fails takes the commands written on it but not yet answered with it: their
waiters get the error, and a message nobody waits for is logged and its error kept for
``take_error`` (the bus raises it on the next post). What was not written yet goes out on a new
connection, opened on the next write (three tries).

On a Redis Cluster (``ShardedPublisher``, one publisher per master) two hooks hand messages
back instead of failing them: ``redirected`` gets each one a node refused with an error (MOVED:
its slot is served elsewhere now), ``unreachable`` what waited for a connection that could not
be opened (the node is down, its replica not yet promoted). Each returns True if it took them.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import Callable
from typing import Any

import hiredis
from redis.exceptions import ConnectionError as RedisConnectionError

from .resp import RespError, RespStream, command

log = logging.getLogger("uno.bus")

Waiter = asyncio.Future[Any] | None  # gets Redis's answer (PUBLISH: the receivers); None: a post
Message = tuple[bytes, Waiter]  # one command, encoded, and who waits for its answer
Redirected = Callable[[bytes, Waiter, str], bool]  # (command, waiter, Redis's error): taken?
Unreachable = Callable[[list[Message], Exception], bool]  # (waiting messages, error): taken?

_CONNECT_TRIES = 3


class Publisher:
    def __init__(self, url: str, redirected: Redirected | None = None,
                 unreachable: Unreachable | None = None) -> None:
        self._url = url
        self._redirected = redirected
        self._unreachable = unreachable
        self._stream: RespStream | None = None
        self._reader: asyncio.Task[None] | None = None  # reads the stream's replies
        self._connecting: asyncio.Task[None] | None = None
        self._write_soon: asyncio.Handle | None = None  # the write at the end of this turn
        self._outbox: list[Message] = []  # given, not written yet
        self._unanswered: deque[Message] = deque()  # written, oldest first
        self._error: Exception | None = None
        self.writes = 0  # writes made (tests, benchmarks)

    def give(self, encoded: bytes, done: Waiter) -> None:
        """Send ``encoded`` (one command) after everything given before; ``done`` (if any)
        gets Redis's answer: set once Redis has it, or the error that kept it from Redis."""
        self._outbox.append((encoded, done))
        if self._write_soon is None and self._connecting is None:
            self._write_soon = asyncio.get_running_loop().call_soon(self._write)

    def take_error(self) -> Exception | None:
        """The error that lost an earlier message nobody waited for, once."""
        error, self._error = self._error, None
        return error

    async def flush(self) -> None:
        """Return once everything given so far has been answered (or failed)."""
        done: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self.give(command("PING"), done)
        with contextlib.suppress(Exception):
            await done

    async def close(self) -> None:
        if self._write_soon is not None:
            self._write_soon.cancel()
            self._write_soon = None
        for task in (self._connecting, self._reader):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        waiting, self._outbox = self._outbox, []
        self._drop(RedisConnectionError("the bus closed"))
        for _, done in waiting:
            if done is not None and not done.done():
                done.set_exception(RedisConnectionError("the bus closed"))

    # -- writing ------------------------------------------------------------------------------

    def _write(self) -> None:
        self._write_soon = None
        stream = self._stream
        if stream is None or not stream.usable:
            # Connecting first: dropping the old stream then schedules no second connection.
            self._connecting = asyncio.create_task(self._connect(), name="redis bus publisher")
            if stream is not None:
                self._drop(RedisConnectionError("Redis closed the connection"))
            return
        batch, self._outbox = self._outbox, []
        if batch:
            stream.send([encoded for encoded, _ in batch])
            self._unanswered.extend(batch)
            self.writes += 1

    async def _connect(self) -> None:
        """Open a connection, then write what waits (or fail it after three tries)."""
        for attempt in range(_CONNECT_TRIES):
            try:
                stream = await RespStream.open(self._url)
                break
            except (OSError, TimeoutError, RespError) as exc:  # ConnectionError is an OSError
                if attempt == _CONNECT_TRIES - 1:
                    self._connecting = None
                    waiting, self._outbox = self._outbox, []
                    if self._unreachable is None or not self._unreachable(waiting, exc):
                        self._failed([done for _, done in waiting], exc)
                    return
                await asyncio.sleep(0.05 * 2**attempt)
        self._stream = stream
        self._reader = asyncio.create_task(self._read_replies(stream), name="redis bus replies")
        self._connecting = None
        self._write()

    def _drop(self, error: Exception) -> None:
        """The connection failed: what it did not answer failed with it."""
        stream, self._stream = self._stream, None
        reader, self._reader = self._reader, None
        if reader is not None and reader is not asyncio.current_task():
            reader.cancel()
        if stream is not None:
            stream.close()
        lost, self._unanswered = list(self._unanswered), deque()
        self._failed([done for _, done in lost], error)
        if self._outbox and self._write_soon is None and self._connecting is None:
            self._write_soon = asyncio.get_running_loop().call_soon(self._write)

    # -- replies ------------------------------------------------------------------------------

    async def _read_replies(self, stream: RespStream) -> None:
        try:
            while True:
                replies = await stream.arrived()
                unanswered = self._unanswered
                for reply in replies:
                    encoded, done = unanswered.popleft()
                    if isinstance(reply, hiredis.ReplyError):
                        redirected = self._redirected
                        if redirected is None or not redirected(encoded, done, str(reply)):
                            self._failed([done], RespError(str(reply)))  # e.g. out of memory
                    elif done is not None and not done.done():
                        done.set_result(reply)
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            if self._stream is stream:
                self._drop(exc)

    def _failed(self, waiters: list[Waiter], error: Exception) -> None:
        if any(done is None for done in waiters):
            log.warning("redis bus: %d messages not published (%r)", len(waiters), error)
            self._error = error
        for done in waiters:
            if done is not None and not done.done():
                done.set_exception(error)
