"""The database going away mid-match (issue 30): a Postgres of the test's own is stopped for
10 s, then started again. Meanwhile every command is answered ``store_unavailable`` and changes
nothing, no turn's clock runs out, the sockets stay; once the database is back play resumes by
itself within seconds, on the same worker, and every acknowledged move is there."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator

import pytest

from tests.rooms.client import connect, make_table
from tests.rooms.test_commands import deal
from tests.server_fixture import ServerProcess
from tests.server_fixture import test_env as server_env
from tests.throwaway_postgres import ThrowawayPostgres, throwaway_postgres

HANDS = [["R1", "R2", "R3", "G9"], ["R4", "R6", "G7", "Y8"]]
OUTAGE_SECONDS = 10


@pytest.fixture(scope="module")
def postgres() -> Iterator[ThrowawayPostgres]:
    with throwaway_postgres() as pg:
        yield pg


async def test_a_database_away_for_ten_seconds_mid_match_loses_nothing_and_play_resumes(
    postgres: ThrowawayPostgres,
) -> None:
    server = ServerProcess(server_env(UNO_DATABASE_URL=postgres.url))
    server.start()
    try:
        table = await make_table(server, ["Ann", "Bob"], seed=5, deal=deal(HANDS),
                                 rules={"turn_seconds": 8})
        ann, bob = table.players
        await ann.ok("start")
        await ann.ok("play", card="R1")  # acknowledged: stored
        await bob.event("played", seat=0)
        before = await bob.state()
        await asyncio.to_thread(postgres.stop)
        stopped = time.monotonic()
        answers = []
        while time.monotonic() - stopped < OUTAGE_SECONDS:
            answers.append((await bob.cmd("play", card="R4"))["code"])
            await asyncio.sleep(1)
        assert set(answers) == {"store_unavailable"}, answers
        assert (await ann.cmd("chat", text="anyone?"))["code"] == "store_unavailable"
        waiting = await bob.cmd("sync")  # nothing of a change not stored is ever shown
        assert (waiting["type"], waiting["code"]) == ("error", "store_unavailable")
        assert not [f for f in bob.frames if f["type"] == "event" and f["seq"] > before["seq"]]
        assert ann.closed is None and bob.closed is None  # the sockets stayed
        await asyncio.to_thread(postgres.start)
        back = time.monotonic()
        while True:  # play resumes by itself: no worker restarted, nobody reconnected
            answer = await bob.cmd("play", card="R4")
            if answer["type"] == "ack":
                break
            assert answer["code"] == "store_unavailable", answer
            assert time.monotonic() - back < 10, "play did not resume within 10 s"
            await asyncio.sleep(0.2)
        print(f"\nplay resumed {time.monotonic() - back:.2f} s after the database came back")
        played = await ann.event("played", seat=1)
        assert played["card"] == "R4"  # Bob's turn was still his: the clock had waited
        frame = next(f for f in ann.frames if f.get("event", {}).get("kind") == "played"
                     and f["event"]["seat"] == 1)
        assert frame["seq"] == before["seq"] + 1  # nothing was applied meanwhile
        assert not [f for f in bob.frames if f.get("event", {}).get("kind") == "timed_out"]
        await ann.ok("play", card="R2")
        await table.close()
        server.restart()  # every acknowledged move is in the database
        ann_again = await connect(server, table.code, table.tokens[0], 0)
        state = await ann_again.state()
        assert sorted(state["you"]["hand"]) == ["G9", "R3"]
        assert state["top"] == "R2"
        await ann_again.close()
    finally:
        server.stop()
