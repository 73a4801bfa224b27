"""Inserts and updates behind ``HistoryStore``: a match row with its seats, and the tagging
of room log lines that makes them a match's event log. Synchronous: each runs inside one
transaction that the store hands to its writer (``HistoryStore``)."""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import BigInteger, Connection, DateTime, Integer, bindparam, insert, select, update

from .driver_sql import DriverStatement
from .errors import InvalidRequest, NotFound
from .leagues import league_info
from .models import RUNNING, JsonType, Match, MatchSeat, RoomLogLine, utcnow
from .sql import open_room_id

MAX_NAME = 40


@dataclass(frozen=True, slots=True)
class MatchPlayer:
    """Who sits at a seat when the match starts: a profile (``player_id``) is optional."""

    name: str
    player_id: int | None = None
    bot: bool = False


# Built once, executed with parameters: building them per call (ORM-enabled inserts with their
# values inline) cost about 0.6 ms of the SQLite writer's thread per match, a twentieth of a
# worker's CPU at 1,500 rooms (bench.stages).
_INSERT_MATCH = DriverStatement(
    insert(Match.__table__)  # type: ignore[arg-type]
    .values(
        room_id=open_room_id(bindparam("p_code")),
        league_id=bindparam("p_league", type_=Integer),
        seed=bindparam("p_seed", type_=BigInteger),
        rules=bindparam("p_rules", type_=JsonType),
        deal=bindparam("p_deal", type_=JsonType),
        seats=bindparam("p_seats", type_=Integer),
        status=RUNNING,
        first_seq=bindparam("p_first", type_=BigInteger),
        started_at=bindparam("p_now", type_=DateTime(timezone=True)),
    )
    .returning(Match.__table__.c.id, Match.__table__.c.room_id)
)
_INSERT_SEATS = DriverStatement(
    insert(MatchSeat.__table__),  # type: ignore[arg-type]
    ("match_id", "seat", "player_id", "name", "bot", "left_after_round"))
_LOG = RoomLogLine.__table__.c


def _tag_statement(upto: bool) -> Any:
    within = [_LOG.seq >= bindparam("p_first", type_=BigInteger)]
    if upto:
        within.append(_LOG.seq <= bindparam("p_last", type_=BigInteger))
    return (
        update(RoomLogLine.__table__)  # type: ignore[arg-type]
        .where(_LOG.room_id == bindparam("p_room", type_=Integer), _LOG.match_id.is_(None),
               *within)
        .values(match_id=bindparam("p_match", type_=Integer))
    )


_TAG_FROM = DriverStatement(_tag_statement(False))
_TAG_BETWEEN = DriverStatement(_tag_statement(True))


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
    [(match_id, room_id)] = _INSERT_MATCH.execute(conn, {
        "p_code": room_code, "p_league": league_id, "p_seed": seed, "p_rules": dict(rules),
        "p_deal": None if deal is None else dict(deal), "p_seats": len(seats),
        "p_first": first_seq, "p_now": utcnow(),
    })
    _INSERT_SEATS.executemany(
        conn,
        [
            {
                "match_id": match_id,
                "seat": n,
                "player_id": s.player_id,
                "name": s.name.strip()[:MAX_NAME] or f"Seat {n + 1}",
                "bot": s.bot,
                "left_after_round": None,
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


_MATCH = Match.__table__.c
_MATCH_ROW = select(_MATCH.status, _MATCH.room_id, _MATCH.league_id, _MATCH.first_seq).where(
    _MATCH.id == bindparam("p_match", type_=Integer))


def match_row(conn: Connection, match_id: int) -> Any:
    row = conn.execute(_MATCH_ROW, {"p_match": match_id}).one_or_none()
    if row is None:
        raise NotFound(f"no match {match_id}")
    return row


def update_match(conn: Connection, match_id: int, **values: Any) -> None:
    """Set ``values`` on the match row (the statement is cached by the names set)."""
    conn.execute(_match_update(tuple(sorted(values))),
                 {"p_match": match_id, **{f"p_{name}": value for name, value in values.items()}})


@functools.cache
def _match_update(names: tuple[str, ...]) -> Any:
    return (
        update(Match.__table__)  # type: ignore[arg-type]
        .where(_MATCH.id == bindparam("p_match", type_=Integer))
        .values({name: bindparam(f"p_{name}", type_=_MATCH[name].type) for name in names})
    )


def tag_log(
    conn: Connection, room_id: int, match_id: int, first: int, last: int | None
) -> None:
    """Mark the room's log lines from ``first`` to ``last`` as this match's event log."""
    params = {"p_room": room_id, "p_match": match_id, "p_first": first}
    if last is None:
        _TAG_FROM.execute(conn, params)
    else:
        _TAG_BETWEEN.execute(conn, {**params, "p_last": last})
