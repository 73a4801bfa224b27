"""HTTP: create, join, list and look at rooms (PROTOCOL.md "HTTP")."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from app.rooms import Room, RoomError, RoomNotFound
from app.rooms.items import Item

from .deps import Services, ServicesDep
from .schemas import ERRORS, CreateRoom, JoinRoom, RoomSummary, SeatGranted

router = APIRouter(prefix="/api/rooms", tags=["rooms"], responses=ERRORS)


def client_key(request: Request) -> str:
    return request.client.host if request.client is not None else "unknown"


async def find_room(services: Services, code: str, client: str) -> Room:
    """The room, or 404; a client guessing codes in bulk gets 429 (PROTOCOL.md)."""
    if services.unknown_codes.blocked(client):
        raise RoomError("rate_limited", "too many unknown room codes; slow down", 429)
    room = await services.registry.get(code)
    if room is None:
        services.unknown_codes.hit(client)
        raise RoomNotFound(code.upper())
    return room


async def league_rules(request: Request, league: str) -> dict[str, Any]:
    history = getattr(request.app.state, "history", None)
    if history is None:
        raise RoomError("bad_request", "leagues need a database (UNO_DATABASE_URL)", 400)
    info = await history.league(int(league)) if league.isdigit() else None
    if info is None:
        raise RoomError("not_found", f"there is no league {league!r}", 404)
    return {"scoring": info.scoring, "target": info.target}


@router.post("", status_code=201, response_model=SeatGranted)
async def create_room(
    body: CreateRoom, request: Request, services: ServicesDep
) -> dict[str, Any]:
    """Create a room; the creator takes seat 0 and is the host. With ``league`` the room
    plays by the league's scoring and target, and its finished matches count there."""
    rules = body.rules
    if body.league is not None:
        rules = {**(rules or {}), **await league_rules(request, body.league)}
    code, seat, token = await services.registry.create(
        body.name,
        preset_name=body.preset,
        rules=rules,
        public=body.public,
        max_players=body.max_players,
        seed=body.seed,
        deal=body.deal,
        player_key=body.player_key,
        league=body.league,
    )
    return {"code": code, "seat": seat, "token": token}


@router.post("/{code}/join", response_model=SeatGranted)
async def join_room(
    code: str, body: JoinRoom, request: Request, services: ServicesDep
) -> dict[str, Any]:
    """Take the next free seat (between matches only)."""
    room = await find_room(services, code, client_key(request))
    seat, token = await room.ask(
        Item("join", message={"name": body.name, "player_key": body.player_key})
    )
    return {"code": room.code, "seat": seat, "token": token}


@router.get("", response_model=list[RoomSummary])
async def list_rooms(services: ServicesDep) -> list[dict[str, Any]]:
    """Public rooms open to join or watch, on every worker."""
    return await services.registry.listed_rooms()


@router.get("/{code}", response_model=RoomSummary)
async def room_summary(code: str, request: Request, services: ServicesDep) -> dict[str, Any]:
    """One room's public summary (no hands, no tokens)."""
    room = await find_room(services, code, client_key(request))
    return services.registry.summary(room)
