"""The services helper: an unreachable service skips a test, or fails it when CI demands it."""

from __future__ import annotations

import pytest
from _pytest.outcomes import Failed, Skipped

from tests.services import postgres_url, redis_url

UNREACHABLE_PG = "postgresql://postgres@127.0.0.1:1/test"
UNREACHABLE_REDIS = "redis://127.0.0.1:1/0"


def test_an_unreachable_service_skips_with_its_address(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("UNO_REQUIRE_SERVICES", raising=False)
    monkeypatch.setenv("UNO_TEST_POSTGRES_URL", UNREACHABLE_PG)
    monkeypatch.setenv("UNO_TEST_REDIS_URL", UNREACHABLE_REDIS)
    with pytest.raises(Skipped, match=r"Postgres is not reachable at 127\.0\.0\.1:1"):
        postgres_url()
    with pytest.raises(Skipped, match=r"Redis is not reachable at 127\.0\.0\.1:1"):
        redis_url()


def test_ci_turns_the_skip_into_a_failure(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("UNO_REQUIRE_SERVICES", "1")
    monkeypatch.setenv("UNO_TEST_POSTGRES_URL", UNREACHABLE_PG)
    with pytest.raises(Failed, match="UNO_REQUIRE_SERVICES=1"):
        postgres_url()


def test_a_reachable_postgres_gets_the_async_driver(monkeypatch: pytest.MonkeyPatch) -> None:
    url = postgres_url()  # skips here when the default server is away
    monkeypatch.setenv("UNO_TEST_POSTGRES_URL", url.replace("+asyncpg", ""))
    assert postgres_url().startswith("postgresql+asyncpg://")
