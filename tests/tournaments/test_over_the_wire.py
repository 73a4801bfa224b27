"""Tournaments as a host and their participants' phones see them, over HTTP and WebSockets on
one server (SQLite): a Swiss tournament whose standings are what its tables' matches say, a
knockout down to its final table, a late joiner, a withdrawal, an absent player played as away,
and what a stranger may not do. tests/cluster/test_tournaments.py runs them on three workers."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Iterator, Sequence
from fractions import Fraction
from typing import Any

import httpx
import pytest

from tests.rooms.client import connect
from tests.server_fixture import ServerProcess, running_server

from .wire import (
    FAST,
    Tournament,
    expected_standings,
    open_tournament,
    socket,
    table_result,
    with_people,
)


@pytest.fixture(scope="module")
def server() -> Iterator[ServerProcess]:
    with running_server(**FAST) as running:
        yield running


Rounds = Sequence[Sequence[dict[str, Any]]]


async def standings_from_the_tables(tournament: Tournament, rounds: Rounds
                                    ) -> list[tuple[str, Fraction, Fraction, int]]:
    ids = {e.name: e.participant for e in tournament.entrants}
    tables = []
    for tables_of_round in rounds:
        for table in tables_of_round:
            summary = await table_result(tournament.server(0), table["room"])
            seats = [ids.get(seat["name"]) if not seat["bot"] else None
                     for seat in summary["seats"]]
            assert sorted(s for s in seats if s) == sorted(table["participants"])
            tables.append((seats, summary))
    return expected_standings([e.participant for e in tournament.entrants], tables)


def as_rows(view: dict[str, Any]) -> list[tuple[str, Fraction, Fraction, int]]:
    return [(row["participant"], Fraction(row["points"]).limit_denominator(100),
             Fraction(row["buchholz"]).limit_denominator(100), row["card_points"])
            for row in view["standings"]]


async def check_swiss_of_13(servers: Sequence[ServerProcess]) -> None:
    tournament = await with_people(servers, 13, rounds=3, table_size=4)
    rounds = await tournament.play_out()
    assert len(rounds) == 3
    everyone = sorted(e.participant for e in tournament.entrants)
    for tables in rounds:
        seated = sorted(who for table in tables for who in table["participants"])
        assert seated == everyone  # each person at exactly one table each round
        assert sorted(len(t["participants"]) for t in tables) == [3, 3, 3, 4]
        assert len({t["room"] for t in tables}) == 4
    view = await tournament.view(len(servers) - 1)
    assert view["phase"] == "over" and view["round"] == 3
    assert as_rows(view) == await standings_from_the_tables(tournament, rounds)
    assert view["podium"] == [row["participant"] for row in view["standings"][:3]]


async def test_tr_swiss_a_tournament_of_13_ends_with_the_standings_its_tables_matches_give(
    server: ServerProcess,
) -> None:
    await check_swiss_of_13([server])


async def check_knockout_of_9(servers: Sequence[ServerProcess]) -> None:
    tournament = await with_people(servers, 9, format="knockout", table_size=4)
    rounds = await tournament.play_out()
    # 9 at three tables of 3, two of each go on: 6 at two tables, then 4: the final table
    assert [len(tables) for tables in rounds] == [3, 2, 1]
    final = rounds[-1][0]
    assert len(final["participants"]) == 4
    for before, after in itertools.pairwise(rounds):
        went_on = {who for table in after for who in table["participants"]}
        for table in before:  # the best two of each table, and only they
            assert len(went_on & set(table["participants"])) == 2
    view = await tournament.view()
    assert view["final"] and view["phase"] == "over"
    summary = await table_result(tournament.server(0), final["room"])
    winner = summary["seats"][summary["result"]["places"].index(1)]["name"]
    assert view["podium"][0] == next(e.participant for e in tournament.entrants
                                     if e.name == winner)


async def test_tr_knockout_of_9_plays_down_to_its_final_table_and_its_winner_wins(
    server: ServerProcess,
) -> None:
    await check_knockout_of_9([server])


async def test_tr_join_a_late_joiner_starts_at_nothing_and_plays_from_the_next_round(
    server: ServerProcess,
) -> None:
    tournament = await with_people([server], 5, rounds=3, table_size=3)
    await tournament.send("start")
    await tournament.phase("between")
    late = await tournament.join("Late")
    view = await tournament.view()
    row = next(r for r in view["standings"] if r["participant"] == late.participant)
    assert (row["points"], row["played"]) == (0, 0)
    await tournament.send("next_round")
    state = await tournament.phase("playing")
    assert any(late.participant in t["participants"] for t in state["tables"])
    assert late.socket is not None
    you = await late.socket.wait_for(lambda f: f["type"] == "state"
                                     and f["state"]["you"]["table"] is not None)
    table = you["state"]["you"]["table"]
    assert table["token"] == late.token  # their token holds their seat at the table
    await tournament.phase("between")
    await tournament.send("next_round")
    await tournament.phase("playing")  # round 3 has started: past late_join (half of 3)
    answer = await tournament.http("POST", f"/api/tournaments/{tournament.code}/join",
                                   name="Later")
    assert answer.status_code == 409 and answer.json()["error"]["code"] == "too_late"


async def test_tr_join_a_withdrawn_player_keeps_their_points_and_is_not_seated_again(
    server: ServerProcess,
) -> None:
    tournament = await with_people([server], 6, rounds=2, table_size=3)
    await tournament.send("start")
    await tournament.phase("between")
    leaving = tournament.entrants[0]
    assert leaving.socket is not None
    await leaving.socket.send({"type": "withdraw"})
    await leaving.socket.wait_for(lambda f: f["type"] == "state" and any(
        p["withdrawn"] for p in f["state"]["participants"]))
    before = next(r for r in (await tournament.view())["standings"]
                  if r["participant"] == leaving.participant)
    await tournament.send("next_round")
    state = await tournament.phase("over")
    assert all(leaving.participant not in t["participants"] for t in state["tables"])
    after = next(r for r in state["standings"] if r["participant"] == leaving.participant)
    assert (after["points"], after["played"]) == (before["points"], 1)


async def test_tr_absent_an_absent_player_is_played_as_away_and_withdrawn_after_two_rounds(
    server: ServerProcess,
) -> None:
    tournament = await with_people([server], 5, rounds=3, table_size=3)
    absent = await tournament.join("Gone", connect=False)
    await tournament.send("start")
    state = await tournament.seated()
    room = next(t["room"] for t in state["tables"] if absent.participant in t["participants"])
    await tournament.phase("between")
    summary = await table_result(server, room)
    seat = next(s for s in summary["seats"] if s["name"] == "Gone")
    assert seat["away"]  # played by a bot from the start (TR-ABSENT)
    await tournament.send("next_round")
    state = await tournament.phase("between")
    assert any(absent.participant in t["participants"] for t in state["tables"])
    gone = next(p for p in state["participants"] if p["participant"] == absent.participant)
    assert gone["withdrawn"]  # absent for two rounds in a row
    await tournament.send("next_round")
    state = await tournament.phase("over")
    assert all(absent.participant not in t["participants"] for t in state["tables"])


async def test_a_participant_cannot_run_the_tournament_and_bad_input_changes_nothing(
    server: ServerProcess,
) -> None:
    tournament = await with_people([server], 3, rounds=1, table_size=3)
    player = tournament.entrants[0].socket
    assert player is not None
    await player.send({"type": "start"})
    error = await player.wait_for(lambda f: f["type"] == "error")
    assert error["code"] == "forbidden"
    for bad in ({"type": "start", "extra": 1}, {"type": "remove", "participant": "x" * 99},
                {"type": "teleport"}, {"nothing": True}):
        await player.send(bad)
        error = await player.wait_for(lambda f: f["type"] == "error")
        assert error["code"] == "bad_message"
    watcher = await socket(server, tournament.code)  # no token: may watch, not act
    await watcher.wait_for(lambda f: f["type"] == "state")
    await watcher.send({"type": "withdraw"})
    assert (await watcher.wait_for(lambda f: f["type"] == "error"))["code"] == "forbidden"
    view = await tournament.view()
    assert view["phase"] == "lobby" and not any(p["withdrawn"] for p in view["participants"])
    forged = await socket(server, tournament.code, "forged-token")
    assert (await forged.wait_closed())[0] == 4401
    unknown = await socket(server, "ZZZZZ")
    assert (await unknown.wait_closed())[0] == 4404
    answer = await tournament.http("GET", "/api/tournaments/ZZZZZ")
    assert answer.status_code == 404
    for body in ({"name": "x", "table_size": 2}, {"name": "x", "rounds": 0},
                 {"name": "x", "format": "roulette"}, {"name": "x", "rules": {"nope": 1}}):
        answer = await tournament.http("POST", "/api/tournaments", **body)
        assert answer.status_code in (400, 422), (body, answer.text)


async def test_tr_end_a_tournament_in_a_league_counts_each_tables_match_there_by_its_rules(
    server: ServerProcess,
) -> None:
    async with httpx.AsyncClient(base_url=server.http_url) as http:
        league = (await http.post("/api/leagues", json={
            "name": "Office", "scoring": "lowest_wins", "target": 10})).json()["id"]
        keys = {name: (await http.post("/api/players", json={"name": name})).json()["key"]
                for name in ("Ann", "Bob", "Cid", "Dan")}
    tournament = await open_tournament([server], rounds=2, table_size=4, league=league)
    for name, key in keys.items():
        await tournament.join(name, player_key=key)
    rounds = await tournament.play_out()
    for tables in rounds:
        summary = await table_result(server, tables[0]["room"])
        assert (summary["rules"]["scoring"], summary["rules"]["target"]) == ("lowest_wins", 10)
        assert summary["league"] == str(league)
    async with httpx.AsyncClient(base_url=server.http_url) as http:
        table = (await http.get(f"/api/leagues/{league}")).json()
    assert {row["name"]: row["matches"] for row in table["standings"]} == {
        name: 2 for name in keys}


async def test_tr_tables_a_table_of_several_rounds_deals_each_next_round_itself_with_nobody_hosting(
    server: ServerProcess,
) -> None:
    tournament = await with_people([server], 3, rounds=1, table_size=3, round_limit=3)
    (tables,) = await tournament.play_out()
    summary = await table_result(server, tables[0]["room"])
    assert summary["host"] is None and summary["result"]["rounds"] == 3


async def test_tr_join_thirty_phones_joining_from_the_qr_code_at_once_all_get_in(
    server: ServerProcess,
) -> None:
    tournament = await open_tournament([server], rounds=1)
    answers = await asyncio.gather(*(
        tournament.http("POST", f"/api/tournaments/{tournament.code}/join", name=f"Guest {i}")
        for i in range(30)))
    assert [a.status_code for a in answers] == [200] * 30
    view = await tournament.view()
    assert sorted(p["name"] for p in view["participants"]) == sorted(
        f"Guest {i}" for i in range(30))
    assert len({a.json()["participant"] for a in answers}) == 30


async def test_tr_tables_nobody_at_a_tournament_table_becomes_its_host_and_may_kick_a_tablemate(
    server: ServerProcess,
) -> None:
    tournament = await with_people([server], 3, rounds=1, table_size=3, round_limit=3)
    await tournament.send("start")
    await tournament.seated()
    player = tournament.entrants[0]
    assert player.socket is not None
    you = await player.socket.wait_for(lambda f: f["type"] == "state"
                                       and f["state"]["you"]["table"] is not None)
    table = you["state"]["you"]["table"]
    seat = await connect(server, table["room"], table["token"])
    state = await seat.state()
    await asyncio.sleep(0.5)  # past the host's grace (0.2 s here): a host would be named now
    other = next(s["seat"] for s in state["seats"] if s["seat"] != state["you"]["seat"])
    refused = await seat.cmd("kick", seat=other)
    assert (refused["type"], refused["code"]) == ("error", "forbidden")
    assert (await seat.state())["host"] is None
    await seat.close()
