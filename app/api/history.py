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

Wiring: ``app.state.history = HistoryStore(engine)`` in the lifespan, then
``app.include_router(router)``; without it every endpoint answers 503 ``unavailable``. Every
error is ``{"error": {"code", "message"}}``, made by these handlers themselves, so no app-wide
handler is needed.
"""

from __future__ import annotations

import json
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import JSONResponse

from app.store.errors import StoreError
from app.store.history import HistoryStore
from app.store.leagues import MAX_PAGE, list_leagues

router = APIRouter(prefix="/api", tags=["history"])

_STATUS = {"not_found": 404, "conflict": 409, "bad_request": 400}


def get_history(request: Request) -> HistoryStore | None:
    history = getattr(request.app.state, "history", None)
    return history if isinstance(history, HistoryStore) else None


HistoryDep = Annotated[HistoryStore | None, Depends(get_history)]


def _need(history: HistoryStore | None) -> HistoryStore:
    if history is None:  # e.g. an app run without a database
        raise ApiError(503, "unavailable", "match history needs a database (UNO_DATABASE_URL)")
    return history


class ApiError(Exception):
    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message

    def response(self) -> JSONResponse:
        body = {"error": {"code": self.code, "message": self.message}}
        return JSONResponse(body, status_code=self.status)


def _id(value: str, what: str) -> int:
    if not value.isdigit() or len(value) > 12:
        raise ApiError(404, "not_found", f"no {what} {value!r}")
    return int(value)


async def _json_object(request: Request) -> dict[str, Any]:
    try:
        body = json.loads(await request.body() or b"null")
    except (ValueError, UnicodeDecodeError) as exc:
        raise ApiError(400, "bad_request", "the body must be a JSON object") from exc
    if not isinstance(body, dict):
        raise ApiError(400, "bad_request", "the body must be a JSON object")
    return body


def _text(body: dict[str, Any], key: str) -> str:
    value = body.get(key)
    if not isinstance(value, str):
        raise ApiError(400, "bad_request", f"{key!r} must be text")
    return value


def _found(value: Any, what: str, ident: int) -> Any:
    if value is None:
        raise ApiError(404, "not_found", f"no {what} {ident}")
    return value


async def _answer(work: Any, status: int = 200) -> JSONResponse:
    """Run the handler's work; store and request errors become JSON error bodies."""
    try:
        return JSONResponse(await work, status_code=status)
    except ApiError as exc:
        return exc.response()
    except StoreError as exc:
        return ApiError(_STATUS.get(exc.code, 400), exc.code, exc.message).response()


@router.post("/players", status_code=201, response_model=None)
async def create_player(request: Request, history: HistoryDep) -> JSONResponse:
    async def work() -> dict[str, Any]:
        store = _need(history)
        body = await _json_object(request)
        player = await store.create_player(_text(body, "name"))
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
        if not limit.isdigit():
            raise ApiError(400, "bad_request", "limit must be a whole number")
        return {"matches": await store.recent_matches(ident, int(limit))}

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
        body = await _json_object(request)
        target = body.get("target")
        if target is not None and (isinstance(target, bool) or not isinstance(target, int)):
            raise ApiError(400, "bad_request", "target must be a whole number")
        league = await store.create_league(_text(body, "name"), _text(body, "scoring"), target)
        return {"id": league}

    return await _answer(work(), 201)


@router.get("/leagues", response_model=None)
async def get_leagues(
    history: HistoryDep, limit: str = "20", before: str | None = None
) -> JSONResponse:
    """Every league, newest first; ``next`` is the ``before`` of the following page (or null)."""

    async def work() -> dict[str, Any]:
        store = _need(history)
        if not limit.isdigit() or not 1 <= int(limit) <= MAX_PAGE:
            raise ApiError(400, "bad_request", f"limit must be a whole number from 1 to {MAX_PAGE}")
        if before is not None and (not before.isdigit() or len(before) > 12):
            raise ApiError(400, "bad_request", "before must be a league id")
        size = int(limit)
        async with store.engine.begin() as conn:
            page = await list_leagues(conn, size + 1, None if before is None else int(before))
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
