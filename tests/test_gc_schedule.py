"""The collector's schedule: live young objects leave the younger generations within two ticks
(so no later tick traverses them, however many sockets a worker holds), garbage is freed
within a tick, and what outlives the ticks waits for the full collection."""

from __future__ import annotations

import asyncio
import gc
import weakref
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from app.config import Settings
from app.gc_schedule import collect_on_schedule
from app.main import create_app


@asynccontextmanager
async def scheduled(full_seconds: float = 60.0) -> AsyncIterator[None]:
    task = asyncio.create_task(collect_on_schedule(young_seconds=0.02,
                                                   full_seconds=full_seconds))
    await asyncio.sleep(0)
    try:
        yield
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)


class Node:
    def __init__(self) -> None:
        self.other: Node = self  # a reference cycle: only the collector frees it


def cycle_freed() -> tuple[Node, asyncio.Event]:
    node = Node()
    freed = asyncio.Event()
    weakref.finalize(node, freed.set)
    return node, freed


async def test_live_young_objects_leave_the_younger_generations_within_two_ticks() -> None:
    async with scheduled():
        assert not gc.isenabled()  # no collection started by an allocation count
        pending = [[index] for index in range(50_000)]  # every socket's pending read, say
        made = {id(item) for item in pending}
        await asyncio.sleep(0.1)
        still_young = [o for generation in (0, 1) for o in gc.get_objects(generation)
                       if id(o) in made]
        assert still_young == []
        assert len(pending) == 50_000
    assert gc.isenabled()  # the count-started collections are back once it stops


async def test_garbage_made_between_two_ticks_is_freed_at_the_next() -> None:
    async with scheduled():
        node, freed = cycle_freed()
        del node
        async with asyncio.timeout(1):
            await freed.wait()


async def test_a_cycle_that_outlived_a_tick_waits_for_the_full_collection() -> None:
    async with scheduled(full_seconds=0.5):
        node, freed = cycle_freed()
        await asyncio.sleep(0.1)  # some ticks: it is old now
        del node
        await asyncio.sleep(0.1)
        assert not freed.is_set()  # the ticks' collections do not traverse it
        async with asyncio.timeout(2):
            await freed.wait()


async def test_a_serving_worker_collects_on_the_schedule_not_by_count() -> None:
    app = create_app(Settings(database_url="memory://"))
    async with app.router.lifespan_context(app):
        await asyncio.sleep(0)
        assert not gc.isenabled()
        node, freed = cycle_freed()
        del node
        async with asyncio.timeout(1):
            await freed.wait()  # the schedule's next tick
    assert gc.isenabled()
