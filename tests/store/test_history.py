"""What the history keeps: profiles, matches with every hand, event logs, retention."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncEngine

from app.store.history import HistoryStore, MatchPlayer
from app.store.models import Player, RoomLogLine, RoomSnapshot
from app.store.sql import SqlRoomStore
from app.store.sqlite_file import SqliteWriter
from tests.store.scripted import Recorder, ScriptedMatch, hand_worth


async def test_a_profile_is_found_by_its_key_which_is_never_stored(
    history: HistoryStore, engine: AsyncEngine
) -> None:
    ann = await history.create_player("  Ann  ")
    bob = await history.create_player("Bob")
    assert ann.name == "Ann" and ann.key != bob.key and len(ann.key) >= 40
    found = await history.player_by_key(ann.key)
    assert found is not None and (found.id, found.name) == (ann.id, "Ann")
    assert await history.player_by_key(ann.key + "x") is None
    async with engine.connect() as conn:
        stored = list((await conn.execute(select(Player.key_hash))).scalars())
    assert ann.key not in stored and bob.key not in stored


async def test_a_finished_match_shows_every_hand_points_totals_and_winner(
    history: HistoryStore, recorder: Recorder
) -> None:
    ann = await history.create_player("Ann")
    await recorder.open_room("ABCD")
    match_id = await recorder.play(
        "ABCD",
        [MatchPlayer("Ann", ann.id), MatchPlayer("Bot", bot=True)],
        ScriptedMatch("winner_takes", 40, [(1, [25, 0]), (0, [0, 40])]),
    )
    match = await history.match(match_id)
    assert match is not None
    assert (match["status"], match["room"], match["seed"]) == ("finished", "ABCD", 42)
    assert match["players"] == [
        {"seat": 0, "name": "Ann", "player": ann.id, "bot": False, "left_after_round": None},
        {"seat": 1, "name": "Bot", "player": None, "bot": True, "left_after_round": None},
    ]
    assert [(r["round"], r["winner"], r["points"], r["totals"]) for r in match["rounds"]] == [
        (1, 1, [0, 25], [0, 25]),
        (2, 0, [40, 0], [40, 25]),
    ]
    assert match["rounds"][0]["hands"] == [hand_worth(25), []]
    assert match["rounds"][0]["places"] is None  # only H-LAST records places
    assert (match["totals"], match["winners"], match["winner_names"]) == ([40, 25], [0], ["Ann"])
    assert match["ended_at"] is not None

    recent = await history.recent_matches(ann.id)
    assert [(m["id"], m["won"], m["players"], m["winners"]) for m in recent] == [
        (match_id, True, ["Ann", "Bot"], ["Ann"])
    ]
    profile = await history.player(ann.id)
    assert profile is not None
    assert (profile["name"], profile["matches"], profile["wins"]) == ("Ann", 1, 1)


async def test_the_event_log_is_the_match_and_outlives_the_room(
    history: HistoryStore, recorder: Recorder, engine: AsyncEngine
) -> None:
    await recorder.open_room("LOGS")  # seq 1: lobby chat, not part of the match
    match_id = await recorder.play(
        "LOGS",
        [MatchPlayer("a"), MatchPlayer("b")],
        ScriptedMatch("winner_takes", 10, [(0, [0, 20])]),
    )
    await recorder.log("LOGS", 1, {"type": "chat", "text": "gg"}, "chat")  # after the match
    log = await history.match_events(match_id)
    assert log is not None
    assert [(line["seq"], line["command"]["type"]) for line in log["log"]] == [
        (2, "start"),
        (3, "play"),
        (4, "timeout"),
    ]
    assert log["log"][-1]["events"][0]["kind"] == "match_over"

    await recorder.rooms.save_snapshot("LOGS", 5, {"version": 5})
    await recorder.rooms.close_room("LOGS")
    assert await recorder.rooms.load_room("LOGS") is None
    assert await history.match_events(match_id) == log  # history and the log stay
    async with engine.connect() as conn:  # what only recovery needed is gone
        kept = await conn.execute(select(RoomLogLine.seq).order_by(RoomLogLine.seq))
        assert list(kept.scalars()) == [2, 3, 4]
        assert (await conn.execute(select(func.count()).select_from(RoomSnapshot))).scalar() == 0
    match = await history.match(match_id)
    assert match is not None and match["status"] == "finished"


async def test_a_running_match_hides_seed_commands_and_private_parts(
    history: HistoryStore, recorder: Recorder
) -> None:
    await recorder.open_room("LIVE")
    first = await recorder.log("LIVE", 0, {"type": "start"}, "round_started", round=1)
    match_id = await history.start_match(
        "LIVE", seed=99, rules={}, seats=[MatchPlayer("a"), MatchPlayer("b")], first_seq=first
    )
    await recorder.log("LIVE", 0, {"type": "draw"}, "drew", seat=0, count=1)
    match = await history.match(match_id)
    assert match is not None and match["status"] == "running" and match["seed"] is None
    log = await history.match_events(match_id)
    assert log is not None
    assert log["log"] == [
        {"seq": 2, "events": [{"kind": "round_started", "public": {"round": 1}, "seq": 2}]},
        {"seq": 3, "events": [{"kind": "drew", "public": {"seat": 0, "count": 1}, "seq": 3}]},
    ]

    await recorder.rooms.close_room("LIVE")  # closed mid-match: abandoned, not lost
    match = await history.match(match_id)
    assert match is not None and match["status"] == "abandoned" and match["seed"] == 99


async def test_recording_twice_after_a_failover_changes_nothing(
    history: HistoryStore, recorder: Recorder
) -> None:
    await recorder.open_room("TWICE")
    first = await recorder.log("TWICE", 0, {"type": "start"}, "round_started", round=1)
    match_id = await history.start_match(
        "TWICE", seed=1, rules={}, seats=[MatchPlayer("a"), MatchPlayer("b")], first_seq=first
    )
    round_over = {
        "round": 1,
        "winner": 0,
        "hands": [[], ["R5"]],
        "hand_points": [0, 5],
        "points": [5, 0],
        "scores": [5, 0],
    }
    as_event = {"kind": "round_over", "public": round_over, "private": {}}
    await history.record_round(match_id, round_over)
    await history.record_round(match_id, as_event)  # the whole to_dict() form is accepted
    over = {"winners": [0], "losers": [], "places": [1, 2], "scores": [5, 0]}
    await history.finish_match(match_id, {"kind": "match_over", **over}, first + 1)  # a view
    await history.finish_match(match_id, over, first + 1)
    await history.abandon_match(match_id)  # too late: it finished
    match = await history.match(match_id)
    assert match is not None
    assert (match["status"], len(match["rounds"]), match["winners"]) == ("finished", 1, [0])
    assert match["result"] == over


async def test_history_calls_may_come_before_or_after_the_records_they_describe(
    history: HistoryStore, recorder: Recorder
) -> None:
    await recorder.open_room("ORDER")  # seq 1
    # start_match before the start record (seq 2) is appended; finish_match before the last.
    match_id = await history.start_match(
        "ORDER", seed=3, rules={}, seats=[MatchPlayer("a"), MatchPlayer("b")], first_seq=2
    )
    await recorder.log("ORDER", 0, {"type": "start"}, "round_started", round=1)
    await recorder.log("ORDER", 0, {"type": "play", "card": "R1"}, "played")
    await history.finish_match(match_id, {"winners": [0], "places": [1, 2], "scores": [9, 0]}, 4)
    await recorder.log("ORDER", 0, {"type": "play", "card": "R2"}, "match_over")
    await recorder.log("ORDER", None, {"type": "chat", "text": "after"}, "chat")
    log = await history.match_events(match_id)
    assert log is not None and [line["seq"] for line in log["log"]] == [2, 3, 4]


async def test_h_last_places_are_kept_with_the_round(
    history: HistoryStore, recorder: Recorder
) -> None:
    await recorder.open_room("LAST")
    match_id = await history.start_match(
        "LAST", seed=3, rules={}, seats=[MatchPlayer(n) for n in "abc"], first_seq=2
    )
    await history.record_round(
        match_id,
        {
            "round": 1,
            "winner": 1,
            "hands": [[], [], ["R5"]],
            "hand_points": [0, 0, 5],
            "points": [0, 5, 0],
            "scores": [0, 5, 0],
            "places": [2, 1, 3],  # H-LAST: seat 1 out first, seat 2 left holding cards
        },
    )
    match = await history.match(match_id)
    assert match is not None and match["rounds"][0]["places"] == [2, 1, 3]


async def test_a_round_result_rides_with_the_room_logs_next_batch_on_a_sqlite_file(
    sqlite_file: tuple[AsyncEngine, SqliteWriter], monkeypatch: pytest.MonkeyPatch
) -> None:
    """On a SQLite file the history's writes go to the room log's writer thread with its next
    batch, in one crossing: through aiosqlite a round's result took several, each waiting for
    a turn of a busy event loop, and the room log's writer waited for the connection meanwhile."""
    engine, writer = sqlite_file
    rooms = SqlRoomStore(engine)
    history = HistoryStore(engine, rooms.in_writer)
    recorder = Recorder(rooms, history)
    for code in ("ROOM", "NEXT"):
        await recorder.open_room(code)
    match_id = await history.start_match(
        "ROOM", seed=1, rules={"scoring": "winner_takes"},
        seats=[MatchPlayer("a"), MatchPlayer("b")], first_seq=2)
    crossings: list[int] = []
    crossing = writer.run_each

    async def counted(works: list[Any]) -> list[tuple[Any, Exception | None]]:
        crossings.append(len(works))
        return await crossing(works)

    monkeypatch.setattr(writer, "run_each", counted)
    round_over = {"round": 1, "winner": 0, "hands": [[], ["G5"]], "hand_points": [0, 5],
                  "points": [5, 0], "scores": [5, 0]}
    await asyncio.gather(
        history.record_round(match_id, round_over),
        recorder.log("NEXT", 0, {"type": "chat", "text": "hi"}, "chat"),
    )
    assert crossings == [2]  # the round (a transaction of its own), then the append
    match = await history.match(match_id)
    assert match is not None and [r["points"] for r in match["rounds"]] == [[5, 0]]


async def test_a_history_store_of_its_own_writes_through_its_engine(
    engine: AsyncEngine, recorder: Recorder
) -> None:
    """Without the room store's writer (a tool, a test), each write is a transaction of its
    own on the engine, with the same results."""
    alone = HistoryStore(engine)
    ann = await alone.create_player("Ann")
    await recorder.open_room("SOLO")
    match_id = await recorder.play(
        "SOLO", [MatchPlayer("Ann", ann.id), MatchPlayer("Bot", bot=True)],
        ScriptedMatch("winner_takes", 10, [(0, [0, 20])]))
    await alone.abandon_match(match_id)  # finished already: changes nothing
    match = await alone.match(match_id)
    assert match is not None and (match["status"], match["winners"]) == ("finished", [0])
