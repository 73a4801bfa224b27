"""A Postgres server of a test's own, on a free port, that the test may stop and start again
(Debian's binaries: ``initdb``, ``pg_ctl``; as the ``postgres`` user when run as root, as
Postgres refuses to run as root).

    with throwaway_postgres() as pg:
        url = pg.url                 # postgresql+asyncpg://postgres@127.0.0.1:PORT/postgres
        pg.stop(); pg.start()        # a restart: the data stays
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tests.server_fixture import free_port
from tests.services import unavailable


def _bin(name: str) -> str:
    for folder in sorted(Path("/usr/lib/postgresql").glob("*/bin"), reverse=True):
        if (folder / name).exists():
            return str(folder / name)
    found = shutil.which(name)
    if found is None:
        unavailable(f"no {name} (Debian's postgresql package) to start a Postgres of our own")
        raise AssertionError("unreachable")
    return found


class ThrowawayPostgres:
    def __init__(self, root: Path, port: int) -> None:
        self.root = root
        self.data = root / "data"
        self.port = port
        self.url = f"postgresql+asyncpg://postgres@127.0.0.1:{port}/postgres"

    def _run(self, *args: str) -> None:
        command = list(args)
        if os.geteuid() == 0:
            command = ["runuser", "-u", "postgres", "--", *command]
        subprocess.run(command, check=True, capture_output=True, timeout=60)

    def init(self) -> None:
        self.root.mkdir(parents=True, exist_ok=True)
        if os.geteuid() == 0:
            shutil.chown(self.root, "postgres", "postgres")
        self._run(_bin("initdb"), "-D", str(self.data), "-U", "postgres", "-A", "trust",
                  "--no-sync")

    def start(self) -> None:
        self._run(_bin("pg_ctl"), "-D", str(self.data), "-l", str(self.root / "log"), "-w",
                  "-o", f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 "
                  "-c fsync=off", "start")

    def stop(self) -> None:
        self._run(_bin("pg_ctl"), "-D", str(self.data), "-m", "fast", "-w", "stop")


@contextmanager
def throwaway_postgres() -> Iterator[ThrowawayPostgres]:
    root = Path(tempfile.mkdtemp(prefix="uno-pg-"))
    pg = ThrowawayPostgres(root, free_port())
    pg.init()
    pg.start()
    try:
        yield pg
    finally:
        with contextlib.suppress(subprocess.CalledProcessError):  # stopped already
            pg.stop()
        shutil.rmtree(root, ignore_errors=True)
