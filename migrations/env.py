"""Alembic environment (async). Two ways in:

- the app (``app.store.db.migrate``) passes a connection that already holds the migration lock
  in ``config.attributes["connection"]``: migrations run on it, inside its transaction;
- the command line (``alembic upgrade head``) gets the URL from ``-x url=...``, else
  ``UNO_DATABASE_URL`` (default: the SQLite file of app/config.py), and takes the same lock.
"""

from __future__ import annotations

import asyncio
from logging.config import fileConfig

from alembic import context
from sqlalchemy import Connection

from app.config import get_settings
from app.store.db import create_engine, migration_connection
from app.store.models import Base

config = context.config
target_metadata = Base.metadata


def _url() -> str:
    given = context.get_x_argument(as_dictionary=True).get("url")
    if given:
        return given
    main = config.get_main_option("sqlalchemy.url")
    return main or get_settings().database_url


def _run_on(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=connection.dialect.name == "sqlite",  # SQLite alters by copying
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


async def _run_from_command_line() -> None:
    engine = create_engine(_url())
    try:
        async with migration_connection(engine) as conn:
            await conn.run_sync(_run_on)
    finally:
        await engine.dispose()


def _main() -> None:
    if context.is_offline_mode():
        context.configure(url=_url(), target_metadata=target_metadata, literal_binds=True)
        with context.begin_transaction():
            context.run_migrations()
        return
    connection = config.attributes.get("connection")
    if connection is not None:
        _run_on(connection)
        return
    if config.config_file_name is not None:
        fileConfig(config.config_file_name, disable_existing_loggers=False)
    asyncio.run(_run_from_command_line())


_main()
