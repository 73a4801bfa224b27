"""Room tests run against the session's real uvicorn server (tests/server_fixture.py)."""

from __future__ import annotations

from tests.conftest import live_server

__all__ = ["live_server"]
