"""Hot statements compiled once and run by the SQLite driver itself (``SqliteWriter``'s).

SQLAlchemy's ``Connection.execute`` costs about 0.1 ms of the SQLite writer's time for each
statement (the compiled cache's lookup, parameter processing, events, a result object), more
than SQLite's own work for a room log line or a match's row (``bench.store_costs``). These
statements are compiled here once per dialect, with the SQL and the type processing (the JSON
columns' serializer, dates) SQLAlchemy uses, and handed to the driver's cursor inside the
transaction SQLAlchemy began. A driver error becomes SQLAlchemy's (an ``IntegrityError`` stays
one), so callers handle them as before. On any other connection (Postgres, aiosqlite in memory)
they go through SQLAlchemy as usual.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection
from sqlalchemy.engine import Dialect
from sqlalchemy.exc import DBAPIError, StatementError
from sqlalchemy.sql.compiler import SQLCompiler
from sqlalchemy.sql.dml import UpdateBase


@dataclass(frozen=True, slots=True)
class _Compiled:
    sql: str
    order: tuple[tuple[str, Callable[[Any], Any] | None], ...]  # each ? with its processor
    fixed: Mapping[str, Any]  # the statement's literals (LIMIT 1, a status)

    def row(self, parameters: Mapping[str, Any]) -> tuple[Any, ...]:
        fixed = self.fixed
        values = []
        for name, processor in self.order:
            value = parameters[name] if name in parameters else fixed[name]
            values.append(value if processor is None else processor(value))
        return tuple(values)


class DriverStatement:
    """``statement`` with ``keys``, the columns each row's parameters name (an INSERT's or an
    UPDATE's SET; bind parameters need not be listed). Its result columns, if any, must need no
    processing (integers, text)."""

    def __init__(self, statement: UpdateBase, keys: Sequence[str] = ()) -> None:
        self.statement = statement
        self._keys = list(keys)
        self._compiled: dict[tuple[Dialect, bool], _Compiled] = {}

    def compiled(self, dialect: Dialect, many: bool) -> _Compiled:
        """The SQL and the parameters' order for ``dialect`` (a qmark one: SQLite's)."""
        found = self._compiled.get((dialect, many))
        if found is None:
            compiled = self.statement.compile(dialect=dialect, column_keys=self._keys,
                                              for_executemany=many)
            assert isinstance(compiled, SQLCompiler) and compiled.positiontup is not None
            order, fixed = [], {}
            for name in compiled.positiontup:
                bind = compiled.binds[name]
                if bind.callable is None and bind.value is not None:
                    fixed[name] = bind.value
                order.append((name, bind.type.dialect_impl(dialect).bind_processor(dialect)))
            found = self._compiled[(dialect, many)] = _Compiled(
                compiled.string, tuple(order), fixed)
        return found

    def executemany(self, conn: Connection, rows: Sequence[Mapping[str, Any]]) -> None:
        """Run for each of ``rows``, in ``conn``'s transaction."""
        driver = _sqlite_driver(conn)
        if driver is None:
            conn.execute(self.statement, list(rows))
            return
        compiled = self.compiled(conn.dialect, True)
        try:
            driver.executemany(compiled.sql, [compiled.row(row) for row in rows])
        except sqlite3.Error as exc:
            raise sqlalchemy_error(compiled.sql, exc) from exc

    def execute(self, conn: Connection, parameters: Mapping[str, Any]) -> list[tuple[Any, ...]]:
        """Run once, in ``conn``'s transaction: the rows it returns (RETURNING), if any."""
        driver = _sqlite_driver(conn)
        if driver is None:
            result = conn.execute(self.statement, dict(parameters))
            return [tuple(row) for row in result.all()] if result.returns_rows else []
        compiled = self.compiled(conn.dialect, False)
        try:
            return driver.execute(compiled.sql, compiled.row(parameters)).fetchall()
        except sqlite3.Error as exc:
            raise sqlalchemy_error(compiled.sql, exc) from exc

    def rowcount(self, conn: Connection, parameters: Mapping[str, Any]) -> int:
        """Run once, in ``conn``'s transaction: how many rows it wrote."""
        driver = _sqlite_driver(conn)
        if driver is None:
            return int(conn.execute(self.statement, dict(parameters)).rowcount)
        compiled = self.compiled(conn.dialect, False)
        try:
            return driver.execute(compiled.sql, compiled.row(parameters)).rowcount
        except sqlite3.Error as exc:
            raise sqlalchemy_error(compiled.sql, exc) from exc


def _sqlite_driver(conn: Connection) -> sqlite3.Connection | None:
    """``conn``'s own sqlite3 connection (the SQLite writer's), or None (aiosqlite's, Postgres)."""
    driver = conn.connection.driver_connection
    return driver if isinstance(driver, sqlite3.Connection) else None


def sqlalchemy_error(sql: str, exc: sqlite3.Error) -> StatementError:
    """A driver error as SQLAlchemy raises it, without the parameters (players' moves). Raised
    from an ``except`` at each call, not a context manager: the hot path pays no call for it."""
    return DBAPIError.instance(sql, None, exc, sqlite3.Error, hide_parameters=True)
