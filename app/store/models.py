"""The schema: SQLAlchemy 2 tables for rooms in play and for match history and leagues.

No relationships are declared on purpose: every query names its joins, so nothing can lazy-load
under asyncio (a lazy load there raises). The migrations in ``migrations/versions`` create exactly
these tables; a test compares the two.

    players        guest profiles: a display name and the hash of the key the browser keeps
    rooms          one row per room ever opened; ``closed_at`` set when it is finished;
                   ``generation`` fences writes by the room's owner (lease generation)
    room_snapshots the latest engine snapshot of an open room (recovery); removed on close
    room_log       every accepted command of a room with its events; lines that belong to a
                   match (``match_id``) are its event log and stay, the rest go on close
    matches        seed, rules, rigged deal, status (running/finished/abandoned), winners
    match_seats    who sat where: name, optional profile, bot, left mid-match
    rounds         each round's winner; ``round_hands`` every hand at its end, points, places
    leagues        name, scoring (winner_takes | lowest_wins), target; ``league_members``
    league_results one line per profile per finished league match, the source of standings
    tournaments    one row per tournament (TR-*): its settings, the course (participants,
                   rounds, tables and results) as one JSON record its owner rewrites, a fencing
                   ``generation`` like a room's, a ``revision`` every write checks
                   (compare-and-set), an optional league
    tournament_presence  when each participant's socket was last seen, by any worker
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, ClassVar

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    CheckConstraint,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    text,
)
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

# Postgres stores JSON as jsonb (compact, comparable); SQLite as text.
JsonType = JSON().with_variant(JSONB(), "postgresql")

NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

RUNNING = "running"
FINISHED = "finished"
ABANDONED = "abandoned"
SCORINGS = ("winner_takes", "lowest_wins")


def utcnow() -> datetime:
    return datetime.now(UTC)


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING)
    type_annotation_map: ClassVar[dict[Any, Any]] = {dict[str, Any]: JsonType, list[Any]: JsonType}


def _now_column() -> Mapped[datetime]:
    return mapped_column(DateTime(timezone=True), default=utcnow)


class Player(Base):
    __tablename__ = "players"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(40))
    key_hash: Mapped[str] = mapped_column(String(64), unique=True)  # sha256 hex of the key
    created_at: Mapped[datetime] = _now_column()


class League(Base):
    __tablename__ = "leagues"
    __table_args__ = (
        CheckConstraint("scoring IN ('winner_takes', 'lowest_wins')", name="scoring"),
        CheckConstraint("target > 0", name="target"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(60))
    scoring: Mapped[str] = mapped_column(String(20))
    target: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[datetime] = _now_column()


class LeagueMember(Base):
    __tablename__ = "league_members"

    league_id: Mapped[int] = mapped_column(
        ForeignKey("leagues.id", ondelete="CASCADE"), primary_key=True
    )
    player_id: Mapped[int] = mapped_column(
        ForeignKey("players.id", ondelete="CASCADE"), primary_key=True, index=True
    )
    joined_at: Mapped[datetime] = _now_column()


class Room(Base):
    __tablename__ = "rooms"
    __table_args__ = (
        # Codes are short and get reused: unique only among open rooms.
        Index(
            "uq_rooms_open_code",
            "code",
            unique=True,
            postgresql_where=text("closed_at IS NULL"),
            sqlite_where=text("closed_at IS NULL"),
        ),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    code: Mapped[str] = mapped_column(String(16))
    meta: Mapped[dict[str, Any]]
    created_at: Mapped[datetime] = _now_column()
    closed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    # Fencing token: the lease generation of the worker that last took the room over. A write
    # goes in only while the row's generation is <= the writer's (``SqlRoomStore.take_over``).
    generation: Mapped[int] = mapped_column(BigInteger, default=0, server_default=text("0"))
    # Unloaded for idleness: the takeover sweep leaves it alone until someone asks for it.
    parked: Mapped[bool] = mapped_column(Boolean, default=False, server_default=text("false"))


class Tournament(Base):
    __tablename__ = "tournaments"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    code: Mapped[str] = mapped_column(String(16), unique=True)
    name: Mapped[str] = mapped_column(String(60))
    public: Mapped[bool] = mapped_column(Boolean, default=False, server_default=text("false"))
    league_id: Mapped[int | None] = mapped_column(
        ForeignKey("leagues.id", ondelete="SET NULL"), index=True
    )
    host_token_hash: Mapped[str] = mapped_column(String(64))
    rules: Mapped[dict[str, Any]]
    record: Mapped[dict[str, Any]]  # app.tournaments.record: the course, versioned
    created_at: Mapped[datetime] = _now_column()
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    generation: Mapped[int] = mapped_column(BigInteger, default=0, server_default=text("0"))
    revision: Mapped[int] = mapped_column(BigInteger, default=0, server_default=text("0"))


class TournamentPresence(Base):
    __tablename__ = "tournament_presence"

    tournament: Mapped[str] = mapped_column(String(16), primary_key=True)
    participant: Mapped[str] = mapped_column(String(32), primary_key=True)
    seen_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class RoomSnapshot(Base):
    __tablename__ = "room_snapshots"

    room_id: Mapped[int] = mapped_column(
        ForeignKey("rooms.id", ondelete="CASCADE"), primary_key=True
    )
    seq: Mapped[int] = mapped_column(BigInteger)
    data: Mapped[dict[str, Any]]


class Match(Base):
    __tablename__ = "matches"
    __table_args__ = (
        CheckConstraint("status IN ('running', 'finished', 'abandoned')", name="status"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id"), index=True)
    league_id: Mapped[int | None] = mapped_column(ForeignKey("leagues.id"), index=True)
    seed: Mapped[int] = mapped_column(BigInteger)
    rules: Mapped[dict[str, Any]]
    deal: Mapped[dict[str, Any] | None] = mapped_column(JsonType)  # a rigged first deal (tests)
    seats: Mapped[int] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(12), default=RUNNING)
    first_seq: Mapped[int] = mapped_column(BigInteger)  # the room seq of its start record
    last_seq: Mapped[int | None] = mapped_column(BigInteger)  # set when it ends
    winners: Mapped[list[Any] | None] = mapped_column(JsonType)  # seats
    result: Mapped[dict[str, Any] | None] = mapped_column(JsonType)  # MATCH_OVER's public part
    started_at: Mapped[datetime] = _now_column()
    ended_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class MatchSeat(Base):
    __tablename__ = "match_seats"

    match_id: Mapped[int] = mapped_column(
        ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"), index=True)
    name: Mapped[str] = mapped_column(String(40))
    bot: Mapped[bool] = mapped_column(Boolean, default=False)
    left_after_round: Mapped[int | None] = mapped_column(Integer)  # rounds done when they left


class RoomLogLine(Base):
    __tablename__ = "room_log"

    room_id: Mapped[int] = mapped_column(
        ForeignKey("rooms.id", ondelete="CASCADE"), primary_key=True
    )
    seq: Mapped[int] = mapped_column(BigInteger, primary_key=True)
    seat: Mapped[int | None] = mapped_column(Integer)
    command: Mapped[dict[str, Any]]
    now_ms: Mapped[int] = mapped_column(BigInteger)
    events: Mapped[list[Any]]
    # No index of its own (each append paid for one): a match's lines are its room's from
    # its first seq on (``queries.match_lines``).
    match_id: Mapped[int | None] = mapped_column(ForeignKey("matches.id", ondelete="SET NULL"))


class Round(Base):
    __tablename__ = "rounds"

    match_id: Mapped[int] = mapped_column(
        ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True
    )
    round_no: Mapped[int] = mapped_column(Integer, primary_key=True)
    winner: Mapped[int] = mapped_column(Integer)  # the seat that went out first
    ended_at: Mapped[datetime] = _now_column()


class RoundHand(Base):
    __tablename__ = "round_hands"
    __table_args__ = (Index("ix_round_hands_round", "match_id", "round_no"),)

    match_id: Mapped[int] = mapped_column(
        ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True
    )
    round_no: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    cards: Mapped[list[Any]]  # the hand at the round's end, card strings
    hand_points: Mapped[int] = mapped_column(Integer)  # P-VALUES of that hand
    points: Mapped[int] = mapped_column(Integer)  # what the seat scored this round
    total: Mapped[int] = mapped_column(Integer)  # the seat's match total after the round
    place: Mapped[int | None] = mapped_column(Integer)  # H-LAST: order out; null otherwise


class LeagueResult(Base):
    __tablename__ = "league_results"

    league_id: Mapped[int] = mapped_column(
        ForeignKey("leagues.id", ondelete="CASCADE"), primary_key=True
    )
    match_id: Mapped[int] = mapped_column(
        ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True
    )
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), primary_key=True, index=True)
    seat: Mapped[int] = mapped_column(Integer)
    place: Mapped[int] = mapped_column(Integer)  # 1 = won (ties share)
    won: Mapped[bool] = mapped_column(Boolean)
    lost: Mapped[bool] = mapped_column(Boolean)
    left: Mapped[bool] = mapped_column(Boolean)  # left mid-match: counted as a loss
    rounds: Mapped[int] = mapped_column(Integer)  # rounds the profile played to their end
    rounds_won: Mapped[int] = mapped_column(Integer)
    points: Mapped[int] = mapped_column(Integer)  # points scored over those rounds
