"""A tournament's row as a worker taking it over finds it: the course its owner last wrote,
never one written by an owner that had already lost it (on SQLite and Postgres)."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncEngine

from app.store.tournaments import (
    create_tournament,
    load_tournament,
    public_tournaments,
    save_record,
)


async def test_the_latest_owners_record_wins_and_a_fenced_owner_changes_nothing(
    engine: AsyncEngine,
) -> None:
    async with engine.begin() as conn:
        await conn.run_sync(lambda c: create_tournament(
            c, "QWERT", "Party", public=True, league_id=None, host_token_hash="h",
            rules={"round_limit": 2}, record={"round": 0}))
        assert await conn.run_sync(lambda c: save_record(c, "QWERT", {"round": 1}, 3))
        # the old owner (generation 2) wakes up and writes: refused, nothing changes
        assert not await conn.run_sync(lambda c: save_record(c, "QWERT", {"round": 9}, 2))
        row = await conn.run_sync(load_tournament, "QWERT")
        assert row is not None and row.record == {"round": 1} and row.generation == 3
        assert row.rules == {"round_limit": 2} and not row.finished
        assert await conn.run_sync(public_tournaments) == [("QWERT", "Party")]
        assert await conn.run_sync(lambda c: save_record(c, "QWERT", {"round": 3}, 3,
                                                         finished=True))
        row = await conn.run_sync(load_tournament, "QWERT")
        assert row is not None and row.finished
        assert await conn.run_sync(public_tournaments) == []
        assert await conn.run_sync(load_tournament, "NOPE") is None
