"""Inserts and updates behind ``HistoryStore``: a match row with its seats, and the tagging
of room log lines that makes them a match's event log. Synchronous: each runs inside one
transaction that the store hands to its writer (``HistoryStore``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, and_, insert, select, update

from .errors import InvalidRequest, NotFound
from .leagues import league_info
from .models import RUNNING, Match, MatchSeat, RoomLogLine, utcnow
from .sql import open_room_id

MAX_NAME = 40


@dataclass(frozen=True, slots=True)
class MatchPlayer:
    """Who sits at a seat when the match starts: a profile (``player_id``) is optional."""

    name: str
    player_id: int | None = None
    bot: bool = False


def insert_match(
    conn: Connection,
    room_code: str,
    seed: int,
    rules: Mapping[str, Any],
    seats: Sequence[MatchPlayer],
    first_seq: int,
    league_id: int | None,
    deal: Mapping[str, Any] | None,
) -> int:
    if league_id is not None:
        league = league_info(conn, league_id)
        if league is None:
            raise NotFound(f"no league {league_id}")
        if rules.get("scoring") != league.scoring:
            raise InvalidRequest(
                f"league {league.name!r} plays {league.scoring}, not {rules.get('scoring')}"
            )
    result = conn.execute(
        insert(Match)
        .values(
            room_id=open_room_id(room_code),
            league_id=league_id,
            seed=seed,
            rules=dict(rules),
            deal=None if deal is None else dict(deal),
            seats=len(seats),
            status=RUNNING,
            first_seq=first_seq,
            started_at=utcnow(),
        )
        .returning(Match.id, Match.room_id)
    )
    match_id, room_id = result.one()
    conn.execute(
        insert(MatchSeat),
        [
            {
                "match_id": match_id,
                "seat": n,
                "player_id": s.player_id,
                "name": s.name.strip()[:MAX_NAME] or f"Seat {n + 1}",
                "bot": s.bot,
            }
            for n, s in enumerate(seats)
        ],
    )
    # The start record may have been appended before this call.
    tag_log(conn, room_id, match_id, first_seq, None)
    return int(match_id)


def match_status(conn: Connection, match_id: int) -> str:
    status: str = match_row(conn, match_id).status
    return status


def match_row(conn: Connection, match_id: int) -> Any:
    row = (
        conn.execute(
            select(Match.status, Match.room_id, Match.league_id, Match.first_seq).where(
                Match.id == match_id
            )
        )
    ).one_or_none()
    if row is None:
        raise NotFound(f"no match {match_id}")
    return row


def tag_log(
    conn: Connection, room_id: int, match_id: int, first: int, last: int | None
) -> None:
    """Mark the room's log lines from ``first`` to ``last`` as this match's event log."""
    within = RoomLogLine.seq >= first if last is None else RoomLogLine.seq.between(first, last)
    conn.execute(
        update(RoomLogLine)
        .where(and_(RoomLogLine.room_id == room_id, RoomLogLine.match_id.is_(None), within))
        .values(match_id=match_id)
    )
