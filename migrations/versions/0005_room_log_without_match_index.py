"""The room log's lines without an index on their match: every append wrote to it (a page of
its own for each running match, a quarter of a line's cost in SQLite), and a match's lines are
found through the primary key instead (the room's lines from the match's first seq on).

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-06
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.drop_index("ix_room_log_match_id", table_name="room_log")


def downgrade() -> None:
    op.create_index("ix_room_log_match_id", "room_log", ["match_id"])
