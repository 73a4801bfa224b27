"""What a tournament shows (PROTOCOL.md "Tournaments"): its public view, and the events that
tell a socket what changed between two versions of its course. Pure."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from app.tournaments.progress import OVER, Course, Table
from app.tournaments.standings import Standing, table_points


def _number(value: Fraction) -> int | float:
    return int(value) if value.denominator == 1 else round(float(value), 2)


def standings_view(course: Course) -> list[dict[str, Any]]:
    names = {p.id: p.name for p in course.participants}
    return [_standing(place, row, names) for place, row in enumerate(course.standings(), 1)]


def _standing(place: int, row: Standing, names: dict[str, str]) -> dict[str, Any]:
    return {"place": place, "participant": row.who, "name": names.get(row.who, ""),
            "points": _number(row.points), "buchholz": _number(row.buchholz),
            "card_points": row.card_net, "played": row.tables}


def table_phase(table: Table) -> str:
    if table.result is not None:
        return "over"
    return "playing" if table.room else "seating"


def _leader(table: Table) -> str | None:
    """A finished table's winner (its first person by place); None while it plays."""
    if table.result is None:
        return None
    people = [seat for seat in table.result.seats if seat.who is not None]
    people.sort(key=lambda seat: seat.place)
    return people[0].who if people else None


def table_view(table: Table) -> dict[str, Any]:
    points = None if table.result is None else [
        _number(p) for p in table_points(table.result.seats)]
    return {"number": table.number, "room": table.room or None,
            "participants": table.people(), "bots": table.seats.count(None),
            "phase": table_phase(table), "leader": _leader(table), "points": points}


def tournament_view(code: str, name: str, course: Course) -> dict[str, Any]:
    settings = course.settings
    current = course.rounds[-1] if course.rounds else []
    return {
        "code": code,
        "name": name,
        "format": settings.format,
        "phase": course.phase,
        "round": len(course.rounds),
        "rounds": settings.rounds,
        "table_size": settings.table_size,
        "round_started_ms": course.started_ms[-1] if course.started_ms else None,
        "final": course.final,
        "participants": [{"participant": p.id, "name": p.name, "withdrawn": p.withdrawn}
                         for p in course.participants],
        "standings": standings_view(course),
        "tables": [table_view(t) for t in current],
        "podium": course.podium() if course.phase == OVER else [],
    }


def table_of(course: Course, participant: str | None) -> Table | None:
    """The table of this round ``participant`` sits at, while it plays."""
    if participant is None or not course.rounds:
        return None
    for table in course.rounds[-1]:
        if participant in table.seats and table.room and table.result is None:
            return table
    return None


def changes(before: Course | None, after: Course) -> list[dict[str, Any]]:
    """The events between two versions of a course, oldest first."""
    events: list[dict[str, Any]] = []
    old_rounds = before.rounds if before is not None else []
    for round_no in range(len(old_rounds) + 1, len(after.rounds) + 1):
        events.append({"kind": "round_started", "round": round_no})
    for round_no, tables in enumerate(after.rounds, 1):
        old = old_rounds[round_no - 1] if round_no <= len(old_rounds) else []
        for table in tables:
            was = old[table.number - 1] if table.number <= len(old) else None
            if table.result is not None and (was is None or was.result is None):
                events.append({"kind": "table_finished", "round": round_no,
                               "number": table.number, "room": table.room})
    if (before is None or before.results() != after.results()) and after.results():
        events.append({"kind": "standings", "standings": standings_view(after)})
    if after.phase == OVER and (before is None or before.phase != OVER):
        events.append({"kind": "tournament_over", "podium": after.podium()})
    return events
