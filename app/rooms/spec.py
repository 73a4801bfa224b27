"""A room to open, as one value: its rules, limits, league and the people seated in advance.
The HTTP route makes one with the creator in seat 0; a tournament makes one per table with its
participants seated. ``RoomRegistry.create`` opens it.

    spec = RoomSpec(seats=(SeatSpec("Ann", token_hash(token)),), preset="house")
    code = await registry.create(spec, creator=client_address)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from app.engine import InvalidRules, RiggedDeal, RuleSet, preset

from .errors import RoomError
from .meta import RoomMeta, SeatInfo, shared_rules
from .people import Audience


@dataclass(frozen=True, slots=True)
class SeatSpec:
    """A seat taken when the room opens: a person (by the hash of their token) or a bot."""

    name: str
    token_hash: str = ""  # "" for a bot
    player_id: int | None = None
    bot: bool = False
    device: str | None = None
    away: bool = False  # O-IDLE: played by a bot from the start (TR-ABSENT)

    def seat(self) -> SeatInfo:
        return SeatInfo(self.name, self.token_hash, bot=self.bot, player_id=self.player_id,
                        connected=self.bot, device=self.device, away=self.away)


@dataclass(frozen=True, slots=True)
class TableOf:
    """The tournament and round a room is a table of (``state.tournament``)."""

    tournament: str
    round: int

    def to_dict(self) -> dict[str, Any]:
        return {"code": self.tournament, "round": self.round}


@dataclass(frozen=True, slots=True)
class RoomSpec:
    """Everything a new room is made of. ``fixed_rules`` (a league's or a tournament's) win
    over ``rules``, and no host command changes them; ``host`` is a seat, or None (nobody
    hosts: a tournament's table)."""

    seats: tuple[SeatSpec, ...]
    preset: str = "official"
    rules: dict[str, Any] = field(default_factory=dict)
    public: bool = True
    max_players: int | None = None  # None: 10, or 4 under H-TEAMS
    seed: int | None = None  # set: every shuffle of the room is reproducible
    deal: dict[str, Any] | None = None  # UNO_TESTING only: the first round, rigged
    league: str | None = None
    fixed_rules: dict[str, Any] | None = None
    approval: bool = False  # O-APPROVAL
    approval_watch: bool = False
    approval_seconds: int = 120
    host: int | None = 0
    table_of: TableOf | None = None

    def ruleset(self) -> RuleSet:
        """The rules the room plays by (``bad_rules`` if they do not go together)."""
        return preset(self.preset, {**self.rules, **(self.fixed_rules or {})})

    def meta(self, code: str, now_ms: int, fresh_seed: int, testing: bool) -> RoomMeta:
        """The new room's meta, or a RoomError saying what in the spec cannot be."""
        ruleset = self.ruleset()
        if self.deal is not None:
            if not testing:
                raise RoomError("forbidden", "rigged deals need a server run with UNO_TESTING=1",
                                403)
            hands = self.deal.get("hands")
            try:
                RiggedDeal.parse(self.deal, len(hands) if isinstance(hands, list) else 0,
                                 ruleset.deck)
            except InvalidRules as exc:
                raise RoomError("bad_deal", exc.message, 400) from exc
        max_players = self.max_players or (4 if ruleset.teams else 10)
        if len(self.seats) > max_players:
            raise RoomError("room_full", f"{len(self.seats)} seats given for a table of "
                            f"{max_players}", 400)
        if self.host is not None and not 0 <= self.host < len(self.seats):
            raise RoomError("bad_target", f"the host's seat {self.host} is not given", 400)
        return RoomMeta(
            code=code,
            rules=shared_rules(ruleset.to_dict()),
            preset=self.preset,
            public=self.public,
            max_players=max_players,
            seed=self.seed if self.seed is not None else fresh_seed,
            seeded=self.seed is not None,
            deal=self.deal,
            league=self.league,
            fixed_rules=self.fixed_rules,
            host=self.host,
            created_ms=now_ms,
            seats=[seat.seat() for seat in self.seats],
            approval=self.approval,
            approval_watch=self.approval_watch,
            approval_seconds=self.approval_seconds,
            tournament=None if self.table_of is None else self.table_of.to_dict(),
            audience=Audience(),
        )
