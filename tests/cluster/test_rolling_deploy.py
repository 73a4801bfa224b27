"""A rolling deploy under load (issue 30): three workers with 300 sockets in 100 rooms, each
worker in turn stopped with SIGTERM and started again, the last one as a build whose room-log
format is newer. A stopped worker answers /readyz 503 at once, hands every room it runs to a
live worker (loaded there before its sockets move) and closes its sockets 1012: no acknowledged
move is lost, every client is back in its seat, and the test prints the move p99 and the longest
gap any table saw."""

from __future__ import annotations

import subprocess
import time
import uuid
from collections.abc import AsyncIterator, Iterator

import pytest

from app.store.records import RECORD_FORMAT
from bench import storm

from .cluster import Cluster, Workers, cluster_of, running_workers
from .players import make_rooms, play_through

ROOMS = 100  # 300 sockets
EVERY = 3.0  # a move every 3 s per socket: 100 a second over the three workers


@pytest.fixture(scope="module")
def workers() -> Iterator[Workers]:
    with running_workers(f"uno_test_roll_{uuid.uuid4().hex[:8]}", workers=3,
                         UNO_LEASE_SECONDS="5") as running:  # the default lease
        yield running


@pytest.fixture
async def cluster(workers: Workers) -> AsyncIterator[Cluster]:
    async with cluster_of(workers) as running:
        yield running


def readyz(port: int) -> int:
    return storm.readyz(f"http://127.0.0.1:{port}")


async def test_a_rolling_deploy_under_load_loses_no_move_and_every_client_is_back(
    cluster: Cluster,
) -> None:
    players = await make_rooms(cluster, ROOMS, EVERY)
    assert len(players) == 300

    def roll() -> str:
        steps = []
        for index, worker in enumerate(cluster.workers):
            process = worker.process
            assert process is not None and readyz(worker.port) == 200
            began = time.monotonic()
            process.terminate()  # SIGTERM, as a deploy sends it
            deadline = began + 2
            while readyz(worker.port) == 200:  # /readyz says so at once
                assert time.monotonic() < deadline, "/readyz still 200 after SIGTERM"
                time.sleep(0.01)
            said = time.monotonic() - began
            try:
                process.wait(30)
            except subprocess.TimeoutExpired:  # what it was doing, for whoever looks
                process.kill()
                raise AssertionError(f"w{index} still running 30 s after SIGTERM:\n"
                                     f"{worker.log()}") from None
            gone = time.monotonic() - began
            worker.process = None
            if index == len(cluster.workers) - 1:  # the newest build writes a newer format
                worker.env["UNO_RECORD_FORMAT"] = str(RECORD_FORMAT + 1)
            worker.start()
            steps.append(f"w{index}: /readyz 503 after {said * 1000:.0f} ms, exited after "
                         f"{gone:.2f} s")
        return "; ".join(steps)

    await play_through(cluster, players, "rolling deploy", roll, back_within=60)
    for worker in cluster.workers:
        log = worker.full_log()
        assert "Traceback" not in log, log[-3000:]
    drained = [line for w in cluster.workers for line in w.full_log().splitlines()
               if "drain: " in line]
    assert len(drained) == 3 and all("of" in line for line in drained), drained
