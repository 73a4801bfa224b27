"""Tournaments' rows: created once, their course record rewritten by the owner after each
change, fenced by the owner's lease generation as a room's writes are (a worker that lost the
tournament cannot overwrite what its successor wrote). Synchronous functions of a connection,
run as the leagues' are (``conn.run_sync`` or the store's writer)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, insert, select, update

from .models import Tournament, utcnow


@dataclass(frozen=True, slots=True)
class TournamentRow:
    code: str
    name: str
    public: bool
    league_id: int | None
    host_token_hash: str
    rules: dict[str, Any]
    record: dict[str, Any]
    generation: int
    finished: bool


def create_tournament(conn: Connection, code: str, name: str, *, public: bool,
                      league_id: int | None, host_token_hash: str, rules: dict[str, Any],
                      record: dict[str, Any]) -> None:
    conn.execute(insert(Tournament).values(
        code=code, name=name, public=public, league_id=league_id,
        host_token_hash=host_token_hash, rules=rules, record=record, created_at=utcnow()))


def load_tournament(conn: Connection, code: str) -> TournamentRow | None:
    row = conn.execute(select(
        Tournament.code, Tournament.name, Tournament.public, Tournament.league_id,
        Tournament.host_token_hash, Tournament.rules, Tournament.record,
        Tournament.generation, Tournament.finished_at,
    ).where(Tournament.code == code)).one_or_none()
    if row is None:
        return None
    return TournamentRow(
        code=row.code, name=row.name, public=bool(row.public), league_id=row.league_id,
        host_token_hash=row.host_token_hash, rules=row.rules, record=row.record,
        generation=int(row.generation), finished=row.finished_at is not None)


def save_record(conn: Connection, code: str, record: dict[str, Any], generation: int, *,
                finished: bool = False) -> bool:
    """Write the course if no later owner has written it; False when fenced off."""
    values: dict[str, Any] = {"record": record, "generation": generation}
    if finished:
        values["finished_at"] = utcnow()
    result = conn.execute(update(Tournament).where(
        Tournament.code == code, Tournament.generation <= generation).values(**values))
    return bool(result.rowcount)


def public_tournaments(conn: Connection, limit: int = 50) -> list[tuple[str, str]]:
    """Code and name of the public tournaments not over, newest first."""
    rows = conn.execute(select(Tournament.code, Tournament.name).where(
        Tournament.public.is_(True), Tournament.finished_at.is_(None)
    ).order_by(Tournament.id.desc()).limit(limit))
    return [(str(code), str(name)) for code, name in rows]
