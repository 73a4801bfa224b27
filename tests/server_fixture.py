"""A real uvicorn server in its own process on a free port, for tests that need real sockets.

    with running_server(UNO_TESTING="1") as server:
        server.http_url, server.ws_url("ABCD", token=...)
        server.restart()          # kill -9 and start again on the same port and database
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


class ServerProcess:
    def __init__(self, env: dict[str, str], port: int | None = None,
                 log_level: str = "warning") -> None:
        self.port = port or free_port()
        self.log_level = log_level
        self.env = {**os.environ, **env}
        self.process: subprocess.Popen[bytes] | None = None
        self.log_path = Path(tempfile.mkstemp(prefix="uno-server-", suffix=".log")[1])

    @property
    def http_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def ws_url(self, code: str, **query: object) -> str:
        params = urlencode({k: v for k, v in query.items() if v is not None})
        return f"ws://127.0.0.1:{self.port}/ws/rooms/{code}" + (f"?{params}" if params else "")

    def start(self, timeout: float = 20.0) -> None:
        command = [
            sys.executable, "-m", "app",  # as scripts/serve.sh
            "--host", "127.0.0.1", "--port", str(self.port), "--log-level", self.log_level,
        ]
        with self.log_path.open("ab") as log:
            self.process = subprocess.Popen(command, cwd=ROOT, env=self.env, stdout=log,
                                            stderr=subprocess.STDOUT)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"server exited at start-up:\n{self.log()}")
            try:
                with urllib.request.urlopen(f"{self.http_url}/healthz", timeout=1):
                    return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError(f"server did not come up in {timeout} s:\n{self.log()}")

    def stop(self, kill: bool = False) -> None:
        process = self.process
        if process is None:
            return
        self.process = None
        if process.poll() is None:
            process.send_signal(signal.SIGKILL if kill else signal.SIGTERM)
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(5)

    def restart(self) -> None:
        """Kill the process without warning (a crash) and start it again."""
        self.stop(kill=True)
        self.start()

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")[-5000:]

    def full_log(self) -> str:
        return self.log_path.read_text(errors="replace")

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid


# Every test shares 127.0.0.1: the limits per client are raised out of the way, except where
# a test is about them (tests/api/test_hostile_clients.py starts servers of its own).
GENEROUS_LIMITS = {
    "UNO_ROOMS_PER_MINUTE": "100000",
    "UNO_TOKENS_PER_MINUTE": "100000",
    "UNO_EMPTY_ROOMS_PER_CLIENT": "100000",
    "UNO_SOCKETS_PER_CLIENT": "100000",
    "UNO_SOCKETS_PER_ADDRESS": "100000",
    "UNO_CLIENT_RATE": "1000000",
    "UNO_ADDRESS_RATE": "10000000",
    "UNO_UNKNOWN_CODE_RATE": "100000",
}


def test_env(database: Path | None = None, **extra: str) -> dict[str, str]:
    """Settings for a test server: UNO_TESTING on, fast bots, a private SQLite file, limits per
    client out of the way."""
    if database is None:
        database = Path(tempfile.mkdtemp(prefix="uno-db-")) / "uno.db"
    env = {
        "UNO_TESTING": "1",
        "UNO_DATABASE_URL": f"sqlite+aiosqlite:///{database}",
        "UNO_BOT_DELAY_MS": "[5,30]",
        "UNO_HOST_GRACE_SECONDS": "0.2",
        **GENEROUS_LIMITS,
    }
    env.update(extra)
    return env


@contextmanager
def running_server(log_level: str = "warning", **env: str) -> Iterator[ServerProcess]:
    server = ServerProcess({**test_env(), **env}, log_level=log_level)
    server.start()
    try:
        yield server
    finally:
        server.stop()
