"""A private ``redis-server`` on a free port, for tests that stop and restart Redis (never the
shared server on 6379).

    with private_redis() as server:
        server.url            # redis://127.0.0.1:<port>/0
        server.stop()         # kill -9: clients see the connection drop
        server.start()        # again on the same port, empty
"""

from __future__ import annotations

import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager

from tests.server_fixture import free_port


class RedisServer:
    def __init__(self, password: str | None = None) -> None:
        self.port = free_port()
        self.password = password
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        auth = f":{self.password}@" if self.password else ""
        return f"redis://{auth}127.0.0.1:{self.port}/0"

    def start(self, timeout: float = 10.0) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            raise RuntimeError("redis-server is not installed (apt-get install redis-server)")
        self.process = subprocess.Popen(
            [binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", *(["--requirepass", self.password] if self.password else [])],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                    return
            except OSError:
                time.sleep(0.02)
        self.stop()
        raise RuntimeError(f"redis-server did not come up on port {self.port}")

    def stop(self) -> None:
        process, self.process = self.process, None
        if process is not None and process.poll() is None:
            process.send_signal(signal.SIGKILL)
            process.wait(5)


@contextmanager
def private_redis(password: str | None = None) -> Iterator[RedisServer]:
    server = RedisServer(password)
    server.start()
    try:
        yield server
    finally:
        server.stop()
