"""The room log's statements run through the SQLite driver send exactly what SQLAlchemy's
``execute`` sent: the same SQL and the same processed parameters (JSON as the engine writes it)."""

from __future__ import annotations

import contextlib
from typing import Any

import pytest
import sqlalchemy
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy import event
from sqlalchemy.exc import IntegrityError

from app.jsonwire import compact_json
from app.store.driver_sql import DriverStatement
from app.store.group_commit import _INSERT_LINE, _LINE_COLUMNS, _SET_META
from app.store.models import Base

JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-2**53, 2**53) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner,
                                                               max_size=3),
    max_leaves=8,
)
LINE = st.fixed_dictionaries({
    "p_room": st.integers(1, 10**6), "p_seq": st.integers(0, 10**9),
    "p_gen": st.integers(0, 2**62), "seq": st.integers(0, 10**9),
    "seat": st.none() | st.integers(0, 9), "command": st.dictionaries(st.text(max_size=5), JSON),
    "now_ms": st.integers(0, 2**50), "events": st.lists(JSON, max_size=3),
})
META = st.fixed_dictionaries({"p_room": st.integers(1, 10**6), "p_gen": st.integers(0, 2**62),
                              "p_meta": st.dictionaries(st.text(max_size=5), JSON)})


@pytest.fixture(scope="module")
def engine() -> sqlalchemy.Engine:
    engine = sqlalchemy.create_engine("sqlite://", json_serializer=compact_json)
    Base.metadata.create_all(engine)
    return engine


def sent_by_sqlalchemy(engine: sqlalchemy.Engine, statement: Any,
                       rows: list[dict[str, Any]]) -> tuple[str, list[tuple[Any, ...]]]:
    sent: list[tuple[str, list[tuple[Any, ...]]]] = []

    def capture(_conn: Any, _cursor: Any, sql: str, parameters: Any, *_: Any) -> None:
        sent.append((sql, list(parameters)))

    event.listen(engine, "before_cursor_execute", capture)
    try:
        with engine.begin() as conn, contextlib.suppress(IntegrityError):  # no such rooms
            conn.execute(statement, rows)
    finally:
        event.remove(engine, "before_cursor_execute", capture)
    return sent[0]


@settings(max_examples=60, deadline=None)
@given(lines=st.lists(LINE, min_size=2, max_size=4))
def test_a_batch_of_the_room_log_sends_what_sqlalchemy_sent(
    engine: sqlalchemy.Engine, lines: list[dict[str, Any]]
) -> None:
    driver = DriverStatement(_INSERT_LINE, engine.dialect, _LINE_COLUMNS)
    assert (driver.sql, driver.rows(lines)) == sent_by_sqlalchemy(engine, _INSERT_LINE, lines)


@settings(max_examples=30, deadline=None)
@given(metas=st.lists(META, min_size=2, max_size=3))
def test_a_batch_of_room_changes_sends_what_sqlalchemy_sent(
    engine: sqlalchemy.Engine, metas: list[dict[str, Any]]
) -> None:
    driver = DriverStatement(_SET_META, engine.dialect, ())
    assert (driver.sql, driver.rows(metas)) == sent_by_sqlalchemy(engine, _SET_META, metas)
