"""A lean Redis connection for the bus's busy paths: PUBLISH in pipelined batches, and the
pub/sub listener. hiredis parses every reply that arrived in one read, handed over at once.

redis-py's PubSub costs a task, a timeout and a health check per message received, and each
pipeline a task and a timeout more: under the cluster benchmark that was a quarter of a worker's
CPU. Everything else (leases, scripts, the listing) stays on redis-py: far fewer calls.

    stream = await RespStream.open("redis://127.0.0.1:6379/0")
    stream.send([command("PUBLISH", "ch", "hi")])
    replies = await stream.replies(1)        # [1]: one subscriber got it
"""

from __future__ import annotations

import asyncio
import ssl
from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote, urlsplit

import hiredis


class RespError(ConnectionError):
    """Redis refused a command on this connection (the connection is not trusted further)."""


def command(*parts: str | bytes) -> bytes:
    """One command in RESP, ready to write."""
    chunks = [b"*%d\r\n" % len(parts)]
    for part in parts:
        data = part.encode() if isinstance(part, str) else part
        chunks.append(b"$%d\r\n%s\r\n" % (len(data), data))
    return b"".join(chunks)


@dataclass(frozen=True)
class RedisAddress:
    """Where Redis is, from a ``redis://``, ``rediss://`` (TLS) or ``unix://`` URL."""

    host: str = "127.0.0.1"
    port: int = 6379
    path: str | None = None  # a unix socket
    username: str | None = None
    password: str | None = None
    tls: bool = False

    @staticmethod
    def from_url(url: str) -> RedisAddress:
        parts = urlsplit(url)
        if parts.scheme not in ("redis", "rediss", "unix"):
            raise ValueError(f"not a Redis URL: {url!r}")
        return RedisAddress(
            host=parts.hostname or "127.0.0.1",
            port=parts.port or 6379,
            path=parts.path if parts.scheme == "unix" else None,
            username=unquote(parts.username) if parts.username else None,
            password=unquote(parts.password) if parts.password else None,
            tls=parts.scheme == "rediss",
        )


class RespStream:
    """One connection: commands written in batches, replies read in arrival order."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self._reader = reader
        self._writer = writer
        self._parser = hiredis.Reader()
        self._ready: list[Any] = []  # replies parsed but not yet taken

    @staticmethod
    async def open(url: str, timeout: float = 2.0) -> RespStream:
        """Connect (and authenticate) within ``timeout`` seconds."""
        address = RedisAddress.from_url(url)
        async with asyncio.timeout(timeout):
            if address.path is not None:
                reader, writer = await asyncio.open_unix_connection(address.path)
            else:
                context = ssl.create_default_context() if address.tls else None
                reader, writer = await asyncio.open_connection(address.host, address.port,
                                                               ssl=context)
            stream = RespStream(reader, writer)
            if address.password is not None:
                user = [address.username] if address.username else []
                stream.send([command("AUTH", *user, address.password)])
                try:
                    await stream.replies(1)
                except BaseException:
                    stream.close()
                    raise
        return stream

    @property
    def usable(self) -> bool:
        """Not closed by either side (a Redis restart shows here once its FIN arrived)."""
        return not self._writer.is_closing() and not self._reader.at_eof()

    def send(self, commands: list[bytes]) -> None:
        """Write ``commands`` in one go (one system call when the socket takes it all)."""
        self._writer.write(b"".join(commands))

    async def replies(self, count: int) -> list[Any]:
        """The next ``count`` replies. An error reply raises ``RespError``."""
        while len(self._ready) < count:
            await self._read()
        taken, self._ready = self._ready[:count], self._ready[count:]
        for reply in taken:
            if isinstance(reply, hiredis.ReplyError):
                raise RespError(str(reply))
        return taken

    async def arrived(self) -> list[Any]:
        """Every reply (or pushed message) that has arrived: at least one, waiting if none."""
        if not self._ready:
            await self._read()
        taken, self._ready = self._ready, []
        return taken

    async def _read(self) -> None:
        data = await self._reader.read(1 << 16)
        if not data:
            raise ConnectionError("Redis closed the connection")
        parser = self._parser
        parser.feed(data)
        ready = self._ready
        while (reply := parser.gets()) is not False:
            ready.append(reply)

    def close(self) -> None:
        self._writer.close()
