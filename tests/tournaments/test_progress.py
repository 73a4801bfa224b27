"""A tournament's course as a host and its players notice it: rounds seated, results read,
standings a player can check by hand, late joiners, withdrawals, absentees, the final."""

from __future__ import annotations

import json
import random
from collections import defaultdict
from fractions import Fraction

import pytest

from app.tournaments.progress import BETWEEN, OVER, PLAYING, Course, Settings, TournamentError
from app.tournaments.record import course_from_json, course_to_json, table_outcome


def course(n: int, **settings: object) -> Course:
    c = Course(Settings(**settings), seed="secret")  # type: ignore[arg-type]
    for i in range(n):
        c.join(f"p{i}", f"Player {i}")
    return c


def play_round(c: Course, rnd: random.Random, present: set[str] | None = None) -> None:
    for table in c.start_round():
        c.seated(table.number, f"ROOM{table.number}", present or set(table.people()))
        places = list(range(1, len(table.seats) + 1))
        rnd.shuffle(places)
        c.finish_table(table.number, places, [rnd.randint(-50, 50) for _ in places])


def test_a_swiss_of_13_over_3_rounds_ends_with_standings_computed_by_hand() -> None:
    c = course(13, rounds=3)
    rnd = random.Random(7)
    for _ in range(3):
        assert c.phase in ("lobby", BETWEEN)
        play_round(c, rnd)
        seated = [who for t in c.rounds[-1] for who in t.people()]
        assert sorted(seated) == sorted(f"p{i}" for i in range(13))
        assert [len(t.seats) for t in c.rounds[-1]] == [4, 3, 3, 3]
    assert c.phase == OVER
    # The standings, from the tables alone: n - k points for k-th of n (no ties here).
    points: dict[str, Fraction] = defaultdict(Fraction)
    for r in c.rounds:
        for t in r:
            assert t.result is not None
            for seat in t.result.seats:
                if seat.who:
                    points[seat.who] += len(t.seats) - seat.place
    rows = c.standings()
    assert [r.points for r in rows] == sorted(points.values(), reverse=True)
    assert {r.who: r.points for r in rows} == dict(points)
    assert c.podium() == [r.who for r in rows[:3]]
    with pytest.raises(TournamentError) as info:
        c.start_round()
    assert info.value.code == "wrong_phase"


def test_a_knockout_of_9_reaches_its_final_table() -> None:
    c = course(9, format="knockout", table_size=4)
    rnd = random.Random(3)
    sizes = []
    while c.phase != OVER:
        play_round(c, rnd)
        sizes.append(len(c.rounds[-1][-1].people()) if c.final else sum(
            len(t.people()) for t in c.rounds[-1]))
    assert sizes == [9, 6, 4] and c.final
    final = c.rounds[-1][0]
    assert final.result is not None
    winner = next(s.who for s in final.result.seats if s.place == 1)
    assert c.podium()[0] == winner and len(c.podium()) == 3


def test_a_late_joiner_plays_from_the_next_round_with_no_points() -> None:
    c = course(6, rounds=4)  # may join until 2 rounds have started
    rnd = random.Random(1)
    play_round(c, rnd)
    c.join("late", "Late")
    assert next(r for r in c.standings() if r.who == "late").points == 0
    tables = c.start_round()
    assert any("late" in t.seats for t in tables)
    for t in tables:
        c.seated(t.number, "R", t.people())
        c.finish_table(t.number, list(range(1, len(t.seats) + 1)), [0] * len(t.seats))
    c.start_round()
    with pytest.raises(TournamentError) as info:
        c.join("later", "Later")
    assert info.value.code == "too_late"


def test_a_withdrawn_player_keeps_their_results_and_is_not_seated_again() -> None:
    c = course(7)
    rnd = random.Random(2)
    play_round(c, rnd)
    before = next(r for r in c.standings() if r.who == "p0").points
    c.withdraw("p0")
    tables = c.start_round()
    assert all("p0" not in t.seats for t in tables)
    assert next(r for r in c.standings() if r.who == "p0").points == before
    with pytest.raises(TournamentError):
        c.withdraw("nobody")


def test_absent_two_rounds_in_a_row_is_withdrawn() -> None:
    c = course(6, rounds=4)
    rnd = random.Random(4)
    everyone = {f"p{i}" for i in range(6)}
    play_round(c, rnd, everyone - {"p5"})
    assert c.phase == BETWEEN and not c.person("p5").withdrawn  # played as away, still in
    play_round(c, rnd, everyone - {"p5"})
    assert c.person("p5").withdrawn
    assert all("p5" not in t.seats for t in c.start_round())
    assert c.phase == PLAYING


def test_a_short_field_is_topped_up_with_bots_who_score_nothing() -> None:
    c = course(2)
    tables = c.start_round()
    assert sorted(tables[0].people()) == ["p0", "p1"] and tables[0].seats[2] is None
    c.seated(1, "R", ["p0", "p1"])
    c.finish_table(1, [1 if s is None else 2 if s == "p0" else 3 for s in tables[0].seats],
                   [0, 0, 0])
    assert {r.who: r.points for r in c.standings()} == {"p0": 1, "p1": 0}


def test_a_course_taken_over_from_its_record_goes_on_exactly_where_it_was() -> None:
    c = course(9, rounds=3)
    rnd = random.Random(5)
    play_round(c, rnd)
    tables = c.start_round()
    c.seated(1, "ABCD", tables[0].people())
    c.finish_table(1, list(range(1, len(tables[0].seats) + 1)), [5] * len(tables[0].seats))
    record = json.loads(json.dumps(course_to_json(c)))  # as the store keeps it
    again = course_from_json(record)
    assert again == c
    assert [r.who for r in again.standings()] == [r.who for r in c.standings()]
    for t in tables[1:]:
        again.finish_table(t.number, list(range(1, len(t.seats) + 1)), [0] * len(t.seats))
    assert again.phase == BETWEEN
    with pytest.raises(ValueError):
        course_from_json({**record, "version": 99})


def test_a_tables_match_over_gives_places_and_card_points() -> None:
    over = {"places": [2, 1, 3], "scores": [40, 10, 90], "round_wins": [1, 2, 0]}
    assert table_outcome("lowest_wins", over) == ([2, 1, 3], [-40, -10, -90])
    assert table_outcome("winner_takes", over) == ([2, 1, 3], [40, 10, 90])
    assert table_outcome("lazy", over) == ([2, 1, 3], [1, 2, 0])
