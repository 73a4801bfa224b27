"""Worker processes for the benchmarks that run several (bench.cluster, bench.storm,
bench.capacity): each a real ``python -m app`` on a free port, against one Postgres database
made fresh for the run."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from sqlalchemy import text
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import create_async_engine

from bench.server import free_port, start_process, wait_up

POSTGRES = "postgresql+asyncpg://postgres@127.0.0.1:5432/uno_bench_cluster"
REDIS = "redis://127.0.0.1:6379/13"


async def fresh_database(url: str) -> None:
    parsed = make_url(url)
    admin = create_async_engine(parsed.set(database="postgres"), isolation_level="AUTOCOMMIT")
    try:
        async with admin.connect() as conn:
            await conn.execute(text(f'DROP DATABASE IF EXISTS "{parsed.database}" WITH (FORCE)'))
            await conn.execute(text(f'CREATE DATABASE "{parsed.database}"'))
    finally:
        await admin.dispose()


class Worker:
    logs: Path | None = None  # --logs: each worker's output goes to <logs>/worker-<port>.log

    def __init__(self, env: dict[str, str], module: str = "app") -> None:
        self.port = free_port()
        self.env = env
        self.module = module  # bench.library_app: the libraries' own protocol code
        self.process = self.start()

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self) -> Any:
        self.process = start_process(
            [sys.executable, "-m", self.module, "--port", str(self.port), "--log-level",
             "warning",
             "--ws-max-size", "4096"], self.env,
            None if self.logs is None else self.logs / f"worker-{self.port}.log")
        wait_up(f"{self.http}/healthz", self.process)
        return self.process

    def kill(self) -> None:
        self.process.kill()
        self.process.wait(10)
