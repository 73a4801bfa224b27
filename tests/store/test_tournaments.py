"""A tournament's row as a worker taking it over finds it: the course its owner last wrote,
never one written by an owner that had already lost it, and no change lost to another written
at the same time (on SQLite and Postgres)."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncEngine

from app.store.tournaments import TournamentStore


async def test_the_latest_owners_record_wins_and_a_fenced_owner_changes_nothing(
    engine: AsyncEngine,
) -> None:
    store = TournamentStore(engine)
    await store.create("QWERT", "Party", public=True, league_id=None, host_token_hash="h",
                       rules={"round_limit": 2}, record={"round": 0})
    assert await store.take_over("QWERT", 3)
    assert await store.save("QWERT", {"round": 1}, 0, generation=3)
    # the old owner (generation 2) wakes up and writes: refused, nothing changes
    assert not await store.take_over("QWERT", 2)
    assert not await store.save("QWERT", {"round": 9}, 1, generation=2)
    row = await store.load("QWERT")
    assert row is not None and row.record == {"round": 1} and row.generation == 3
    assert row.rules == {"round_limit": 2} and not row.finished and row.revision == 1
    assert [r.code for r in await store.public()] == ["QWERT"]
    assert await store.unfinished() == ["QWERT"]
    assert await store.save("QWERT", {"round": 3}, 1, generation=3, finished=True)
    row = await store.load("QWERT")
    assert row is not None and row.finished
    assert await store.public() == [] and await store.unfinished() == []
    assert await store.load("NOPE") is None


async def test_two_changes_from_the_same_revision_cannot_both_land(engine: AsyncEngine) -> None:
    store = TournamentStore(engine)
    await store.create("ASDFG", "Party", public=False, league_id=None, host_token_hash="h",
                       rules={}, record={"joined": []})
    assert await store.save("ASDFG", {"joined": ["ann"]}, 0)
    assert not await store.save("ASDFG", {"joined": ["bob"]}, 0)  # read before Ann's write
    row = await store.load("ASDFG")
    assert row is not None and row.record == {"joined": ["ann"]} and row.revision == 1


async def test_who_is_connected_is_seen_by_every_worker_for_a_while(engine: AsyncEngine) -> None:
    store = TournamentStore(engine)
    await store.mark_seen("ZXCVB", ["p1", "p2"])
    await store.mark_seen("ZXCVB", ["p2"])  # seen again: one row each
    assert await store.present("ZXCVB", 60) == {"p1", "p2"}
    assert await store.present("OTHER", 60) == set()
    assert await store.present("ZXCVB", -1) == set()  # seen before the window
