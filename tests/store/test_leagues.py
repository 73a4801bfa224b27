"""League tables over several matches with known outcomes, under both scoring systems."""

from __future__ import annotations

from typing import Any

import pytest

from app.store.errors import InvalidRequest, NotFound
from app.store.history import HistoryStore, MatchPlayer
from tests.store.scripted import Recorder, ScriptedMatch


def table(view: dict[str, Any] | None, *fields: str) -> list[tuple[Any, ...]]:
    assert view is not None
    return [tuple(row[f] for f in ("place", "name", *fields)) for row in view["standings"]]


async def test_winner_takes_league_ranks_wins_then_rounds_then_points(
    history: HistoryStore, recorder: Recorder
) -> None:
    league = await history.create_league("Friday", "winner_takes", 100)
    ann, bob, cid, dee = [(await history.create_player(n)).id for n in ("Ann", "Bob", "Cid", "Dee")]

    def seats(*who: tuple[str, int | None]) -> list[MatchPlayer]:
        return [MatchPlayer(name, pid, bot=pid is None) for name, pid in who]

    await recorder.open_room("ONE")
    await recorder.play(
        "ONE",
        seats(("Ann", ann), ("Bob", bob), ("Cid", cid)),
        ScriptedMatch("winner_takes", 100, [(0, [0, 30, 40]), (1, [20, 0, 15]), (0, [0, 10, 25])]),
        league,
    )
    await recorder.rooms.close_room("ONE")
    await recorder.open_room("TWO")
    await recorder.play(
        "TWO",
        seats(("Bob", bob), ("Dee", dee), ("Cid", cid)),
        ScriptedMatch("winner_takes", 100, [(1, [50, 0, 60])]),
        league,
    )
    await recorder.open_room("ONE")  # the code again, a new room; the same profiles
    await recorder.play(
        "ONE",
        seats(("Cid", cid), ("Ann", ann), ("Bot", None)),
        ScriptedMatch(
            "winner_takes",
            100,
            [(2, [40, 30, 0]), (0, [0, 20, 15]), (2, [10, 5, 0]), (0, [0, 40, 30])],
        ),
        league,
    )
    await recorder.open_room("THREE")
    abandoned = await recorder.play(
        "THREE",
        seats(("Bob", bob), ("Dee", dee)),
        ScriptedMatch("winner_takes", 100, [(0, [0, 90]), (0, [0, 50])], abandon_after=1),
        league,
    )

    view = await history.league_table(league)
    assert view is not None
    assert (view["name"], view["scoring"], view["target"]) == ("Friday", "winner_takes", 100)
    # Ann and Cid: 1 win, 2 rounds, 105 points each: they share first place.
    assert table(view, "matches", "wins", "rounds_won", "points") == [
        (1, "Ann", 2, 1, 2, 105),
        (1, "Cid", 3, 1, 2, 105),
        (3, "Dee", 1, 1, 1, 110),
        (4, "Bob", 2, 0, 1, 35),
    ]
    match = await history.match(abandoned)
    assert match is not None and match["status"] == "abandoned" and match["winners"] is None


async def test_lowest_wins_league_ranks_losses_then_survived_then_average(
    history: HistoryStore, recorder: Recorder
) -> None:
    league = await history.create_league("Sunday", "lowest_wins")
    names = ("Eve", "Fay", "Gus", "Hal", "Ivy", "Jo")
    ids = {n: (await history.create_player(n)).id for n in names}

    def seats(*who: str) -> list[MatchPlayer]:
        return [MatchPlayer(n, ids[n]) for n in who]

    for code in ("A", "B", "C"):
        await recorder.open_room(code)
    await recorder.play(
        "A",
        seats("Eve", "Fay", "Gus"),
        ScriptedMatch("lowest_wins", 50, [(0, [0, 12, 30]), (1, [8, 0, 25])]),
        league,
    )
    # Fay leaves after the first round; a bot plays her seat and takes its loss; for the table
    # she keeps round 1 and counts the match as lost.
    await recorder.play(
        "B",
        seats("Gus", "Fay", "Eve"),
        ScriptedMatch("lowest_wins", 50, [(0, [0, 20, 10]), (2, [15, 40, 0])], left={1: 1}),
        league,
    )
    tied = await recorder.play(
        "C",
        seats("Hal", "Ivy", "Jo"),
        ScriptedMatch("lowest_wins", 50, [(0, [0, 10, 30]), (1, [10, 0, 25])]),
        league,
    )

    view = await history.league_table(league)
    assert view is not None and view["target"] == 200  # the P-200 default
    assert table(view, "matches", "losses", "survived", "rounds", "points", "average") == [
        (1, "Eve", 2, 0, 2, 4, 18, 4.5),
        (2, "Hal", 1, 0, 1, 2, 10, 5.0),
        (2, "Ivy", 1, 0, 1, 2, 10, 5.0),
        (4, "Fay", 2, 1, 1, 3, 32, 10.67),
        (5, "Gus", 2, 1, 1, 4, 70, 17.5),
        (6, "Jo", 1, 1, 0, 2, 55, 27.5),
    ]
    assert [row["wins"] for row in view["standings"]] == [2, 1, 1, 0, 0, 0]
    match = await history.match(tied)
    assert match is not None
    assert match["winners"] == [0, 1] and match["winner_names"] == ["Hal", "Ivy"]
    assert match["result"]["places"] == [1, 1, 3]


async def test_a_league_counts_only_matches_played_by_its_scoring(
    history: HistoryStore, recorder: Recorder
) -> None:
    league = await history.create_league("Strict", "lowest_wins", 200)
    await recorder.open_room("ROOM")
    with pytest.raises(InvalidRequest, match="lowest_wins"):
        await history.start_match(
            "ROOM",
            seed=1,
            rules={"scoring": "winner_takes"},
            seats=[MatchPlayer("a"), MatchPlayer("b")],
            first_seq=2,
            league_id=league,
        )
    with pytest.raises(NotFound):
        await history.start_match(
            "ROOM", seed=1, rules={}, seats=[MatchPlayer("a")], first_seq=2, league_id=league + 1
        )
    with pytest.raises(InvalidRequest):
        await history.create_league("Bad", "lazy")
    with pytest.raises(InvalidRequest):
        await history.create_league("Bad", "winner_takes", 0)
    view = await history.league_table(league)
    assert view is not None and view["standings"] == []
    assert await history.league_table(league + 1) is None
