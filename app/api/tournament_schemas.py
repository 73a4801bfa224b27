"""Bodies and messages of tournaments (PROTOCOL.md "Tournaments"): strict and bounded, as the
rooms' are."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, TypeAdapter

from app.engine import MAX_PLAYERS
from app.wire.fields import DbId, PlainRules, Secret
from app.wire.text import Name, SafeText


class _Body(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")


class CreateTournament(_Body):
    name: Name = Field(description="the tournament's name")
    format: Literal["swiss", "knockout"] = "swiss"
    preset: SafeText | None = Field(None, description="the tables' rules preset")
    rules: PlainRules | None = Field(None, description="single toggles (RULES.md keys)")
    table_size: Annotated[StrictInt, Field(ge=3, le=MAX_PLAYERS)] = 4
    rounds: Annotated[StrictInt, Field(ge=1, le=20)] = 3
    advance: Annotated[StrictInt, Field(ge=1, le=9)] = 2
    round_limit: Annotated[StrictInt, Field(ge=0, le=50)] = 0
    late_join: Annotated[StrictInt, Field(ge=-1, le=20)] = -1
    league: DbId | None = Field(None, description="a league the tables' matches count in")
    public: StrictBool = True


class JoinTournament(_Body):
    name: Name
    player_key: Secret | None = None


class TournamentCreated(BaseModel):
    code: str
    token: str = Field(description="the host's token: keep it secret")


class TournamentJoined(BaseModel):
    code: str
    participant: str
    token: str = Field(description="the participant's token, also their seat's at each table")


class _Message(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")


class StartMsg(_Message):
    type: Literal["start"]


class NextRoundMsg(_Message):
    type: Literal["next_round"]


class RemoveMsg(_Message):
    type: Literal["remove"]
    participant: Annotated[str, Field(min_length=1, max_length=32, pattern=r"^p[0-9a-f]+$")]


class WithdrawMsg(_Message):
    type: Literal["withdraw"]


TournamentMessage = Annotated[StartMsg | NextRoundMsg | RemoveMsg | WithdrawMsg,
                              Field(discriminator="type")]
MESSAGE: TypeAdapter[StartMsg | NextRoundMsg | RemoveMsg | WithdrawMsg] = TypeAdapter(
    TournamentMessage)
