"""The server names its build (``/healthz`` and every ``state``), so that a browser client that
loaded another build knows to reload itself (issue 30)."""

from __future__ import annotations

import httpx
import pytest

from app.build import build_id
from tests.rooms.client import TIMEOUT, make_table
from tests.server_fixture import running_server


def test_a_build_is_named_by_its_deploy_or_else_by_its_files(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    build_id.cache_clear()
    own = build_id()
    assert len(own) == 12 and own == build_id()
    monkeypatch.setenv("UNO_BUILD", "2026.12.02-a")
    build_id.cache_clear()
    assert build_id() == "2026.12.02-a"
    build_id.cache_clear()


async def test_healthz_and_every_state_name_the_build() -> None:
    with running_server(UNO_BUILD="deploy-7") as server:
        async with httpx.AsyncClient(base_url=server.http_url, timeout=TIMEOUT) as http:
            health = (await http.get("/healthz")).json()
        assert health["build"] == "deploy-7"
        table = await make_table(server, ["Ann"])
        assert (await table.players[0].state())["build"] == "deploy-7"
        await table.close()
