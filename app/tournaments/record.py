"""A tournament's course to and from the JSON its store record holds, and a table's match_over
read as the places and card points the standings need. The record is what a worker taking a
tournament over reads, so everything the course knows goes in it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict
from typing import Any

from app.tournaments.progress import Course, Participant, Settings, Table
from app.tournaments.standings import Seat, TableResult

RECORD_VERSION = 1


def course_to_json(course: Course) -> dict[str, Any]:
    return {
        "version": RECORD_VERSION,
        "settings": asdict(course.settings),
        "seed": course.seed,
        "phase": course.phase,
        "final": course.final,
        "started_ms": course.started_ms,
        "participants": [asdict(p) for p in course.participants],
        "rounds": [[_table_to_json(t) for t in r] for r in course.rounds],
    }


def _table_to_json(table: Table) -> dict[str, Any]:
    result = None if table.result is None else [
        [seat.place, seat.card_net] for seat in table.result.seats]
    return {"number": table.number, "seats": table.seats, "room": table.room, "result": result}


def course_from_json(data: Mapping[str, Any]) -> Course:
    if data.get("version") != RECORD_VERSION:
        raise ValueError(f"tournament record version {data.get('version')!r} is unknown")
    rounds: list[list[Table]] = []
    for round_no, tables in enumerate(data["rounds"], start=1):
        rounds.append([_table_from_json(round_no, t) for t in tables])
    return Course(Settings(**data["settings"]), str(data["seed"]), str(data["phase"]),
                  [Participant(**p) for p in data["participants"]], rounds, bool(data["final"]),
                  [int(ms) for ms in data.get("started_ms", [])])


def _table_from_json(round_no: int, data: Mapping[str, Any]) -> Table:
    seats: list[str | None] = list(data["seats"])
    result = None
    if data["result"] is not None:
        result = TableResult(round_no, tuple(
            Seat(who, int(place), int(net))
            for who, (place, net) in zip(seats, data["result"], strict=True)))
    return Table(int(data["number"]), seats, str(data["room"]), result)


def table_outcome(scoring: str, match_over: Mapping[str, Any]) -> tuple[list[int], list[int]]:
    """The places and card points (won minus lost) of each seat from a ``match_over`` result:
    P-500 totals are points won; P-200 totals are points held, so lost; H-LAZY counts rounds
    won (no card points, so the round wins stand in)."""
    places: Sequence[int] = match_over["places"]
    if scoring == "lazy":
        net = list(match_over["round_wins"])
    elif scoring == "lowest_wins":
        net = [-s for s in match_over["scores"]]
    else:
        net = list(match_over["scores"])
    return [int(p) for p in places], [int(n) for n in net]
