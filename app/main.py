"""The ASGI application: ``app.main:app``."""

from __future__ import annotations

import asyncio
import inspect
import logging
import sys
from collections.abc import AsyncIterator, Awaitable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles
from starlette.types import Receive, Scope, Send

from app import gc_schedule
from app.api import errors, health, history, quick, rooms, tournaments, ws
from app.api.body_limit import BodyLimit
from app.api.deps import build_services
from app.bus import Bus, InProcessBus
from app.codes import Close
from app.config import Settings, get_settings
from app.draining import DRAIN
from app.logs import configure_logging
from app.rooms import Hub, RoomRegistry
from app.rooms.metrics import watch_gc_pauses, watch_loop_lag
from app.rooms.recorder import MatchRecorder, NoRecorder
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
    outage: Any = None  # OutageWatch: tells the registry when the database is back
    tournaments: Any = None  # TournamentStore (SQL only)


async def open_storage(settings: Settings) -> Storage:
    """``UNO_DATABASE_URL=memory://`` keeps rooms in memory and records no history."""
    if settings.database_url == "memory://":
        return Storage(MemoryRoomStore(), NoRecorder())
    from app.rooms.history_recorder import HistoryRecorder  # noqa: PLC0415 (SQL only)
    from app.store.db import create_engine, migrate, ping  # noqa: PLC0415
    from app.store.history import HistoryStore  # noqa: PLC0415
    from app.store.outage import OutageWatch  # noqa: PLC0415
    from app.store.sql import SqlRoomStore  # noqa: PLC0415
    from app.store.tournaments import TournamentStore  # noqa: PLC0415

    await migrate(settings.database_url)
    engine = create_engine(settings.database_url)
    sql = SqlRoomStore(engine, settings.commit_gather_ms / 1000)
    history = HistoryStore(engine, sql.in_writer)  # on SQLite: the room log's writer thread
    # A database that goes away (a restart, a failover) is waited for, not fallen over.
    rooms = OutageWatch(sql, probe=lambda: ping(engine))
    return Storage(rooms, HistoryRecorder(history), history, engine, rooms,
                   TournamentStore(engine, sql.in_writer))


@dataclass(slots=True)
class TournamentRunners:
    """The tasks of tournaments on this worker: the owner's rounds, the sockets' looks."""

    owner: Any = None
    watch: Any = None

    def start(self) -> list[asyncio.Task[None]]:
        if self.owner is None:
            return []
        return [asyncio.create_task(self.owner.run(), name="tournament owner"),
                asyncio.create_task(self.watch.run(), name="tournament sockets")]

    async def close(self) -> None:
        if self.owner is not None:
            await self.owner.close()  # its leases go now, not after their TTL


def open_tournaments(services: Any, storage: Storage, cluster: Any) -> TournamentRunners:
    """Tournaments, where a database keeps them: one owner per tournament among the workers
    (the rooms' leases), a watch of this worker's tournament sockets."""
    if storage.tournaments is None:
        return TournamentRunners()
    from app.tournaments.leases import Leases, SoloLeases  # noqa: PLC0415
    from app.tournaments.owner import TournamentOwner  # noqa: PLC0415
    from app.tournaments.service import TournamentService  # noqa: PLC0415
    from app.tournaments.watch import TournamentWatch  # noqa: PLC0415

    leases: Leases = SoloLeases()
    if cluster is not None:
        from app.cluster.leases import TournamentLeases  # noqa: PLC0415

        leases = TournamentLeases(cluster.ownership)
    settings = services.settings
    service = TournamentService(storage.tournaments, settings)
    watch = TournamentWatch(service, settings)
    owner = TournamentOwner(service, services.registry, leases, settings, watch.connected)
    services.tournaments, services.tournament_watch = service, watch
    return TournamentRunners(owner, watch)


class UnoApp(FastAPI):
    """FastAPI, with room sockets taken straight to their endpoint (``app.api.ws``)."""

    def __call__(  # type: ignore[override]  # the same ASGI call, not a coroutine of its own
            self, scope: Scope, receive: Receive, send: Send) -> Awaitable[None]:
        """The endpoint's coroutine itself, which the server awaits: a coroutine of this call
        around it would live as long as the socket (280 bytes a socket)."""
        if scope["type"] == "websocket":
            code = ws.room_code(scope["path"])  # not the match: no match object is kept
            services = getattr(self.state, "services", None)
            if code is not None and services is not None:
                return ws.serve_socket(scope, receive, send, services, code)
        return super().__call__(scope, receive, send)


# Servers tell an ASGI 3 application by its ``__call__`` being a coroutine function.
if sys.version_info >= (3, 12):
    inspect.markcoroutinefunction(UnoApp.__call__)
else:
    UnoApp.__call__._is_coroutine = asyncio.coroutines._is_coroutine  # type: ignore[attr-defined]


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or get_settings()
    configure_logging(settings.log_level)

    @asynccontextmanager
    async def lifespan(application: FastAPI) -> AsyncIterator[None]:
        storage = await open_storage(settings)
        application.state.history = storage.history  # app/api/history.py reads it
        cluster = None
        if settings.shared:  # many workers: rooms shared through Redis leases
            from app.cluster import open_cluster  # noqa: PLC0415 (Redis only)

            cluster = await open_cluster(settings, storage.rooms)
        bus: Bus = cluster.bus if cluster is not None else InProcessBus()
        store = cluster.store if cluster is not None else storage.rooms
        hub = Hub(bus)
        registry = RoomRegistry(store, bus, settings, recorder=storage.recorder,
                                placement=cluster.placement if cluster is not None else None,
                                spectators=hub.spectators)
        if cluster is not None:
            await cluster.attach(registry, hub)
        if storage.outage is not None:
            storage.outage.on_back.append(registry.store_back)

        async def drain() -> None:  # SIGTERM: before uvicorn closes the sockets
            if cluster is not None:
                await cluster.drain(registry, hub)
            else:  # one worker: its clients come back to it once it runs again
                registry.draining = True
                hub.close_all(Close.RELOAD, "the server is restarting: reconnect")

        forget_drain = DRAIN.on_drain(drain)
        services = build_services(settings, store, bus, registry, hub)
        application.state.services = services
        runners = open_tournaments(services, storage, cluster)
        recovered = await registry.recover()
        log.info("serving; %d rooms recovered from the store", recovered)
        gc_schedule.settle()
        watch_gc_pauses()
        background = [
            asyncio.create_task(watch_loop_lag(), name="event-loop lag probe"),
            asyncio.create_task(gc_schedule.collect_on_schedule(), name="garbage collections"),
            *runners.start(),
        ]
        try:
            yield
        finally:
            forget_drain()
            for task in background:
                task.cancel()
            # Awaited, so their own clean-up runs now (the collector counts allocations again).
            await asyncio.gather(*background, return_exceptions=True)
            await runners.close()
            if cluster is not None:
                await cluster.close(registry)
            else:
                await registry.close()
            await bus.close()
            if storage.outage is not None:
                await storage.outage.close()
            if storage.engine is not None:
                from app.store.db import dispose_engine  # noqa: PLC0415 (SQL only)

                await dispose_engine(storage.engine)

    application = UnoApp(
        title="UNO",
        version="0.1.0",
        description="Real-time UNO rooms over WebSockets. See docs/protocol.md.",
        lifespan=lifespan,
    )
    application.add_middleware(BodyLimit, max_bytes=settings.max_body_bytes)
    errors.install(application)
    application.include_router(health.router)
    application.include_router(rooms.router)
    application.include_router(quick.router)
    application.include_router(history.router)
    application.include_router(tournaments.router)
    application.include_router(tournaments.socket_router)
    static = Path(settings.static_dir)
    if static.is_dir():  # after the API routes: "/" serves the browser client
        application.mount("/", StaticFiles(directory=static, html=True), name="static")
    return application


app = create_app()
