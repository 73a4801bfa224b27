"""A worker told to stop (SIGTERM) exits within ``UNO_STOP_SECONDS``, whatever a client does: a
deploy must not wait on a stranger who sends half a request and then nothing."""

from __future__ import annotations

import asyncio
import signal
import socket
import subprocess
import time

import pytest

from app.draining import Drain
from tests.server_fixture import ServerProcess
from tests.server_fixture import test_env as server_env


def test_a_client_stalled_mid_request_does_not_keep_a_stopping_worker_alive() -> None:
    server = ServerProcess(server_env(UNO_STOP_SECONDS="2"), log_level="info")
    server.start()
    process = server.process
    assert process is not None
    stalled = socket.create_connection(("127.0.0.1", server.port))
    try:
        # Headers whole, the body promised but only begun: the request stays in flight.
        stalled.sendall(b"POST /api/rooms HTTP/1.1\r\nHost: uno\r\nContent-Type: application/json"
                        b"\r\nContent-Length: 100\r\n\r\n{\"na")
        time.sleep(0.3)
        told = time.monotonic()
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(15)
        except subprocess.TimeoutExpired:
            process.kill()
            raise AssertionError(f"still running 15 s after SIGTERM:\n{server.log()}") from None
        took = time.monotonic() - told
        assert took < 2 + 3, f"exited {took:.1f} s after SIGTERM:\n{server.log()}"
        assert "timeout graceful shutdown exceeded" in server.full_log()
    finally:
        stalled.close()
        server.stop()


async def test_a_drain_that_hangs_gives_up_within_its_time(caplog: pytest.LogCaptureFixture
                                                           ) -> None:
    drain = Drain()
    ran: list[str] = []

    async def hangs() -> None:
        ran.append("hangs")
        await asyncio.Event().wait()  # a hand-over whose answer never comes

    async def never_reached() -> None:
        ran.append("after")

    drain.on_drain(hangs)
    drain.on_drain(never_reached)
    began = time.monotonic()
    await drain.run(within=0.3)
    assert 0.25 < time.monotonic() - began < 2
    assert drain.draining and ran == ["hangs"]
    assert "the drain took over" in caplog.text


async def test_a_drain_step_that_fails_does_not_stop_the_others() -> None:
    drain = Drain()
    ran: list[str] = []

    async def fails() -> None:
        ran.append("fails")
        raise TimeoutError("a Redis call timed out")  # its own time-out, not the drain's

    async def hands_over() -> None:
        ran.append("hands over")

    drain.on_drain(fails)
    drain.on_drain(hands_over)
    await drain.run(within=5)
    assert ran == ["fails", "hands over"]
