"""The ASGI application: ``app.main:app``."""

from __future__ import annotations

import asyncio
import logging
import os
import socket
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles

from app import gc_schedule
from app.api import errors, health, history, rooms, ws
from app.api.body_limit import BodyLimit
from app.api.deps import build_services
from app.bus import Bus, InProcessBus
from app.config import Settings, get_settings
from app.logs import configure_logging
from app.rooms import Hub, RoomRegistry
from app.rooms.forwarding import Forwarder
from app.rooms.hub import CLOSE_RELOAD, room_topic
from app.rooms.metrics import watch_gc_pauses, watch_loop_lag
from app.rooms.ownership import FencedStore, Ownership
from app.rooms.recorder import MatchRecorder, NoRecorder
from app.rooms.serial_store import SerialWrites
from app.store.base import RoomStore
from app.store.memory import MemoryRoomStore

log = logging.getLogger("uno")


@dataclass(slots=True)
class Storage:
    """The room store, the match history (None without SQL) and the engine to dispose of."""

    rooms: RoomStore
    recorder: MatchRecorder
    history: Any = None
    engine: Any = None


async def open_storage(settings: Settings) -> Storage:
    """``UNO_DATABASE_URL=memory://`` keeps rooms in memory and records no history."""
    if settings.database_url == "memory://":
        return Storage(MemoryRoomStore(), NoRecorder())
    from app.rooms.history_recorder import HistoryRecorder  # noqa: PLC0415 (SQL only)
    from app.store.db import create_engine, is_sqlite, migrate  # noqa: PLC0415
    from app.store.history import HistoryStore  # noqa: PLC0415
    from app.store.sql import SqlRoomStore  # noqa: PLC0415

    await migrate(settings.database_url)
    engine = create_engine(settings.database_url)
    history = HistoryStore(engine)
    rooms: RoomStore = SqlRoomStore(engine)
    if is_sqlite(settings.database_url):
        rooms = SerialWrites(rooms)
    return Storage(rooms, HistoryRecorder(history), history, engine)


async def open_cluster(settings: Settings) -> tuple[Bus, Ownership | None]:
    """``UNO_REDIS_URL`` set: room leases in Redis (many workers); else the in-process bus."""
    if not settings.redis_url:
        return InProcessBus(), None
    from app.bus.leased import LeasedBus  # noqa: PLC0415 (Redis only)
    from app.bus.redis_bus import RedisBus, command_timeout_for  # noqa: PLC0415

    redis = RedisBus(settings.redis_url, prefix=settings.redis_prefix,
                     command_timeout=command_timeout_for(settings.lease_seconds))
    await redis.start()
    worker = settings.worker_id or f"{socket.gethostname()}-{os.getpid()}"
    log.info("worker %s: rooms shared through Redis leases (%.1f s)", worker,
             settings.lease_seconds)
    ownership = Ownership(redis, worker, settings.lease_seconds)
    try:
        await ownership.claim_name(wait=True)
    except Exception:
        await redis.close()
        raise
    return LeasedBus(redis, worker), ownership


async def hand_over(bus: Bus, codes: list[str]) -> None:
    """Graceful shutdown: every socket of these rooms, on any worker, reconnects (close 1012)
    and resumes on a worker that takes the room over."""
    for code in codes:
        try:
            await bus.publish(room_topic(code), {"control": "moved"})
        except Exception as exc:  # Redis away: the sockets notice on their next command
            log.warning("room %s: hand-over not announced (%r)", code, exc)


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or get_settings()
    configure_logging(settings.log_level)

    @asynccontextmanager
    async def lifespan(application: FastAPI) -> AsyncIterator[None]:
        storage = await open_storage(settings)
        store = storage.rooms
        application.state.history = storage.history  # app/api/history.py reads it
        bus, ownership = await open_cluster(settings)
        if ownership is not None:
            store = FencedStore(store, ownership)
        hub = Hub(bus)
        registry = RoomRegistry(store, bus, settings, recorder=storage.recorder)
        registry.spectators = hub.spectators
        registry.spectator_counts = hub.spectator_counts
        registry.ownership = ownership
        if ownership is not None:

            async def lease_lost(code: str) -> None:
                await registry.drop(code)
                hub.close_room(code, CLOSE_RELOAD, "the room moved to another worker: reconnect")

            ownership.run(lease_lost)
            forwarder = registry.forwarder = Forwarder(ownership.bus, ownership, registry)
            hub.on_moved.append(forwarder.forget_owner)
            forwarder.start()
            registry.run()  # the takeover sweep
        application.state.services = build_services(settings, store, bus, registry, hub)
        recovered = await registry.recover()
        log.info("serving; %d rooms recovered from the store", recovered)
        gc_schedule.settle()
        watch_gc_pauses()
        background = [
            asyncio.create_task(watch_loop_lag(), name="event-loop lag probe"),
            asyncio.create_task(gc_schedule.collect_on_schedule(), name="garbage collections"),
        ]
        try:
            yield
        finally:
            for task in background:
                task.cancel()
            # Awaited, so their own clean-up runs now (the collector counts allocations again).
            await asyncio.gather(*background, return_exceptions=True)
            if registry.forwarder is not None:
                await registry.forwarder.close()
            owned = list(registry.rooms)
            await registry.close()
            if ownership is not None:
                await ownership.close()  # hand the rooms over now, not after the TTL
                await hand_over(bus, owned)
            await bus.close()
            if storage.engine is not None:
                from app.store.db import dispose_engine  # noqa: PLC0415 (SQL only)

                await dispose_engine(storage.engine)

    application = FastAPI(
        title="UNO",
        version="0.1.0",
        description="Real-time UNO rooms over WebSockets. See docs/protocol.md.",
        lifespan=lifespan,
    )
    application.add_middleware(BodyLimit, max_bytes=settings.max_body_bytes)
    errors.install(application)
    application.include_router(health.router)
    application.include_router(rooms.router)
    application.include_router(history.router)
    application.include_router(ws.router)
    static = Path(settings.static_dir)
    if static.is_dir():  # after the API routes: "/" serves the browser client
        application.mount("/", StaticFiles(directory=static, html=True), name="static")
    return application


app = create_app()
