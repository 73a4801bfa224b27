"""JSON errors for every failure: ``{"error": {"code", "message"}}`` with a fitting status and
never a stack trace. ``ApiError`` is the edge's own refusal (limits, bad ids), with any headers
it needs (``Retry-After``)."""

from __future__ import annotations

import logging

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException

from app.codes import Err
from app.engine import EngineError
from app.rooms import RoomError
from app.rooms.metrics import METRICS
from app.store.errors import StoreUnavailable

log = logging.getLogger("uno.api")


class ApiError(Exception):
    def __init__(self, status: int, code: Err, message: str,
                 headers: dict[str, str] | None = None) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message
        self.headers = headers

    def response(self) -> JSONResponse:
        return error_response(self.status, self.code, self.message, self.headers)


def error_response(status: int, code: str, message: str,
                   headers: dict[str, str] | None = None) -> JSONResponse:
    METRICS.error(code)
    return JSONResponse({"error": {"code": code, "message": message}}, status_code=status,
                        headers=headers)


def install(app: FastAPI) -> None:
    @app.exception_handler(ApiError)
    async def api_error(request: Request, exc: ApiError) -> JSONResponse:
        return exc.response()

    @app.exception_handler(RoomError)
    async def room_error(request: Request, exc: RoomError) -> JSONResponse:
        return error_response(exc.status, exc.code, exc.message)

    @app.exception_handler(StoreUnavailable)
    async def store_away(request: Request, exc: StoreUnavailable) -> JSONResponse:
        return error_response(503, Err.STORE_UNAVAILABLE, "the database cannot take this now: "
                              "try again in a moment", {"Retry-After": "2"})

    @app.exception_handler(EngineError)
    async def engine_error(request: Request, exc: EngineError) -> JSONResponse:
        return error_response(400, exc.code, exc.message)

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in e['loc'] if p != 'body') or 'body'}: {e['msg']}"
            for e in exc.errors()
        )
        return error_response(422, "bad_request", problems or "the request is not valid")

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, exc: HTTPException) -> JSONResponse:
        code = {404: Err.NOT_FOUND, 405: Err.METHOD_NOT_ALLOWED}.get(exc.status_code,
                                                                    Err.BAD_REQUEST)
        return error_response(exc.status_code, code, str(exc.detail))

    @app.exception_handler(Exception)
    async def crash(request: Request, exc: Exception) -> JSONResponse:
        log.exception("unhandled error on %s %s", request.method, request.url.path)
        return error_response(500, "internal", "internal server error")
