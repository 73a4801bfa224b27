"""HTTP and WebSocket of tournaments (PROTOCOL.md "Tournaments"): open one, join it, look at
it, and its socket of states and events, the host's commands and a participant's withdrawal.
Within the same limits per client as rooms (creating counts as a room, joining as a seat)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from fastapi import APIRouter, Request, Response, WebSocket
from pydantic import ValidationError

from app.codes import Close, Err
from app.engine import InvalidRules
from app.rooms.codes import token_hash
from app.rooms.spec import RoomSpec
from app.tournaments.commands import NextRound, Remove, Start, TournamentCommand, Who, Withdraw
from app.tournaments.progress import Settings as CourseSettings
from app.tournaments.progress import TournamentError
from app.tournaments.service import Opening, TournamentService, UnknownTournament

from .connection import Connection
from .deps import Services, ServicesDep
from .errors import ApiError
from .limits import RateLimiter
from .rooms import count_room, count_token, league_rules, qr_response
from .schemas import ERRORS
from .socket_reading import next_text
from .tournament_schemas import (
    MESSAGE,
    CreateTournament,
    JoinTournament,
    NextRoundMsg,
    RemoveMsg,
    StartMsg,
    TournamentCreated,
    TournamentJoined,
)
from .ws import forget_the_handshake, socket_query

router = APIRouter(prefix="/api/tournaments", tags=["tournaments"], responses=ERRORS)
socket_router = APIRouter()

STATUS = {Err.NOT_FOUND: 404, Err.FORBIDDEN: 403, Err.TOURNAMENT_FULL: 409,
          Err.TOO_LATE: 409, Err.WRONG_PHASE: 409, Err.NOT_ENOUGH_PLAYERS: 409,
          Err.UNAVAILABLE: 503, Err.SERVER_FULL: 503}


def tournaments(services: Services) -> TournamentService:
    if services.tournaments is None:
        raise ApiError(400, Err.BAD_REQUEST, "tournaments need a database (UNO_DATABASE_URL)")
    return services.tournaments


def refused(exc: TournamentError) -> ApiError:
    code = Err(exc.code) if exc.code in set(Err) else Err.BAD_REQUEST
    return ApiError(STATUS.get(code, 400), code, str(exc))


@router.post("", status_code=201, response_model=TournamentCreated)
async def create_tournament(body: CreateTournament, request: Request,
                            services: ServicesDep) -> dict[str, Any]:
    """TR-JOIN: open a tournament; the answer's token is the host's."""
    service = tournaments(services)
    count_room(services, services.client(request))
    fixed: dict[str, Any] = {} if body.league is None else await league_rules(request,
                                                                             body.league)
    fixed["round_limit"] = body.round_limit
    preset, rules = body.preset or "official", dict(body.rules or {})
    tables = {"preset": preset, "rules": rules, "fixed": fixed, "league": body.league}
    try:
        ruleset = RoomSpec(seats=(), preset=preset, rules=rules, fixed_rules=fixed,
                           host=None).ruleset()
    except InvalidRules as exc:
        raise ApiError(400, Err.BAD_RULES, exc.message) from None
    if ruleset.teams and body.table_size != 4:
        raise ApiError(400, Err.BAD_RULES, "H-TEAMS tables seat 4: set table_size to 4")
    settings = CourseSettings(body.format, body.table_size, body.rounds, body.advance,
                              body.late_join)
    code, token = await service.create(Opening(body.name, settings, tables, body.public,
                                               body.league))
    return {"code": code, "token": token}


@router.post("/{code}/join", response_model=TournamentJoined)
async def join_tournament(code: str, body: JoinTournament, request: Request,
                          services: ServicesDep) -> dict[str, Any]:
    service = tournaments(services)
    count_token(services, services.client(request))
    player_id = await services.registry.profile_id(body.player_key)
    try:
        participant, token = await service.join(code, body.name, player_id)
    except TournamentError as exc:
        raise refused(exc) from None
    return {"code": code.upper(), "participant": participant, "token": token}


@router.get("")
async def list_tournaments(services: ServicesDep) -> dict[str, Any]:
    """The public tournaments not over yet."""
    return {"tournaments": await tournaments(services).listing()}


@router.get("/{code}")
async def tournament(code: str, services: ServicesDep) -> dict[str, Any]:
    """Its standings, its participants, this round's tables (no tokens)."""
    try:
        return await tournaments(services).view(code)
    except TournamentError as exc:
        raise refused(exc) from None


@router.get("/{code}/qr.svg", response_class=Response,
            responses={200: {"content": {"image/svg+xml": {}}}})
async def tournament_qr(code: str, request: Request, services: ServicesDep) -> Response:
    """The join link as a QR code, for the party screen."""
    try:
        view = await tournaments(services).view(code)
    except TournamentError as exc:
        raise refused(exc) from None
    return qr_response(f"{str(request.base_url).rstrip('/')}/#/t/{view['code']}",
                       f"Join tournament {view['code']}")


@dataclass(frozen=True, slots=True)
class Follower:
    """A tournament socket as the watch sees it."""

    who: Who
    token: str | None
    conn: Connection

    def send(self, frame: str) -> None:
        self.conn.notice(frame)


def command_of(message: Any, who: Who) -> TournamentCommand:
    match message:
        case StartMsg():
            return Start()
        case NextRoundMsg():
            return NextRound()
        case RemoveMsg(participant=participant):
            return Remove(participant)
    return Withdraw()


@socket_router.websocket("/ws/tournaments/{code}")
async def tournament_socket(ws: WebSocket, code: str) -> None:
    await ws.accept()
    services: Services = ws.app.state.services
    sockets = services.limits.sockets
    ticket = sockets.open(services.client(ws))
    if ticket is None:
        await ws.close(Close.TOO_MANY_SOCKETS, "too many sockets from your address")
        return
    try:
        query = socket_query(ws.query_params)
        forget_the_handshake(ws)
        if query is None:
            await ws.close(Close.BAD_QUERY, "'token' is malformed")
            return
        service, watch = services.tournaments, services.tournament_watch
        if service is None or watch is None:
            await ws.close(Close.UNKNOWN_ROOM, "tournaments need a database")
            return
        try:
            who = await service.identify(code, query.token)
        except UnknownTournament:
            await ws.close(Close.UNKNOWN_ROOM, "unknown tournament")
            return
        if who is None:
            await ws.close(Close.BAD_TOKEN, "this token is nobody's in this tournament")
            return
        if query.token is not None and not sockets.claim(ticket, token_hash(query.token)):
            await ws.close(Close.TOO_MANY_SOCKETS, "too many sockets for one person")
            return
        conn = Connection(ws, None, services.settings.send_buffer_bytes)
        follower = Follower(who, query.token, conn)
        await watch.follow(code.upper(), follower)
        try:
            await _read(ws, services, service, code.upper(), follower, ticket.key)
        finally:
            conn.stop()
            watch.unfollow(code.upper(), follower)
    finally:
        sockets.close(ticket)


async def _read(ws: WebSocket, services: Services, service: TournamentService, code: str,
                follower: Follower, key: str) -> None:
    settings = services.settings
    limiter = RateLimiter(settings.spectator_rate, settings.rate_window_seconds,
                          settings.rate_abuse_extra)
    person_rate = services.limits.messages
    conn = follower.conn
    while conn.closing is None:
        text = await next_text(ws)
        if text is None:
            return
        if len(text.encode()) > settings.max_frame_bytes:
            conn.close(Close.TOO_BIG, f"frames are limited to {settings.max_frame_bytes} bytes")
            return
        if not (limiter.allow() and person_rate.allow(key)):
            if limiter.abusive or person_rate.abusive(key):
                conn.close(Close.FLOOD, "too many messages")
                return
            _error(conn, Err.RATE_LIMITED, "too many messages: slow down")
            continue
        try:
            parsed = MESSAGE.validate_json(text)
        except ValidationError as exc:
            _error(conn, Err.BAD_MESSAGE, _first(exc))
            continue
        try:
            await service.act(code, follower.who, command_of(parsed, follower.who))
        except TournamentError as exc:
            _error(conn, exc.code, str(exc))


def _first(exc: ValidationError) -> str:
    error = exc.errors()[0]
    where = ".".join(str(part) for part in error.get("loc", ()))
    return f"{where}: {error.get('msg', 'invalid')}"[:200] if where else "not a message"


def _error(conn: Connection, code: str, message: str) -> None:
    conn.send({"type": "error", "id": None, "code": code, "message": message})
