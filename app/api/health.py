"""/healthz (process up), /readyz (store and bus reachable), /metrics (Prometheus text)."""

from __future__ import annotations

import asyncio
import logging

from fastapi import APIRouter
from fastapi.responses import JSONResponse, PlainTextResponse

from app.build import build_id
from app.draining import DRAIN
from app.engine import COMPILED
from app.rooms.metrics import METRICS

from .deps import ServicesDep

router = APIRouter(tags=["health"])
log = logging.getLogger("uno.api")


@router.get("/healthz")
async def healthz() -> dict[str, str]:
    """The process is up; ``build`` names the server's build, ``engine`` says which build of
    the rules engine it runs."""
    return {"status": "ok", "build": build_id(), "engine": "compiled" if COMPILED else "sources"}


@router.get("/readyz")
async def readyz(services: ServicesDep) -> JSONResponse:
    checks: dict[str, str] = {}
    if DRAIN.draining:
        return JSONResponse({"status": "not_ready", "worker": "draining"}, status_code=503)
    try:
        async with asyncio.timeout(2):
            await services.store.load_room("----")
        checks["database"] = "ok"
    except Exception as exc:  # any failure means not ready; say which
        log.warning("readyz: database: %r", exc)
        checks["database"] = "unreachable"
    try:
        async with asyncio.timeout(2):
            ok = await services.bus.ping()
        checks["bus"] = "ok" if ok else "unreachable"
    except Exception as exc:
        log.warning("readyz: bus: %r", exc)
        checks["bus"] = "unreachable"
    ready = all(v == "ok" for v in checks.values())
    body = {"status": "ready" if ready else "not_ready", **checks}
    return JSONResponse(body, status_code=200 if ready else 503)


@router.get("/metrics", response_class=PlainTextResponse)
async def metrics(services: ServicesDep) -> str:
    lines = [
        "# HELP uno_rooms Rooms loaded on this worker.",
        "# TYPE uno_rooms gauge",
        f"uno_rooms {len(services.registry.rooms)}",
        "# HELP uno_sockets Open WebSocket connections on this worker.",
        "# TYPE uno_sockets gauge",
        f"uno_sockets {services.hub.count()}",
        "# HELP uno_commands_total Commands accepted and published.",
        "# TYPE uno_commands_total counter",
        f"uno_commands_total {METRICS.commands}",
        "# HELP uno_commands_per_second Accepted commands per second over the last 10 s.",
        "# TYPE uno_commands_per_second gauge",
        f"uno_commands_per_second {METRICS.commands_per_second():.3f}",
    ]
    lines += METRICS.latency.render(
        "uno_command_latency_seconds", "From a command's arrival to its last event sent out."
    )
    lines += METRICS.commits.render(
        "uno_store_commit_seconds", "Storing one accepted command (its group commit included)."
    )
    lines += METRICS.loop_lag.render(
        "uno_event_loop_lag_seconds", "How late the event loop woke a 100 ms sleeper."
    )
    lines += METRICS.gc_pauses.render(
        "uno_gc_pause_seconds", "Garbage collections (every generation)."
    )
    lines += [
        "# HELP uno_errors_total Errors answered, by code.",
        "# TYPE uno_errors_total counter",
    ]
    for code, count in sorted(METRICS.errors.items()):
        lines.append(f'uno_errors_total{{code="{code}"}} {count}')
    lines += [
        "# HELP uno_store_transactions_total Transactions that stored accepted commands (a "
        "group commit stores several).",
        "# TYPE uno_store_transactions_total counter",
        f"uno_store_transactions_total {services.store.transactions}",
    ]
    bus = services.bus.status()
    lines += [
        "# HELP uno_bus_connected 1 while the bus listener is connected (always 1 in-process).",
        "# TYPE uno_bus_connected gauge",
        f"uno_bus_connected {1 if bus.connected else 0}",
        "# HELP uno_bus_reconnects_total Times the Redis listener reconnected and resubscribed.",
        "# TYPE uno_bus_reconnects_total counter",
        f"uno_bus_reconnects_total {bus.reconnects}",
    ]
    return "\n".join(lines) + "\n"
