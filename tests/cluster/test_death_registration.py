"""A worker registers itself again now and then (a Redis Cluster's failover may lose the
registration), but only while its listener is subscribed: a worker registered and not listening
is how the others tell a dead one, so one still reconnecting after a Redis restart must not
register early and be taken for dead."""

from __future__ import annotations

import asyncio
import uuid

import pytest

from app.cluster import deaths
from app.cluster.deaths import DeathWatch
from app.cluster.redis_bus import RedisBus
from tests.services import redis_url


async def test_a_worker_registers_itself_again_only_while_its_listener_is_subscribed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(deaths, "REGISTER_SECONDS", 0.05)
    bus = RedisBus(redis_url(), prefix=f"test:{uuid.uuid4().hex[:12]}:")

    async def on_death(worker: str) -> None:
        raise AssertionError(f"{worker} taken for dead")

    watch = DeathWatch(bus, "me", on_death)
    watching = asyncio.create_task(watch.run())
    try:
        await asyncio.sleep(0.4)  # its listener not started: not subscribed
        assert "me" not in await bus.keys.workers()
        await bus.start()
        await asyncio.sleep(0.4)
        assert "me" in await bus.keys.workers()
    finally:
        watching.cancel()
        await bus.close()
