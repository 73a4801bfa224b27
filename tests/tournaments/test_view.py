"""What a tournament's sockets are told between two versions of its course: a round started,
a table finished, the standings, the end; and the view's numbers as a phone shows them."""

from __future__ import annotations

import copy

from app.tournaments.progress import Course, Settings
from app.tournaments.view import changes, table_of, tournament_view


def course_of(people: int, rounds: int = 1) -> Course:
    course = Course(Settings(table_size=3, rounds=rounds), seed="s")
    for i in range(people):
        course.join(f"p{i}", f"P{i}")
    return course


def test_a_round_seated_then_each_table_finishing_then_the_end_are_told_in_order() -> None:
    course = course_of(6)
    lobby = copy.deepcopy(course)
    tables = course.start_round(now_ms=5)
    assert changes(lobby, course) == [{"kind": "round_started", "round": 1}]
    for table in tables:
        table.room = f"R{table.number}"
    seated = copy.deepcopy(course)
    course.finish_table(1, [1, 2, 3], [30, 0, -30])
    told = changes(seated, course)
    assert [e["kind"] for e in told] == ["table_finished", "standings"]
    assert told[0] == {"kind": "table_finished", "round": 1, "number": 1, "room": "R1"}
    first = copy.deepcopy(course)
    course.finish_table(2, [2, 1, 1], [0, 5, 5])  # a tie for first: 1.5 points each
    told = changes(first, course)
    assert [e["kind"] for e in told] == ["table_finished", "standings", "tournament_over"]
    assert told[-1]["podium"] == course.podium()
    assert changes(course, copy.deepcopy(course)) == []  # nothing changed: nothing told

    view = tournament_view("QWERT", "Party", course)
    assert view["phase"] == "over" and view["round"] == 1 and view["round_started_ms"] == 5
    points = {row["participant"]: row["points"] for row in view["standings"]}
    tied = [who for who in tables[1].seats if who is not None][1:]
    assert all(points[who] == 1.5 for who in tied)
    assert [t["phase"] for t in view["tables"]] == ["over", "over"]
    assert view["tables"][0]["leader"] == tables[0].seats[0]


def test_a_participant_is_told_their_table_only_while_it_plays() -> None:
    course = course_of(3)
    (table,) = course.start_round()
    who = table.seats[0]
    assert table_of(course, who) is None  # not opened yet
    table.room = "BCDF"
    assert table_of(course, who) is table and table_of(course, "nobody") is None
    course.finish_table(1, [1, 2, 3], [0, 0, 0])
    assert table_of(course, who) is None
