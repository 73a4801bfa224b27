"""Rooms: a fencing generation (the owner's lease generation) and a parked flag.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-29
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


# recreate="never": SQLite adds and drops these columns in place (3.35+). Copying the table
# instead would drop ``rooms``, and with foreign keys on that deletes every room's log.


def upgrade() -> None:
    with op.batch_alter_table("rooms", recreate="never") as batch:
        batch.add_column(
            sa.Column("generation", sa.BigInteger(), nullable=False, server_default=sa.text("0"))
        )
        batch.add_column(
            sa.Column("parked", sa.Boolean(), nullable=False, server_default=sa.text("false"))
        )


def downgrade() -> None:
    with op.batch_alter_table("rooms", recreate="never") as batch:
        batch.drop_column("parked")
        batch.drop_column("generation")
