"""The store's hot statements run through the SQLite driver send exactly what SQLAlchemy's
``execute`` sent: the same SQL and the same processed parameters (JSON as the engine writes it,
dates as SQLAlchemy stores them)."""

from __future__ import annotations

import contextlib
from datetime import UTC
from typing import Any

import pytest
import sqlalchemy
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy import event
from sqlalchemy.exc import IntegrityError

from app.jsonwire import compact_json
from app.store.driver_sql import DriverStatement
from app.store.log_statements import INSERT_LINE, SET_META, UPSERT_SNAPSHOT
from app.store.models import Base
from app.store.recording import _INSERT_MATCH, _INSERT_SEATS, _TAG_BETWEEN, _TAG_FROM

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
MATCH = st.fixed_dictionaries({
    "p_code": st.text(min_size=1, max_size=6), "p_league": st.none() | st.integers(1, 99),
    "p_seed": st.integers(0, 2**62), "p_rules": st.dictionaries(st.text(max_size=5), JSON),
    "p_deal": st.none() | st.dictionaries(st.text(max_size=5), JSON),
    "p_seats": st.integers(2, 10), "p_first": st.integers(0, 10**9),
    "p_now": st.datetimes(timezones=st.just(UTC)),
})
SEAT = st.fixed_dictionaries({
    "match_id": st.integers(1, 10**6), "seat": st.integers(0, 9),
    "player_id": st.none() | st.integers(1, 10**6), "name": st.text(max_size=10),
    "bot": st.booleans(), "left_after_round": st.none() | st.integers(1, 9),
})
SNAPSHOT = st.fixed_dictionaries({
    "p_code": st.text(min_size=1, max_size=6), "p_seq": st.integers(0, 10**9),
    "p_gen": st.integers(0, 2**62), "p_data": st.dictionaries(st.text(max_size=5), JSON)})
TAG = st.fixed_dictionaries({"p_room": st.integers(1, 10**6), "p_match": st.integers(1, 10**6),
                             "p_first": st.integers(0, 10**9), "p_last": st.integers(0, 10**9)})


@pytest.fixture(scope="module")
def engine() -> sqlalchemy.Engine:
    engine = sqlalchemy.create_engine("sqlite://", json_serializer=compact_json)
    Base.metadata.create_all(engine)
    return engine


def sent_by_sqlalchemy(engine: sqlalchemy.Engine, statement: Any, parameters: Any
                       ) -> tuple[str, Any]:
    sent: list[tuple[str, Any]] = []

    def capture(_conn: Any, _cursor: Any, sql: str, sent_parameters: Any, *_: Any) -> None:
        sent.append((sql, sent_parameters))

    event.listen(engine, "before_cursor_execute", capture)
    try:
        with engine.begin() as conn, contextlib.suppress(IntegrityError):  # no such rooms
            conn.execute(statement, parameters)
    finally:
        event.remove(engine, "before_cursor_execute", capture)
    return sent[0]


def sent_by_the_driver(engine: sqlalchemy.Engine, driver: DriverStatement, parameters: Any
                       ) -> tuple[str, Any]:
    if isinstance(parameters, list):
        compiled = driver.compiled(engine.dialect, True)
        return compiled.sql, [compiled.row(row) for row in parameters]
    compiled = driver.compiled(engine.dialect, False)
    return compiled.sql, compiled.row(parameters)


@settings(max_examples=40, deadline=None)
@given(data=st.data())
@pytest.mark.parametrize(("driver", "rows"), [
    (INSERT_LINE, st.lists(LINE, min_size=2, max_size=4)),
    (SET_META, st.lists(META, min_size=2, max_size=3)),
    (_INSERT_SEATS, st.lists(SEAT, min_size=2, max_size=4)),
    (_INSERT_MATCH, MATCH),
    (_TAG_FROM, TAG),
    (_TAG_BETWEEN, TAG),
    (UPSERT_SNAPSHOT["sqlite"], SNAPSHOT),
], ids=["room log lines", "room changes", "match seats", "a match", "tagging", "tagging upto",
        "a snapshot"])
def test_a_hot_statement_sends_what_sqlalchemy_sent(
    engine: sqlalchemy.Engine, driver: DriverStatement, rows: Any, data: st.DataObject
) -> None:
    parameters = data.draw(rows)
    assert sent_by_the_driver(engine, driver, parameters) == sent_by_sqlalchemy(
        engine, driver.statement, parameters)

