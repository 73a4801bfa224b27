"""Tournaments: a revision each write checks (commands from any worker change the course by
compare-and-set), and who is connected to a tournament (TR-ABSENT), seen from every worker.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-02
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("tournaments", sa.Column("revision", sa.BigInteger(), nullable=False,
                                           server_default=sa.text("0")))
    op.create_table(
        "tournament_presence",
        sa.Column("tournament", sa.String(length=16), nullable=False),
        sa.Column("participant", sa.String(length=32), nullable=False),
        sa.Column("seen_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("tournament", "participant", name=op.f("pk_tournament_presence")),
    )


def downgrade() -> None:
    op.drop_table("tournament_presence")
    op.drop_column("tournaments", "revision")
