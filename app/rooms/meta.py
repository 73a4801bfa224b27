"""A room's own state besides the engine's: seats, names, token hashes, host, phase, rules, and
its people besides the seats (``audience``: named spectators, the queue, join requests, bans).

Stored as the ``meta`` dict of ``RoomStore`` with every change, so the latest stored meta is the
room's current meta.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from typing import Any

from app.engine import MAX_PLAYERS
from app.jsonwire import compact_json

from .people import Audience

LOBBY = "lobby"
IN_MATCH = "in_match"  # the engine's phase says playing / round_over / match_over


@dataclass(slots=True)
class SeatInfo:
    name: str
    token_hash: str  # "" for a bot
    bot: bool = False
    player_id: int | None = None  # the guest profile, proven by its key at join
    connected: bool = False
    disconnected_ms: int | None = None  # when the last connection of this seat closed
    stand_in: bool = False  # a bot holding the seat of a player who left mid-match
    device: str | None = None  # the hash of the browser's device key (O-BAN)
    away: bool = False  # O-IDLE: a bot plays the seat until its person is back
    timeouts: int = 0  # O-IDLE: turns in a row that ran out

    @property
    def human(self) -> bool:
        return not self.bot


@dataclass(slots=True)
class RoomMeta:
    code: str
    rules: dict[str, Any]
    preset: str = "official"
    public: bool = True
    max_players: int = MAX_PLAYERS
    seed: int = 0
    seeded: bool = False  # created with a seed: match k is dealt from seed + k (replayable)
    deal: dict[str, Any] | None = None  # UNO_TESTING: the first match's first round
    league: str | None = None
    fixed_rules: dict[str, Any] | None = None  # what the league fixes: no host may change it
    phase: str = LOBBY
    host: int | None = 0
    match: str | None = None
    matches_started: int = 0
    created_ms: int = 0
    seats: list[SeatInfo] = field(default_factory=list)
    approval: bool = False  # O-APPROVAL: joining waits for the host
    approval_watch: bool = False  # and so does watching
    approval_seconds: int = 120  # a request left unanswered this long lapses
    tournament: dict[str, Any] | None = None  # a tournament's table: {"code", "round"}
    audience: Audience = field(default_factory=Audience)

    def to_dict(self) -> dict[str, Any]:
        """``dataclasses.asdict(self)``, written out: asdict deep-copies every value through
        ``copy.deepcopy`` (44 us against 5 us for four seats), and the meta is stored with
        every change of a seat: 2,000 sockets reconnecting at once change thousands."""
        data = {name: _plain(getattr(self, name)) for name in _META_FIELDS}
        data["seats"] = [{name: getattr(seat, name) for name in _SEAT_FIELDS}
                         for seat in self.seats]
        data["audience"] = self.audience.to_dict()
        return data

    def copy(self) -> RoomMeta:
        """A copy whose seats and audience may be changed without touching this one's. The
        rules are shared: they are replaced (``host.change_rules``), never changed in place, and
        a copy of them per meta (a dict of 40 toggles, 800 bytes) stayed alive with each."""
        return replace(self, seats=[replace(seat) for seat in self.seats],
                       audience=self.audience.copy())

    @staticmethod
    def from_dict(data: dict[str, Any]) -> RoomMeta:
        values = {k: v for k, v in data.items() if k != "v"}  # its format: the rebuild's
        seats = [
            SeatInfo(**{k: v for k, v in s.items() if k != "player_key"})  # never keep a key
            for s in values.pop("seats", [])
        ]
        audience = Audience.from_dict(values.pop("audience", None))
        return RoomMeta(**values, seats=seats, audience=audience)

    def seat_of_token(self, hashed: str) -> int | None:
        for seat, info in enumerate(self.seats):
            if info.token_hash and info.token_hash == hashed:
                return seat
        return None

    def public_seats(self) -> list[dict[str, Any]]:
        return [
            {"seat": s, "name": info.name, "bot": info.bot,
             "connected": info.connected or info.bot, "away": info.away}
            for s, info in enumerate(self.seats)
        ]


_SEAT_FIELDS = [f.name for f in fields(SeatInfo)]  # plain values only
_META_FIELDS = [f.name for f in fields(RoomMeta) if f.name not in ("seats", "audience")]


def _plain(value: Any) -> Any:
    """A copy of JSON-like ``value`` (dicts and lists copied, the rest shared: immutable)."""
    if isinstance(value, dict):
        return {key: _plain(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_plain(item) for item in value]
    return value


# Rule sets as rooms hold them, one dict for each distinct set (most rooms play a preset): a
# room's rules are a dict of 40 toggles, 1.9 KB, and rules are replaced, never changed in place
# (``RoomMeta.copy``). At most ``_SHARED_MAX`` sets are held; past that a room keeps its own.
_SHARED: dict[str, dict[str, Any]] = {}
_SHARED_MAX = 1024


def shared_rules(rules: dict[str, Any]) -> dict[str, Any]:
    """The one dict held for rules equal to ``rules`` (``rules`` itself, the first time)."""
    key = compact_json(rules)
    held = _SHARED.get(key)
    if held is not None:
        return held
    if len(_SHARED) < _SHARED_MAX:
        _SHARED[key] = rules
    return rules
