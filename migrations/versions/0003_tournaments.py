"""Tournaments (RULES.md section 11): one row each, the course kept as a JSON record.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-02
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

JSON = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")


def upgrade() -> None:
    op.create_table(
        "tournaments",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("code", sa.String(length=16), nullable=False),
        sa.Column("name", sa.String(length=60), nullable=False),
        sa.Column("public", sa.Boolean(), nullable=False, server_default=sa.text("false")),
        sa.Column("league_id", sa.Integer(), nullable=True),
        sa.Column("host_token_hash", sa.String(length=64), nullable=False),
        sa.Column("rules", JSON, nullable=False),
        sa.Column("record", JSON, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("generation", sa.BigInteger(), nullable=False, server_default=sa.text("0")),
        sa.ForeignKeyConstraint(["league_id"], ["leagues.id"], ondelete="SET NULL",
                                name=op.f("fk_tournaments_league_id_leagues")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_tournaments")),
        sa.UniqueConstraint("code", name=op.f("uq_tournaments_code")),
    )
    op.create_index(op.f("ix_tournaments_league_id"), "tournaments", ["league_id"])


def downgrade() -> None:
    op.drop_index(op.f("ix_tournaments_league_id"), table_name="tournaments")
    op.drop_table("tournaments")
