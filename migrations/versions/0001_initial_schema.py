"""Initial schema: rooms in play, match history, players and leagues.

Revision ID: 0001
Revises:
Create Date: 2026-11-29
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# Spelled out here, not imported from app.store.models: a revision must not change later.
JSON = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")


def _now(name: str) -> sa.Column[datetime]:
    return sa.Column(name, sa.DateTime(timezone=True), nullable=False)


def _fk(
    owner: str, table: str, column: str, ondelete: str | None = None
) -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint(
        [column], [f"{table}.id"], name=f"fk_{owner}_{column}_{table}", ondelete=ondelete
    )


def upgrade() -> None:
    op.create_table(
        "players",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("key_hash", sa.String(64), nullable=False),
        _now("created_at"),
        sa.PrimaryKeyConstraint("id", name="pk_players"),
        sa.UniqueConstraint("key_hash", name="uq_players_key_hash"),
    )
    op.create_table(
        "leagues",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(60), nullable=False),
        sa.Column("scoring", sa.String(20), nullable=False),
        sa.Column("target", sa.Integer(), nullable=False),
        _now("created_at"),
        sa.CheckConstraint("scoring IN ('winner_takes', 'lowest_wins')", name="ck_leagues_scoring"),
        sa.CheckConstraint("target > 0", name="ck_leagues_target"),
        sa.PrimaryKeyConstraint("id", name="pk_leagues"),
    )
    op.create_table(
        "league_members",
        sa.Column("league_id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        _now("joined_at"),
        _fk("league_members", "leagues", "league_id", "CASCADE"),
        _fk("league_members", "players", "player_id", "CASCADE"),
        sa.PrimaryKeyConstraint("league_id", "player_id", name="pk_league_members"),
    )
    op.create_index("ix_league_members_player_id", "league_members", ["player_id"])
    op.create_table(
        "rooms",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("code", sa.String(16), nullable=False),
        sa.Column("meta", JSON, nullable=False),
        _now("created_at"),
        sa.Column("closed_at", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("id", name="pk_rooms"),
    )
    # Codes are short and get reused: unique only among open rooms.
    op.create_index(
        "uq_rooms_open_code",
        "rooms",
        ["code"],
        unique=True,
        postgresql_where=sa.text("closed_at IS NULL"),
        sqlite_where=sa.text("closed_at IS NULL"),
    )
    op.create_table(
        "room_snapshots",
        sa.Column("room_id", sa.Integer(), nullable=False),
        sa.Column("seq", sa.BigInteger(), nullable=False),
        sa.Column("data", JSON, nullable=False),
        _fk("room_snapshots", "rooms", "room_id", "CASCADE"),
        sa.PrimaryKeyConstraint("room_id", name="pk_room_snapshots"),
    )
    op.create_table(
        "matches",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("room_id", sa.Integer(), nullable=False),
        sa.Column("league_id", sa.Integer(), nullable=True),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("rules", JSON, nullable=False),
        sa.Column("deal", JSON, nullable=True),
        sa.Column("seats", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(12), nullable=False),
        sa.Column("first_seq", sa.BigInteger(), nullable=False),
        sa.Column("last_seq", sa.BigInteger(), nullable=True),
        sa.Column("winners", JSON, nullable=True),
        sa.Column("result", JSON, nullable=True),
        _now("started_at"),
        sa.Column("ended_at", sa.DateTime(timezone=True), nullable=True),
        sa.CheckConstraint(
            "status IN ('running', 'finished', 'abandoned')", name="ck_matches_status"
        ),
        _fk("matches", "leagues", "league_id"),
        _fk("matches", "rooms", "room_id"),
        sa.PrimaryKeyConstraint("id", name="pk_matches"),
    )
    op.create_index("ix_matches_league_id", "matches", ["league_id"])
    op.create_index("ix_matches_room_id", "matches", ["room_id"])
    op.create_table(
        "match_seats",
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=True),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("bot", sa.Boolean(), nullable=False),
        sa.Column("left_after_round", sa.Integer(), nullable=True),
        _fk("match_seats", "matches", "match_id", "CASCADE"),
        _fk("match_seats", "players", "player_id"),
        sa.PrimaryKeyConstraint("match_id", "seat", name="pk_match_seats"),
    )
    op.create_index("ix_match_seats_player_id", "match_seats", ["player_id"])
    op.create_table(
        "room_log",
        sa.Column("room_id", sa.Integer(), nullable=False),
        sa.Column("seq", sa.BigInteger(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("command", JSON, nullable=False),
        sa.Column("now_ms", sa.BigInteger(), nullable=False),
        sa.Column("events", JSON, nullable=False),
        sa.Column("match_id", sa.Integer(), nullable=True),
        _fk("room_log", "matches", "match_id", "SET NULL"),
        _fk("room_log", "rooms", "room_id", "CASCADE"),
        sa.PrimaryKeyConstraint("room_id", "seq", name="pk_room_log"),
    )
    op.create_index("ix_room_log_match_id", "room_log", ["match_id"])
    op.create_table(
        "rounds",
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("round_no", sa.Integer(), nullable=False),
        sa.Column("winner", sa.Integer(), nullable=False),
        _now("ended_at"),
        _fk("rounds", "matches", "match_id", "CASCADE"),
        sa.PrimaryKeyConstraint("match_id", "round_no", name="pk_rounds"),
    )
    op.create_table(
        "round_hands",
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("round_no", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("cards", JSON, nullable=False),
        sa.Column("hand_points", sa.Integer(), nullable=False),
        sa.Column("points", sa.Integer(), nullable=False),
        sa.Column("total", sa.Integer(), nullable=False),
        sa.Column("place", sa.Integer(), nullable=True),
        _fk("round_hands", "matches", "match_id", "CASCADE"),
        sa.PrimaryKeyConstraint("match_id", "round_no", "seat", name="pk_round_hands"),
    )
    op.create_index("ix_round_hands_round", "round_hands", ["match_id", "round_no"])
    op.create_table(
        "league_results",
        sa.Column("league_id", sa.Integer(), nullable=False),
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("place", sa.Integer(), nullable=False),
        sa.Column("won", sa.Boolean(), nullable=False),
        sa.Column("lost", sa.Boolean(), nullable=False),
        sa.Column("left", sa.Boolean(), nullable=False),
        sa.Column("rounds", sa.Integer(), nullable=False),
        sa.Column("rounds_won", sa.Integer(), nullable=False),
        sa.Column("points", sa.Integer(), nullable=False),
        _fk("league_results", "leagues", "league_id", "CASCADE"),
        _fk("league_results", "matches", "match_id", "CASCADE"),
        _fk("league_results", "players", "player_id"),
        sa.PrimaryKeyConstraint("league_id", "match_id", "player_id", name="pk_league_results"),
    )
    op.create_index("ix_league_results_player_id", "league_results", ["player_id"])


def downgrade() -> None:
    # Children first: foreign keys are enforced (SQLite included).
    for table in (
        "league_results",
        "round_hands",
        "rounds",
        "room_log",
        "match_seats",
        "matches",
        "room_snapshots",
        "rooms",
        "league_members",
        "leagues",
        "players",
    ):
        op.drop_table(table)
