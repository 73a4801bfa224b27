"""Several real uvicorn workers sharing one Postgres database and one Redis (or a Redis
Cluster: ``redis_cluster=servers.seeds``), for cluster tests.

    with running_workers("uno_test_cluster", workers=3) as processes:   # once per module
        async with cluster_of(processes) as cluster:                      # once per test
            cluster.workers[0].http_url ...
            cluster.workers[0].stop(kill=True)      # kill -9 (started again for the next test)
            cluster.freeze(1) / cluster.thaw(1)     # SIGSTOP / SIGCONT
            await cluster.lease_holder(code)        # ("w2", generation) or None
"""

from __future__ import annotations

import asyncio
import signal
import uuid
from collections.abc import AsyncIterator, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass

from app.cluster.cluster_bus import ClusterBus
from app.cluster.redis_bus import RedisBus
from app.cluster.transport import Transport
from tests.server_fixture import ServerProcess, test_env
from tests.services import drop_postgres_database, fresh_postgres_database, redis_url

LEASE_SECONDS = 1.5  # short, so that failover tests are quick


@dataclass
class Workers:
    processes: list[ServerProcess]
    redis_url: str
    prefix: str
    database_url: str = ""
    redis_cluster: str | None = None  # the seeds of a Redis Cluster, instead of redis_url


class Cluster:
    def __init__(self, workers: Workers, redis: Transport) -> None:
        self.workers = workers.processes
        self.redis = redis
        self.database_url = workers.database_url

    def freeze(self, index: int) -> None:
        process = self.workers[index].process
        assert process is not None
        process.send_signal(signal.SIGSTOP)

    def thaw(self, index: int) -> None:
        process = self.workers[index].process
        if process is not None and process.poll() is None:
            process.send_signal(signal.SIGCONT)

    async def lease_holder(self, code: str) -> tuple[str, int] | None:
        return await self.redis.keys.lease_holder(f"room:{code}")


@contextmanager
def running_workers(database: str, workers: int = 3, redis: str | None = None,
                    redis_cluster: str | None = None, **env: str) -> Iterator[Workers]:
    url = asyncio.run(fresh_postgres_database(database))
    redis = redis or ("" if redis_cluster else redis_url())
    shared = {"UNO_REDIS_CLUSTER": redis_cluster} if redis_cluster else {"UNO_REDIS_URL": redis}
    prefix = f"test:{uuid.uuid4().hex[:12]}:"
    processes = [
        ServerProcess({
            **test_env(
                UNO_DATABASE_URL=url,
                UNO_REDIS_PREFIX=prefix,
                UNO_LEASE_SECONDS=str(LEASE_SECONDS),
                UNO_WORKER_ID=f"w{i}",
            ),
            **shared,
            **env,
        })
        for i in range(workers)
    ]
    try:
        processes[0].start()  # the first one migrates the database
        with ThreadPoolExecutor(len(processes)) as pool:
            list(pool.map(lambda p: p.start(), processes[1:]))
        yield Workers(processes, redis, prefix, url, redis_cluster)
    finally:
        for process in processes:
            if process.process is not None and process.process.poll() is None:
                process.process.send_signal(signal.SIGCONT)  # a stopped one would not see TERM
            process.stop()
        asyncio.run(drop_postgres_database(database))


@asynccontextmanager
async def cluster_of(workers: Workers) -> AsyncIterator[Cluster]:
    """The module's workers, every one running (a worker a test killed is started again)."""
    for process in workers.processes:
        if process.process is None or process.process.poll() is not None:
            await asyncio.to_thread(process.start)
    bus: Transport = (ClusterBus(workers.redis_cluster, prefix=workers.prefix)
                      if workers.redis_cluster else RedisBus(workers.redis_url,
                                                             prefix=workers.prefix))
    if workers.redis_cluster:
        await bus.start()  # the slot map (a RedisBus connects on first use)
    cluster = Cluster(workers, bus)
    try:
        yield cluster
    finally:
        for index in range(len(cluster.workers)):
            cluster.thaw(index)
        async with asyncio.timeout(10):
            await bus.close()
