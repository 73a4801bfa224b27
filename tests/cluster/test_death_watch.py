"""DeathWatch on a real Redis: a registered worker that stops listening is taken for dead after
DEAD_AFTER, once; it is alive again when it listens again; and right after a Redis outage
nobody is taken for dead while the listeners come back."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator

import pytest

from app.cluster.calls import worker_topic
from app.cluster.deaths import DEAD_AFTER, DeathWatch
from app.cluster.redis_bus import RedisBus
from tests.services import redis_url


@pytest.fixture
async def buses() -> AsyncIterator[tuple[RedisBus, RedisBus]]:
    prefix = f"test:{uuid.uuid4().hex[:12]}:"
    pair = (RedisBus(redis_url(), prefix=prefix), RedisBus(redis_url(), prefix=prefix))
    for bus in pair:
        await bus.start()
    try:
        yield pair
    finally:
        for bus in pair:
            await bus.close()


async def test_a_worker_that_stops_listening_is_taken_for_dead_once_then_alive_again(
    buses: tuple[RedisBus, RedisBus],
) -> None:
    mine, theirs = buses
    died: list[str] = []

    async def on_death(worker: str) -> None:
        died.append(worker)

    watch = DeathWatch(mine, "me", on_death)
    stop = theirs.subscribe(worker_topic("them"), lambda m: None)
    await theirs.ready(worker_topic("them"))
    await theirs.keys.register_worker("them")
    assert await watch.poll() == []
    stop()  # its process died: the subscription went with its connection
    await theirs.settled()
    assert await watch.poll() == []  # silent, but not for DEAD_AFTER yet
    await asyncio.sleep(DEAD_AFTER)
    assert await watch.poll() == ["them"] and died == ["them"]
    assert await watch.poll() == [] and died == ["them"]  # once
    theirs.subscribe(worker_topic("them"), lambda m: None)  # restarted under its name
    await theirs.ready(worker_topic("them"))
    await watch.poll()
    assert "them" not in watch.dead


async def test_after_a_redis_outage_nobody_is_taken_for_dead_while_listeners_come_back(
    buses: tuple[RedisBus, RedisBus],
) -> None:
    mine, theirs = buses
    died: list[str] = []

    async def on_death(worker: str) -> None:
        died.append(worker)

    watch = DeathWatch(mine, "me", on_death)
    await theirs.keys.register_worker("slow")  # registered, its listener not back yet
    watch.resume()  # this worker's listener is back
    await watch.poll()
    await asyncio.sleep(DEAD_AFTER)
    assert await watch.poll() == [] and died == []
