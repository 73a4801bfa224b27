"""``HistoryStore``: what the room layer records about players, matches and leagues.

    history = HistoryStore(engine)                       # engine: app.store.db.create_engine
    player = await history.create_player("Ann")          # POST /api/players; keep player.key
    profile = await history.player_by_key(key)           # create/join with "player_key"
    match_id = await history.start_match("ABCD", seed=7, rules=rules.to_dict(),
                                         seats=[MatchPlayer("Ann", profile.id), ...],
                                         first_seq=record.seq, league_id=None)
    await history.record_round(match_id, round_over)     # each ROUND_OVER event's public part
    await history.leave_match(match_id, seat)            # a profile left; its seat plays on
    await history.finish_match(match_id, match_over, last_seq)   # MATCH_OVER's public part
    await history.abandon_match(match_id)                # the room closed before the end

The room must exist in ``SqlRoomStore`` (same database). A match's event log is the room log
from ``first_seq`` (the record holding the start) to ``last_seq`` (the one holding MATCH_OVER),
whichever order ``append`` and these calls happen in. Reads live in ``app.store.queries``.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any, Protocol, TypeVar

from sqlalchemy import Connection, Integer, bindparam, func, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine

from . import queries
from .db import in_transaction
from .errors import InvalidRequest, UnknownRoom
from .leagues import LeagueInfo, add_league_results, create_league, league_info
from .models import (
    ABANDONED,
    FINISHED,
    RUNNING,
    MatchSeat,
    Player,
    Round,
    RoundHand,
    utcnow,
)
from .queries import HistoryReads
from .recording import (
    MAX_NAME,
    MatchPlayer,
    insert_match,
    match_row,
    match_status,
    tag_log,
    update_match,
)

__all__ = ["HistoryStore", "MatchPlayer", "NewPlayer", "Profile", "Writer"]

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class NewPlayer:
    id: int
    name: str
    key: str  # shown once, to the browser that created the profile; only its hash is kept


@dataclass(frozen=True, slots=True)
class Profile:
    id: int
    name: str


def hash_key(key: str) -> str:
    # Keys are 256 random bits: a plain digest cannot be brute-forced, and lookups stay indexed.
    return hashlib.sha256(key.encode()).hexdigest()


def clean_name(name: object) -> str:
    if not isinstance(name, str) or not 1 <= len(name.strip()) <= MAX_NAME:
        raise InvalidRequest(f"a name must be text of 1 to {MAX_NAME} characters")
    return name.strip()


def _public(event: Mapping[str, Any]) -> Mapping[str, Any]:
    """The event's public part, given that part, its ``to_dict()`` or its ``for_viewer()``."""
    inner = event.get("public")
    if isinstance(inner, Mapping) and "kind" in event:
        return inner
    return {k: v for k, v in event.items() if k not in ("kind", "seq")}


class Writer(Protocol):
    """Runs ``work`` in one write transaction of its own and returns its result."""

    def __call__(self, work: Callable[[Connection], T], /) -> Awaitable[T]: ...


class HistoryStore(HistoryReads):
    """Match history, profiles and leagues on SQL; every method is one short transaction.

    Every write is a function of a synchronous connection, run by ``write``: given the room
    store's (``SqlRoomStore.in_writer``), a SQLite file's history goes to its writer with
    the room log's next batch (through aiosqlite a round's result took
    several crossings, each waiting for a turn of a busy event loop, while the room log's writer
    waited for the one pooled connection); by default, a transaction on ``engine``."""

    def __init__(self, engine: AsyncEngine, write: Writer | None = None) -> None:
        self._engine = engine
        self._write: Writer = write or partial(in_transaction, engine)

    @property
    def engine(self) -> AsyncEngine:
        return self._engine

    async def create_player(self, name: str) -> NewPlayer:
        name = clean_name(name)
        key = secrets.token_urlsafe(32)

        def write(conn: Connection) -> int:
            return int(conn.execute(
                insert(Player)
                .values(name=name, key_hash=hash_key(key), created_at=utcnow())
                .returning(Player.id)
            ).scalar_one())

        return NewPlayer(await self._write(write), name, key)

    async def player_by_key(self, key: str) -> Profile | None:
        async with self._engine.begin() as conn:
            row = (
                await conn.execute(
                    select(Player.id, Player.name).where(Player.key_hash == hash_key(key))
                )
            ).one_or_none()
        return None if row is None else Profile(row.id, row.name)

    async def create_league(self, name: str, scoring: str, target: int | None = None) -> int:
        name = clean_name(name)
        return await self._write(lambda conn: create_league(conn, name, scoring, target))

    async def league(self, league_id: int) -> LeagueInfo | None:
        """Name, scoring and target: a room created with ``"league": id`` plays by these."""
        async with self._engine.begin() as conn:
            return await conn.run_sync(league_info, league_id)

    async def start_match(
        self,
        room_code: str,
        *,
        seed: int,
        rules: Mapping[str, Any],
        seats: Sequence[MatchPlayer],
        first_seq: int,
        league_id: int | None = None,
        deal: Mapping[str, Any] | None = None,
    ) -> int:
        """Record a match that has just started in room ``room_code``; its id."""
        profiles = [s.player_id for s in seats if s.player_id is not None]
        if len(set(profiles)) != len(profiles):
            raise InvalidRequest("a profile can hold only one seat of a match")
        try:
            return await self._write(lambda conn: insert_match(
                conn, room_code, seed, rules, seats, first_seq, league_id, deal))
        except IntegrityError as exc:  # room_id NULL: no open room with that code
            raise UnknownRoom(f"no open room {room_code}") from exc

    async def record_round(self, match_id: int, round_over: Mapping[str, Any]) -> None:
        """Store a ROUND_OVER: every hand, points, totals, places (H-LAST). Idempotent."""
        event = _public(round_over)
        await self._write(lambda conn: _insert_round(conn, match_id, event))

    async def leave_match(self, match_id: int, seat: int) -> None:
        """The profile at ``seat`` left mid-match: the seat plays on (a bot), the rounds from
        now on are not theirs, and the match counts as lost for them."""
        await self._write(lambda conn: _mark_left(conn, match_id, seat))

    async def finish_match(
        self, match_id: int, match_over: Mapping[str, Any], last_seq: int
    ) -> None:
        """Store MATCH_OVER (winners, places, scores) and count it in its league. Idempotent."""
        result = dict(_public(match_over))
        await self._write(lambda conn: _finish(conn, match_id, result, last_seq))

    async def abandon_match(self, match_id: int, last_seq: int | None = None) -> None:
        """The match ended before its end: kept, shown as abandoned, counted nowhere."""
        await self._write(lambda conn: _abandon(conn, match_id, last_seq))


_ROUND_EXISTS = select(Round.__table__.c.round_no).where(
    Round.__table__.c.match_id == bindparam("p_match", type_=Integer),
    Round.__table__.c.round_no == bindparam("p_round", type_=Integer))
_INSERT_ROUND = insert(Round.__table__)  # type: ignore[arg-type]
_INSERT_HANDS = insert(RoundHand.__table__)  # type: ignore[arg-type]


def _insert_round(conn: Connection, match_id: int, event: Mapping[str, Any]) -> None:
    round_no = int(event["round"])
    places = event.get("places")
    status = match_status(conn, match_id)
    if status != RUNNING:
        raise InvalidRequest(f"match {match_id} is {status}: no more rounds")
    exists = conn.execute(_ROUND_EXISTS, {"p_match": match_id, "p_round": round_no})
    if exists.first() is not None:
        return  # recorded already (a retry after a failover)
    conn.execute(_INSERT_ROUND, {"match_id": match_id, "round_no": round_no,
                                 "winner": int(event["winner"]), "ended_at": utcnow()})
    conn.execute(
        _INSERT_HANDS,
        [
            {
                "match_id": match_id,
                "round_no": round_no,
                "seat": seat,
                "cards": list(cards),
                "hand_points": int(event["hand_points"][seat]),
                "points": int(event["points"][seat]),
                "total": int(event["scores"][seat]),
                "place": None if places is None else places[seat],
            }
            for seat, cards in enumerate(event["hands"])
        ],
    )


def _mark_left(conn: Connection, match_id: int, seat: int) -> None:
    if match_status(conn, match_id) != RUNNING:
        return
    rounds_done = (
        select(func.count()).select_from(Round).where(Round.match_id == match_id)
    ).scalar_subquery()
    conn.execute(
        update(MatchSeat)
        .where(
            MatchSeat.match_id == match_id,
            MatchSeat.seat == seat,
            MatchSeat.left_after_round.is_(None),
        )
        .values(left_after_round=rounds_done)
    )


def _finish(conn: Connection, match_id: int, result: dict[str, Any], last_seq: int) -> None:
    match = match_row(conn, match_id)
    if match.status == FINISHED:
        return
    if match.status != RUNNING:
        raise InvalidRequest(f"match {match_id} was {match.status}")
    update_match(conn, match_id, status=FINISHED, winners=list(result["winners"]),
                 result=result, last_seq=last_seq, ended_at=utcnow())
    tag_log(conn, match.room_id, match_id, match.first_seq, last_seq)
    if match.league_id is not None:
        add_league_results(conn, match.league_id, match_id, result)


def _abandon(conn: Connection, match_id: int, last_seq: int | None) -> None:
    match = match_row(conn, match_id)
    if match.status != RUNNING:
        return
    if last_seq is None:
        last_seq = (queries.last_logged_seq(conn, match.room_id, match.first_seq, match_id)
                    or match.first_seq)
    update_match(conn, match_id, status=ABANDONED, last_seq=last_seq, ended_at=utcnow())
    tag_log(conn, match.room_id, match_id, match.first_seq, last_seq)
