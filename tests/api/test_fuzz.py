"""Generated frames thrown at a live room over a real socket (bench/fuzz.py, CI-sized), on
SQLite and on Postgres: every frame is answered or limited with a documented code, a refused
frame changes nothing, and the worker stays up. ``python -m bench.fuzz`` throws 100,000."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import httpx
import pytest

from bench.fuzz import run_frames
from bench.server import ONE_ADDRESS_LIMITS
from tests.api.hostile import hostile_server
from tests.server_fixture import ServerProcess

FUZZ_ENV = {**ONE_ADDRESS_LIMITS, "UNO_PLAYER_RATE": "100000000",
            "UNO_BOT_DELAY_MS": "[600000,600000]"}


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def fuzz_server(request: pytest.FixtureRequest) -> Iterator[ServerProcess]:
    with hostile_server(request.param, **FUZZ_ENV) as server:
        yield server


async def test_generated_frames_are_answered_or_limited_and_change_nothing_when_refused(
    fuzz_server: ServerProcess,
) -> None:
    outcomes = await asyncio.to_thread(run_frames, fuzz_server.http_url, 300, 10)
    assert sum(outcomes.values()) == 3000
    assert outcomes["error:bad_message"] > 0 and outcomes["closed:1009"] > 0
    async with httpx.AsyncClient() as http:
        assert (await http.get(f"{fuzz_server.http_url}/healthz")).status_code == 200
    assert "Traceback" not in fuzz_server.full_log()
