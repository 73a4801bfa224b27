"""Shared fixtures. ``live_server``: one real uvicorn process for the whole session (started
only when a test asks for it); see tests/server_fixture.py."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.server_fixture import ServerProcess, running_server


@pytest.fixture(scope="session")
def live_server() -> Iterator[ServerProcess]:
    with running_server() as server:
        yield server
