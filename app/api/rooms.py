"""HTTP: create, join, list and look at rooms (PROTOCOL.md "HTTP"), within the limits per
client: rooms created per minute, open rooms nobody joined, unknown codes."""

from __future__ import annotations

import io
import math
from typing import Annotated, Any

import segno
from fastapi import APIRouter, Query, Request, Response
from fastapi.responses import JSONResponse

from app.codes import Err
from app.rooms import RoomHandle, RoomNotFound
from app.rooms.codes import is_room_code, new_token, token_hash
from app.rooms.messages import Granted, JoinRequest, WatchRequest
from app.rooms.spec import RoomSpec, SeatSpec

from .deps import Services, ServicesDep
from .errors import ApiError
from .schemas import (
    ERRORS,
    CreateRoom,
    JoinRoom,
    RequestGranted,
    RoomSummary,
    SeatGranted,
    SpectatorGranted,
    WatchRoom,
)

router = APIRouter(prefix="/api/rooms", tags=["rooms"], responses=ERRORS)

MAX_PAGE = 100


async def find_room(services: Services, code: str, client: str) -> RoomHandle:
    """The room, or 404; a client guessing codes in bulk gets 429 (PROTOCOL.md)."""
    unknown = services.limits.unknown_codes
    if unknown.blocked(client):
        raise ApiError(429, Err.RATE_LIMITED, "too many unknown room codes; slow down",
                       _retry_after(unknown.retry_after(client)))
    room = await services.registry.get(code) if is_room_code(code) else None
    if room is None:
        unknown.hit(client)
        raise RoomNotFound(code.upper() if is_room_code(code) else "?")
    return room


def count_room(services: Services, client: str) -> None:
    """Rooms one client may create: so many a minute, and so many that nobody joined."""
    settings = services.settings
    if services.registry.open_empty_rooms(client) >= settings.empty_rooms_per_client:
        raise ApiError(429, Err.TOO_MANY_ROOMS,
                       f"you have {settings.empty_rooms_per_client} open rooms that nobody "
                       "joined yet: play in one of them, or wait until they close",
                       _retry_after(60))
    created = services.limits.rooms_created
    if not created.allow(client):
        raise ApiError(429, Err.RATE_LIMITED,
                       f"at most {settings.rooms_per_minute} new rooms a minute; slow down",
                       _retry_after(created.retry_after(client)))


def count_token(services: Services, client: str) -> None:
    """Seats and spectator tokens one client may ask for per minute (then 429)."""
    limit = services.limits.tokens
    if not limit.allow(client):
        raise ApiError(429, Err.RATE_LIMITED,
                       f"at most {services.settings.tokens_per_minute} seats and spectator "
                       "tokens a minute; slow down", _retry_after(limit.retry_after(client)))


def _retry_after(seconds: float) -> dict[str, str]:
    return {"Retry-After": str(max(1, math.ceil(seconds)))}


async def league_rules(request: Request, league: int) -> dict[str, Any]:
    """What a league fixes for its rooms: its scoring and target."""
    history = getattr(request.app.state, "history", None)
    if history is None:
        raise ApiError(400, Err.BAD_REQUEST, "leagues need a database (UNO_DATABASE_URL)")
    info = await history.league(league)
    if info is None:
        raise ApiError(404, Err.NOT_FOUND, f"there is no league {league}")
    return {"scoring": info.scoring, "target": info.target}


@router.post("", status_code=201, response_model=SeatGranted)
async def create_room(
    body: CreateRoom, request: Request, services: ServicesDep
) -> dict[str, Any]:
    """Create a room; the creator takes seat 0 and is the host. With ``league`` the room
    plays by the league's scoring and target (no host command changes them), and its
    finished matches count there."""
    client = services.client(request)
    count_room(services, client)
    fixed = None if body.league is None else await league_rules(request, body.league)
    registry = services.registry
    token = new_token()
    creator = SeatSpec(body.name, token_hash(token), await registry.profile_id(body.player_key),
                       device=device_hash(body.device))
    spec = RoomSpec(
        seats=(creator,),
        preset=body.preset or "official",
        rules=dict(body.rules or {}),
        public=body.public,
        max_players=body.max_players,  # None: 10, or 4 for teams
        seed=body.seed,
        deal=None if body.deal is None else body.deal.model_dump(),
        league=None if body.league is None else str(body.league),
        fixed_rules=fixed,
        approval=body.approval,
        approval_watch=body.approval_watch,
        approval_seconds=body.approval_seconds,
    )
    code = await registry.create(spec, creator=client)
    return {"code": code, "seat": 0, "token": token}


def device_hash(device: str | None) -> str | None:
    """A browser's device key is kept only as its hash, as tokens are."""
    return None if device is None else token_hash(device)


WAITING: dict[int | str, dict[str, Any]] = {
    202: {"model": RequestGranted, "description": "O-APPROVAL: waiting for the host"}}


def _waiting(code: str, granted: Granted) -> JSONResponse:
    return JSONResponse({"code": code, "request": granted.request, "token": granted.token},
                        status_code=202)


@router.post("/{code}/join", response_model=SeatGranted, responses=WAITING)
async def join_room(
    code: str, body: JoinRoom, request: Request, services: ServicesDep
) -> Any:
    """Take the next free seat (between matches only); in a room with ``approval``, ask the
    host for one (202: the token waits for the host's answer)."""
    client = services.client(request)
    count_token(services, client)
    room = await find_room(services, code, client)
    granted = await room.join(JoinRequest(body.name, body.player_key, device_hash(body.device)))
    if granted.request is not None:
        return _waiting(room.code, granted)
    return {"code": room.code, "seat": granted.seat, "token": granted.token}


@router.post("/{code}/watch", response_model=SpectatorGranted, responses=WAITING)
async def watch_room(
    code: str, body: WatchRoom, request: Request, services: ServicesDep
) -> Any:
    """A spectator's own token: connecting with it keeps one identity (an id, a name) across
    reconnects and workers; a socket with no token stays an anonymous spectator. With
    ``approval_watch`` the host decides (202)."""
    client = services.client(request)
    count_token(services, client)
    room = await find_room(services, code, client)
    granted = await room.watch(WatchRequest(body.name, body.player_key,
                                            device_hash(body.device)))
    if granted.request is not None:
        return _waiting(room.code, granted)
    return {"code": room.code, "spectator": granted.spectator, "token": granted.token}


@router.get("", response_model=list[RoomSummary])
async def list_rooms(
    request: Request,
    response: Response,
    services: ServicesDep,
    limit: Annotated[int, Query(ge=1, le=MAX_PAGE)] = 50,
    offset: Annotated[int, Query(ge=0, le=100_000)] = 0,
) -> list[dict[str, Any]]:
    """Public rooms open to join or watch, on every worker, a page at a time: rooms open to
    join first, then the newest. ``Link: <...>; rel="next"`` names the next page."""
    rooms = await services.registry.listed_rooms()
    rooms.sort(key=lambda r: (not r.get("open"), -int(r.get("created_ms") or 0), r["code"]))
    page = rooms[offset:offset + limit]
    if offset + limit < len(rooms):
        url = request.url.include_query_params(limit=limit, offset=offset + limit)
        response.headers["Link"] = f'<{url.path}?{url.query}>; rel="next"'
    response.headers["X-Total-Count"] = str(len(rooms))
    return page


@router.get("/{code}/qr.svg", response_class=Response,
            responses={200: {"content": {"image/svg+xml": {}}}})
async def room_qr(code: str, request: Request, services: ServicesDep) -> Response:
    """The room's join link as a QR code (an SVG image), for the party screen: a phone that
    scans it opens the room's page and joins with a name."""
    room = await find_room(services, code, services.client(request))
    return qr_response(f"{str(request.base_url).rstrip('/')}/#/room/{room.code}",
                       f"Join room {room.code}")


def qr_response(link: str, title: str) -> Response:
    """``link`` as a QR code (an SVG image) a phone can scan from across the room."""
    svg = io.BytesIO()
    segno.make(link, error="m").save(svg, kind="svg", scale=10, border=2, xmldecl=False,
                                     svgns=True, title=title)
    return Response(svg.getvalue(), media_type="image/svg+xml",
                    headers={"Cache-Control": "public, max-age=300"})


@router.get("/{code}", response_model=RoomSummary)
async def room_summary(code: str, request: Request, services: ServicesDep) -> dict[str, Any]:
    """One room's public summary (no hands, no tokens)."""
    room = await find_room(services, code, services.client(request))
    return await room.summary()

