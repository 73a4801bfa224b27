"""The ``state`` a connection gets: the engine's view for its seat plus the room's own parts.

Every state carries ``now_ms``, the server's clock (epoch milliseconds) when the view was made,
the clock ``deadline_ms`` is on: a client counts down ``deadline_ms - now_ms`` from the moment
the frame arrives, whatever its own clock says.
"""

from __future__ import annotations

import time
from typing import Any

from app.build import build_id
from app.engine import Game
from app.engine.standings import match_result
from app.engine.view import lobby_view

from .meta import LOBBY, RoomMeta
from .people import Person
from .queue import queue_public


def server_now_ms() -> int:
    """Epoch milliseconds: the wall clock rooms set deadlines on (``room.wall_clock_ms``)."""
    return int(time.time() * 1000)


def state_view(
    meta: RoomMeta, game: Game | None, person: Person, seq: int, now_ms: int | None = None,
    spectators: int = 0,
) -> dict[str, Any]:
    """PROTOCOL.md's state view for ``person`` (a seat, or a spectator): the engine's view (its
    lobby view before a match: the same keys) plus the room's own parts. Only the engine reads
    hands. A named spectator's ``you`` says who they are.

    ``now_ms``: the room's clock now (default: the wall clock, which rooms run on)."""
    now = server_now_ms() if now_ms is None else now_ms
    if person.request is not None:
        return waiting_view(meta, person.request, seq, now)
    seat = person.seat
    if game is None or meta.phase == LOBBY:
        view = lobby_view(len(meta.seats), bool(meta.rules.get("teams")), seat)
    else:
        view = game.view(seat, now)
    names = meta.public_seats()
    for entry in view["seats"]:
        entry.update(names[entry["seat"]])
    view.update(
        code=meta.code,
        rules=meta.rules,
        preset=meta.preset,
        seq=seq,
        host=meta.host,
        match=meta.match,
        public=meta.public,
        max_players=meta.max_players,
        spectators=spectators,
        now_ms=now,
        tournament=meta.tournament,
        build=build_id(),
        approval=meta.approval,
        queue=queue_public(meta),
    )
    if person.spectator is not None:
        view["you"] = spectator_you(meta, person.spectator)
    if seat is not None and seat == meta.host:  # O-APPROVAL: who waits, for the host's eyes
        view["requests"] = [{"request": r.id, "name": r.name, "watch": r.watch}
                            for r in meta.audience.requests]
    return view


def waiting_view(meta: RoomMeta, request: int, seq: int, now: int) -> dict[str, Any]:
    """O-APPROVAL: what a person waiting to be let in sees: that they wait, nothing of the
    table."""
    asked = next((r for r in meta.audience.requests if r.id == request), None)
    name = asked.name if asked is not None else None
    return {"code": meta.code, "seq": seq, "now_ms": now, "waiting": True,
            "you": {"waiting": True, "request": request, "name": name}}


def spectator_you(meta: RoomMeta, spectator: int) -> dict[str, Any] | None:
    """A named spectator's ``you``: their id, their name, their place in the queue."""
    audience = meta.audience
    found = audience.spectator(spectator)
    if found is None:
        return None
    return {"spectator": found.id, "name": found.name, "queued": audience.queued(found.id)}


def summary(meta: RoomMeta, game: Game | None, spectators: int) -> dict[str, Any]:
    """A room's public summary (GET /api/rooms/{code}): no hands, no tokens."""
    phase = meta.phase if game is None or meta.phase == LOBBY else game.phase
    host = meta.seats[meta.host].name if meta.host is not None else None
    return {
        "code": meta.code,
        "phase": phase,
        "host": host,
        "players": len(meta.seats),
        "max_players": meta.max_players,
        "seats": meta.public_seats(),
        "spectators": spectators,
        "public": meta.public,
        "preset": meta.preset,
        "rules": meta.rules,
        "match": meta.match,
        "open": phase in (LOBBY, "match_over") and len(meta.seats) < meta.max_players,
        "created_ms": meta.created_ms,
        "approval": meta.approval,
        "approval_watch": meta.approval_watch,
        "tournament": meta.tournament,
        "league": meta.league,
        # Once the match is over, its result (places, scores): a tournament reads its tables'.
        "result": match_result(game.state) if game is not None and phase == "match_over"
        else None,
    }
