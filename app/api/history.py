"""HTTP endpoints for profiles, match history and leagues (PROTOCOL.md "HTTP").

    POST /api/players {"name"}                      -> 201 {"id", "name", "key"}
    GET  /api/players/{id}                          -> {"id", "name", "matches", "wins", ...}
    GET  /api/players/{id}/matches?limit=20         -> {"matches": [...]} newest first
    GET  /api/matches/{id}                          -> players, rounds (hands, points), totals,
                                                       winner(s)
    GET  /api/matches/{id}/events                   -> {"match", "status", "log": [...]}
    POST /api/leagues {"name", "scoring", "target"?} -> 201 {"id"}
    GET  /api/leagues?limit=20&before=ID            -> {"leagues": [{"id", "name", "scoring",
                                                       "target", "created_at", "matches",
                                                       "players"}], "next": ID | null}
                                                       newest first
    GET  /api/leagues/{id}                          -> {"name", "scoring", "target",
                                                       "standings": [...]} best first

Wiring: ``app.state.history = HistoryStore(engine, rooms.in_writer)`` in the lifespan, then
``app.include_router(router)``; without it every endpoint answers 503 ``unavailable``. Every
error is ``{"error": {"code", "message"}}``, made by these handlers themselves, so no app-wide
handler is needed.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, TypeVar

from fastapi import APIRouter, Depends, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field, StrictInt, ValidationError

from app.codes import Err
from app.store.errors import StoreError
from app.store.history import HistoryStore
from app.store.leagues import MAX_PAGE, list_leagues
from app.wire.fields import parse_id
from app.wire.text import Name

from .errors import ApiError

router = APIRouter(prefix="/api", tags=["history"])

_STATUS = {"not_found": 404, "conflict": 409, "bad_request": 400}


def get_history(request: Request) -> HistoryStore | None:
    history = getattr(request.app.state, "history", None)
    return history if isinstance(history, HistoryStore) else None


HistoryDep = Annotated[HistoryStore | None, Depends(get_history)]


def _need(history: HistoryStore | None) -> HistoryStore:
    if history is None:  # e.g. an app run without a database
        raise ApiError(503, Err.UNAVAILABLE,
                       "match history needs a database (UNO_DATABASE_URL)")
    return history


def _id(value: str, what: str) -> int:
    ident = parse_id(value)
    if ident is None:
        raise ApiError(404, Err.NOT_FOUND, f"no {what} {value[:20]!r}")
    return ident


def _page_size(value: str, high: int) -> int:
    size = parse_id(value)
    if size is None or size > high:
        raise ApiError(400, Err.BAD_REQUEST, f"limit must be a whole number from 1 to {high}")
    return size


class NewPlayer(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")
    name: Name


class NewLeague(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")
    name: Name
    scoring: Literal["winner_takes", "lowest_wins"]
    target: Annotated[StrictInt, Field(ge=1, le=100_000)] | None = None


_BODY = TypeVar("_BODY", bound=BaseModel)


async def _body(request: Request, model: type[_BODY]) -> _BODY:
    try:
        return model.model_validate_json(await request.body() or b"null")
    except ValidationError as exc:
        first = exc.errors(include_url=False, include_input=False)[0]
        where = ".".join(str(p) for p in first["loc"]) or "body"
        why = str(first["msg"]).removeprefix("Value error, ")
        raise ApiError(400, Err.BAD_REQUEST, f"{where}: {why}") from None


def _found(value: Any, what: str, ident: int) -> Any:
    if value is None:
        raise ApiError(404, Err.NOT_FOUND, f"no {what} {ident}")
    return value


async def _answer(work: Any, status: int = 200) -> JSONResponse:
    """Run the handler's work; store and request errors become JSON error bodies."""
    try:
        return JSONResponse(await work, status_code=status)
    except ApiError as exc:
        return exc.response()
    except StoreError as exc:
        status = _STATUS.get(exc.code, 400)
        return ApiError(status, Err(exc.code) if exc.code in _STATUS else Err.BAD_REQUEST,
                        exc.message).response()


@router.post("/players", status_code=201, response_model=None)
async def create_player(request: Request, history: HistoryDep) -> JSONResponse:
    async def work() -> dict[str, Any]:
        store = _need(history)
        body = await _body(request, NewPlayer)
        player = await store.create_player(body.name)
        return {"id": player.id, "name": player.name, "key": player.key}

    return await _answer(work(), 201)


@router.get("/players/{player_id}", response_model=None)
async def get_player(player_id: str, history: HistoryDep) -> JSONResponse:
    async def work() -> dict[str, Any]:
        store = _need(history)
        ident = _id(player_id, "player")
        return dict(_found(await store.player(ident), "player", ident))

    return await _answer(work())


@router.get("/players/{player_id}/matches", response_model=None)
async def get_player_matches(
    player_id: str, history: HistoryDep, limit: str = "20"
) -> JSONResponse:
    async def work() -> dict[str, Any]:
        store = _need(history)
        ident = _id(player_id, "player")
        _found(await store.player(ident), "player", ident)
        size = parse_id(limit)
        if size is None:
            raise ApiError(400, Err.BAD_REQUEST, "limit must be a whole number from 1")
        return {"matches": await store.recent_matches(ident, size)}

    return await _answer(work())


@router.get("/matches/{match_id}", response_model=None)
async def get_match(match_id: str, history: HistoryDep) -> JSONResponse:
    async def work() -> dict[str, Any]:
        store = _need(history)
        ident = _id(match_id, "match")
        return dict(_found(await store.match(ident), "match", ident))

    return await _answer(work())


@router.get("/matches/{match_id}/events", response_model=None)
async def get_match_events(match_id: str, history: HistoryDep) -> JSONResponse:
    async def work() -> dict[str, Any]:
        store = _need(history)
        ident = _id(match_id, "match")
        return dict(_found(await store.match_events(ident), "match", ident))

    return await _answer(work())


@router.post("/leagues", status_code=201, response_model=None)
async def create_league(request: Request, history: HistoryDep) -> JSONResponse:
    async def work() -> dict[str, Any]:
        store = _need(history)
        body = await _body(request, NewLeague)
        league = await store.create_league(body.name, body.scoring, body.target)
        return {"id": league}

    return await _answer(work(), 201)


@router.get("/leagues", response_model=None)
async def get_leagues(
    history: HistoryDep, limit: str = "20", before: str | None = None
) -> JSONResponse:
    """Every league, newest first; ``next`` is the ``before`` of the following page (or null)."""

    async def work() -> dict[str, Any]:
        store = _need(history)
        size = _page_size(limit, MAX_PAGE)
        older = None if before is None else parse_id(before)
        if before is not None and older is None:
            raise ApiError(400, Err.BAD_REQUEST, "before must be a league id")
        async with store.engine.begin() as conn:
            page = await list_leagues(conn, size + 1, older)
        more = len(page) > size
        page = page[:size]
        return {"leagues": page, "next": page[-1]["id"] if more else None}

    return await _answer(work())


@router.get("/leagues/{league_id}", response_model=None)
async def get_league(league_id: str, history: HistoryDep) -> JSONResponse:
    async def work() -> dict[str, Any]:
        store = _need(history)
        ident = _id(league_id, "league")
        return dict(_found(await store.league_table(ident), "league", ident))

    return await _answer(work())
