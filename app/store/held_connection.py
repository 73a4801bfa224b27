"""The async engine's one SQLite connection, held by the group commit's writer while the SQLite
writer writes (``app/store/group_commit.py``) if a transaction of that engine was running: no
other transaction of this process takes SQLite's lock meanwhile and waits in its busy handler.
With that connection idle the batch goes ahead without it: a loop transaction runs whole before
another can begin."""

from __future__ import annotations

import asyncio

from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine
from sqlalchemy.pool import QueuePool

# SQLite: how long the writer keeps the async engine's one connection across batches while
# appends keep coming. Checking it out for each batch cost 0.1 ms of the event loop's time (a
# third of a transaction's cost there: the quiet worker's price per move); past this, it is
# handed back so that a read or a store write waiting for it goes first.
HOLD_SECONDS = 0.02


class HeldConnection:
    """The async engine's one SQLite connection, which the writer holds while its thread writes
    (so that no other transaction of this process takes SQLite's lock meanwhile and waits in its
    busy handler), kept across batches for ``HOLD_SECONDS`` at most."""

    def __init__(self, engine: AsyncEngine) -> None:
        self._engine = engine
        self._conn: AsyncConnection | None = None
        self._since = 0.0
        self._idle: asyncio.TimerHandle | None = None
        self._releasing: asyncio.Task[None] | None = None

    async def hold(self) -> None:
        loop = asyncio.get_running_loop()
        if self._idle is not None:
            self._idle.cancel()
            self._idle = None
        if self._releasing is not None:
            await self._releasing
        if self._conn is not None:
            if loop.time() - self._since < HOLD_SECONDS:
                return
            await self.release()
            await asyncio.sleep(0)  # whoever waits for the connection takes it first
        if not _in_use(self._engine):
            # Nobody's transaction runs: the batch's, on the loop's thread, begins and commits
            # before one can start. Checking the connection out anyway cost a quiet worker's
            # move 13 % of its instructions (``bench.instructions``, 20 rooms), and a busy one
            # that had held it once took it again every hold, for good.
            return
        self._conn = await self._engine.connect()
        self._since = loop.time()

    async def release(self) -> None:
        if self._idle is not None:
            self._idle.cancel()
            self._idle = None
        conn, self._conn = self._conn, None
        if conn is not None:
            await conn.close()

    def release_when_idle(self) -> None:
        """The writer has nothing to do: hand the connection back unless a batch comes within
        ``HOLD_SECONDS`` (a quiet worker's batches come one by one)."""
        if self._conn is not None and self._idle is None:
            self._idle = asyncio.get_running_loop().call_later(HOLD_SECONDS, self._release_now)

    def _release_now(self) -> None:
        self._idle = None
        task = self._releasing = asyncio.get_running_loop().create_task(self.release())
        task.add_done_callback(lambda _: setattr(self, "_releasing", None))


def _in_use(engine: AsyncEngine) -> bool:
    """Whether a connection of ``engine`` is checked out (its transaction may hold the lock)."""
    pool = engine.sync_engine.pool
    return not isinstance(pool, QueuePool) or pool.checkedout() > 0
