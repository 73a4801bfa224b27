"""Several real uvicorn workers sharing one Postgres database and one Redis, for cluster tests.

    async with running_cluster("uno_test_cluster", workers=3) as cluster:
        cluster.workers[0].http_url ...
        cluster.workers[0].stop(kill=True)      # kill -9
        cluster.freeze(1) / cluster.thaw(1)     # SIGSTOP / SIGCONT
        await cluster.lease_holder(code)        # ("w2", generation) or None
"""

from __future__ import annotations

import asyncio
import signal
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from app.bus.redis_bus import RedisBus
from tests.server_fixture import ServerProcess, test_env
from tests.services import drop_postgres_database, fresh_postgres_database, redis_url

LEASE_SECONDS = 1.5  # short, so that failover tests are quick


class Cluster:
    def __init__(self, workers: list[ServerProcess], redis: RedisBus) -> None:
        self.workers = workers
        self.redis = redis

    def freeze(self, index: int) -> None:
        process = self.workers[index].process
        assert process is not None
        process.send_signal(signal.SIGSTOP)

    def thaw(self, index: int) -> None:
        process = self.workers[index].process
        if process is not None and process.poll() is None:
            process.send_signal(signal.SIGCONT)

    async def lease_holder(self, code: str) -> tuple[str, int] | None:
        return await self.redis.lease_holder(f"room:{code}")


@asynccontextmanager
async def running_cluster(database: str, workers: int = 3) -> AsyncIterator[Cluster]:
    url = await fresh_postgres_database(database)
    redis = redis_url()
    prefix = f"test:{uuid.uuid4().hex[:12]}:"
    processes = [
        ServerProcess(test_env(
            UNO_DATABASE_URL=url,
            UNO_REDIS_URL=redis,
            UNO_REDIS_PREFIX=prefix,
            UNO_LEASE_SECONDS=str(LEASE_SECONDS),
            UNO_WORKER_ID=f"w{i}",
        ))
        for i in range(workers)
    ]
    bus = RedisBus(redis, prefix=prefix)
    cluster = Cluster(processes, bus)
    try:
        for process in processes:  # one after the other: the first one migrates the database
            await asyncio.to_thread(process.start)
        yield cluster
    finally:
        for index, process in enumerate(processes):
            cluster.thaw(index)  # a stopped process would not see SIGTERM
            await asyncio.to_thread(process.stop)
        async with asyncio.timeout(10):
            await bus.close()
            await drop_postgres_database(database)
