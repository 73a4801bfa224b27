"""Pydantic schemas of the HTTP API (the OpenAPI docs are generated from these)."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, BeforeValidator, Field


def _league_id(value: object) -> object:
    """POST /api/leagues answers a number; accept it as it came, or as text."""
    return str(value) if isinstance(value, int) and not isinstance(value, bool) else value


LeagueId = Annotated[str, BeforeValidator(_league_id), Field(max_length=64)]


class CreateRoom(BaseModel):
    name: str = Field(min_length=1, max_length=32, description="the creator's display name")
    preset: str | None = Field(None, description="official, house, seeded or party")
    rules: dict[str, Any] | None = Field(None, description="single toggles (RULES.md keys)")
    public: bool = True
    max_players: int = Field(10, ge=2, le=10)
    seed: int | None = Field(None, description="makes every shuffle of the room reproducible")
    deal: dict[str, Any] | None = Field(None, description="UNO_TESTING only: a rigged first deal")
    player_key: str | None = Field(None, max_length=128)
    league: LeagueId | None = Field(None, description="a league id, as POST /api/leagues gave it")


class JoinRoom(BaseModel):
    name: str = Field(min_length=1, max_length=32)
    player_key: str | None = Field(None, max_length=128)


class SeatGranted(BaseModel):
    code: str
    seat: int
    token: str = Field(description="the only proof of the seat: keep it secret")


class SeatView(BaseModel):
    seat: int
    name: str
    bot: bool
    connected: bool


class RoomSummary(BaseModel):
    code: str
    phase: str
    host: str | None
    players: int
    max_players: int
    seats: list[SeatView]
    spectators: int
    public: bool
    preset: str
    rules: dict[str, Any]
    match: str | None
    open: bool = Field(description="seats are free and no match is running")


class ErrorDetail(BaseModel):
    code: str
    message: str


class ErrorBody(BaseModel):
    error: ErrorDetail


ERRORS: dict[int | str, dict[str, Any]] = {
    status: {"model": ErrorBody} for status in (400, 403, 404, 409, 422, 429, 503)
}
