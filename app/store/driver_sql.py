"""A hot statement compiled once and run with the SQLite driver's own ``executemany``.

SQLAlchemy's ``Connection.execute`` costs about 0.1 ms of the SQLite writer's thread for each
statement of the room log's batches (the compiled cache's lookup, parameter processing, events,
a result object), more than SQLite's own work for a line (``bench.store_costs``). The room
log's two statements are compiled here once, with the same SQL and the same type processing
(the JSON columns' serializer) SQLAlchemy uses, and handed to the driver's cursor, inside the
transaction SQLAlchemy began. A driver error becomes SQLAlchemy's (an ``IntegrityError`` stays
one), so callers handle them as before.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from sqlalchemy import Connection
from sqlalchemy.engine import Dialect
from sqlalchemy.exc import DBAPIError
from sqlalchemy.sql import ClauseElement
from sqlalchemy.sql.compiler import SQLCompiler


class DriverStatement:
    """``statement`` compiled for ``dialect`` (a SQLite one), with ``keys`` as the columns each
    row's parameters name; ``executemany`` runs it for rows of named parameters."""

    def __init__(self, statement: ClauseElement, dialect: Dialect, keys: Sequence[str]) -> None:
        compiled = statement.compile(dialect=dialect, column_keys=list(keys),
                                     for_executemany=True)
        assert isinstance(compiled, SQLCompiler)
        assert compiled.positiontup is not None, "a positional (qmark) dialect is expected"
        self.sql = compiled.string
        self._fixed: dict[str, Any] = {}
        self._order: list[tuple[str, Callable[[Any], Any] | None]] = []
        for name in compiled.positiontup:
            bind = compiled.binds[name]
            if bind.callable is None and bind.value is not None:
                self._fixed[name] = bind.value  # a literal of the statement (LIMIT 1, a status)
            processor = bind.type.dialect_impl(dialect).bind_processor(dialect)
            self._order.append((name, processor))

    def rows(self, parameters: Sequence[Mapping[str, Any]]) -> list[tuple[Any, ...]]:
        """Each row's positional parameters, processed as SQLAlchemy would."""
        fixed, order = self._fixed, self._order
        rows = []
        for row in parameters:
            values = []
            for name, processor in order:
                value = row[name] if name in row else fixed[name]
                values.append(value if processor is None else processor(value))
            rows.append(tuple(values))
        return rows

    def executemany(self, conn: Connection, parameters: Sequence[Mapping[str, Any]]) -> None:
        """Run for every row of ``parameters`` on ``conn``'s driver connection, in ``conn``'s
        transaction."""
        driver = conn.connection.driver_connection
        assert isinstance(driver, sqlite3.Connection)
        try:
            driver.executemany(self.sql, self.rows(parameters))
        except sqlite3.Error as exc:  # no parameters in the error: they are players' moves
            raise DBAPIError.instance(self.sql, None, exc, sqlite3.Error,
                                      hide_parameters=True) from exc

