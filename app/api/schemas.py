"""Pydantic schemas of the HTTP API: strict, bounded, safe text (the OpenAPI docs come from
these)."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt

from app.engine import MAX_PLAYERS
from app.wire.fields import CardText, DbId, PlainRules, Secret
from app.wire.text import Name, SafeText


class _Body(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")


class RiggedDeal(_Body):
    """UNO_TESTING only: the first round dealt exactly so (PROTOCOL.md)."""

    dealer: Annotated[StrictInt, Field(ge=0, le=9)] = 0
    hands: Annotated[list[Annotated[list[CardText], Field(max_length=112)]],
                     Field(min_length=2, max_length=10)]
    discard: CardText
    draw_pile: Annotated[list[CardText], Field(max_length=112)] = []


class CreateRoom(_Body):
    name: Name = Field(description="the creator's display name (1-32 characters)")
    preset: SafeText | None = Field(
        None, description="official, house, seeded, party, crazy, teams or fast")
    rules: PlainRules | None = Field(None, description="single toggles (RULES.md keys)")
    public: StrictBool = True
    max_players: Annotated[StrictInt, Field(ge=2, le=MAX_PLAYERS)] | None = Field(
        None, description=f"seats (default {MAX_PLAYERS}; 4 under H-TEAMS)")
    seed: Annotated[StrictInt, Field(ge=0, le=2**53)] | None = Field(
        None, description="makes every shuffle of the room reproducible")
    deal: RiggedDeal | None = Field(None, description="UNO_TESTING only: a rigged first deal")
    player_key: Secret | None = None
    device: Secret | None = Field(
        None, description="a key the browser keeps: a ban (O-BAN) holds it, not the name")
    league: DbId | None = Field(None, description="a league id, as POST /api/leagues gave it")
    approval: StrictBool = Field(False, description="O-APPROVAL: joining waits for the host")
    approval_watch: StrictBool = Field(False, description="and so does watching")
    approval_seconds: Annotated[StrictInt, Field(ge=10, le=3600)] = Field(
        120, description="a join request left unanswered this long lapses")


class JoinRoom(_Body):
    name: Name
    player_key: Secret | None = None
    device: Secret | None = None


class QuickMatch(_Body):
    name: Name
    player_key: Secret | None = None
    device: Secret | None = None


class WatchRoom(_Body):
    name: Name | None = Field(None, description="the name other spectators see")
    player_key: Secret | None = None
    device: Secret | None = None


class RequestGranted(BaseModel):
    code: str
    request: int = Field(description="the join request, waiting for the host (O-APPROVAL)")
    token: str = Field(description="the person's token: once admitted it holds their place")


class SpectatorGranted(BaseModel):
    code: str
    spectator: int = Field(description="this spectator's id in the room")
    token: str = Field(description="the spectator's own token: keep it secret")


class SeatGranted(BaseModel):
    code: str
    seat: int
    token: str = Field(description="the only proof of the seat: keep it secret")


class SeatView(BaseModel):
    seat: int
    name: str
    bot: bool
    connected: bool
    away: bool = False


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
    created_ms: int = Field(0, description="when the room was made (epoch milliseconds)")
    approval: bool = Field(False, description="O-APPROVAL: joining waits for the host")
    approval_watch: bool = Field(False, description="and so does watching")
    tournament: dict[str, Any] | None = Field(None, description="a tournament's table")
    league: str | None = Field(None, description="the league its matches count in")
    result: dict[str, Any] | None = Field(
        None, description="once the match is over: its places, scores and winners")


class ErrorDetail(BaseModel):
    code: str
    message: str


class ErrorBody(BaseModel):
    error: ErrorDetail


ERRORS: dict[int | str, dict[str, Any]] = {
    status: {"model": ErrorBody} for status in (400, 403, 404, 409, 413, 422, 429, 503)
}
