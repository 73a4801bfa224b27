"""The whole state of one match, and its JSON-safe snapshot (RNG included)."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, Final

from .cards import Card, Color
from .randomness import GameRandom
from .rules import RuleSet, rules_from_dict

PLAYING: Final = "playing"
ROUND_OVER: Final = "round_over"
MATCH_OVER: Final = "match_over"

# Pending decisions: what the table waits for besides an ordinary turn.
CHALLENGE: Final = "challenge"  # the target of a Wild Draw Four: challenge or accept
PLAY_DRAWN: Final = "play_drawn"  # the drawer may play the drawn card or keep it
CHOOSE_COLOR: Final = "choose_color"  # a Wild turned as the first discard: the first player's color
STACK: Final = "stack"  # H-STACK / H-DEFLECT / H-REVDEFLECT: answer the draw card or take the draws
EXCHANGE: Final = "exchange"  # H-FIVE: both sides choose the card they give
SLAP: Final = "slap"  # U-CENTER: every other seat slaps; the last (or any who does not) draws 2


class Pending:
    """A plain class with slots rather than a dataclass: built on many draws, and its constructor
    is then native code in the compiled engine too. Fields as in ``PENDING_FIELDS``. A
    play_drawn pending and a Wild Draw Four's challenge are shared between games
    (``drawing._PLAY_DRAWN``, ``effects._CHALLENGES``): never change one; only an exchange's
    (H-FIVE) and a slap's (U-CENTER) change while they wait."""

    __slots__ = (
        "amount",
        "card",
        "done",
        "kind",
        "offender",
        "prev_color",
        "seat",
        "seats",
        "target",
        "target_card",
    )

    def __init__(
        self,
        kind: str,
        seat: int,
        card: Card = -1,
        offender: int = -1,
        prev_color: Color = -1,
        amount: int = 0,
        target: int = -1,
        target_card: Card = -1,
        seats: list[int] | None = None,
        done: list[int] | None = None,
    ) -> None:
        self.kind = kind
        self.seat = seat
        self.card = card  # play_drawn: the drawn card; exchange: the card ``seat`` gives
        self.offender = offender  # challenge / stack: who played the W+4 (-1: not challengeable)
        self.prev_color = prev_color  # challenge / stack: the color current before it
        self.amount = amount  # challenge / stack: the cards at stake
        self.target = target  # exchange: the other side
        self.target_card = target_card  # exchange: the card ``target`` gives
        self.seats: list[int] = [] if seats is None else seats  # slap: who must still slap
        self.done: list[int] = [] if done is None else done  # slap: who slapped, in order

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Pending):
            return NotImplemented
        return all(getattr(self, name) == getattr(other, name) for name in PENDING_FIELDS)

    __hash__ = None  # type: ignore[assignment]  # equal by value and mutable, as the dataclass was

    def __repr__(self) -> str:
        inner = ", ".join(f"{name}={getattr(self, name)!r}" for name in PENDING_FIELDS)
        return f"Pending({inner})"


PENDING_FIELDS: Final = (
    "kind",
    "seat",
    "card",
    "offender",
    "prev_color",
    "amount",
    "target",
    "target_card",
    "seats",
    "done",
)


@dataclass(slots=True, init=False)
class GameState:
    """Fields as declared here; what they start as (also what ``restore`` leaves a field that a
    snapshot lacks at) in ``__init__``."""

    rules: RuleSet
    players: int
    rng: GameRandom
    phase: str
    round_no: int
    dealer: int
    turn: int
    direction: int
    color: Color
    hands: list[list[Card]]
    draw_pile: list[Card]  # top is the end
    discard: list[Card]  # top is the end
    pending: Pending | None
    slap: Pending | None  # U-CENTER runs beside the turn and blocks it until resolved
    uno_called: list[bool]
    precall: int  # a seat that called UNO holding two cards on its turn
    catchable: dict[int, int]  # seat -> seat whose action closes
    catch_open_ms: dict[int, int]  # O-WINDOW grace end
    deadline_ms: int | None
    now_ms: int
    scores: list[int]
    round_wins: list[int]
    rounds_played: int
    next_first: int  # H-LAZY: the last winner starts the next round
    jumpable: bool  # H-JUMPIN: the top card was played (never the first discard)
    out: list[bool]  # H-LAST: seats that went out this round
    places: list[int]  # H-LAST: seats in the order they went out
    refills: list[int]  # H-SEVEN-ROUNDS: refills taken so far
    silence_by: int  # H-SILENT twos: the seat whose turn ends the silence
    silence_color: int  # H-SILENT wilds: the color whose change ends the silence
    silence_since: int  # the version at which the silence began (-1: no silence)
    last_round: dict[str, Any] | None
    match_result: dict[str, Any] | None
    version: int  # commands applied so far
    positions: dict[int, int]  # blocked table: position -> seen
    turns_started: int  # waits announced so far: each new one re-arms the turn timer
    # Section 8b. Their starting values fit snapshots taken before these rules existed.
    order: list[int]  # H-SHUFFLESEATS: seats in play order
    eliminated: list[int]  # H-ELIM: seats out of the match, in order
    clock_ends_ms: int | None  # H-BLITZ: when the round's clock runs out
    passed_turn: int  # H-HANDLIMIT: ``turns_started`` right after the last pass
    shown: list[list[str] | None]  # H-REVEAL: hands last shown
    # Derived, not in snapshots: each seat's index in ``order``; and whether the next seat is
    # simply ``(seat + direction) % players`` (seats in natural order, none out or eliminated),
    # which the hot paths test first.
    position: list[int]
    simple_turns: bool

    def __init__(self, rules: RuleSet, players: int, rng: GameRandom, now_ms: int = 0) -> None:
        # Written out rather than generated by dataclass: mypyc then compiles it (the generated
        # one stays interpreted), and it takes four arguments instead of forty-five.
        self.rules = rules
        self.players = players
        self.rng = rng
        self.phase = PLAYING
        self.round_no = 0
        self.dealer = 0
        self.turn = 0
        self.direction = 1
        self.color = 0
        self.hands = []
        self.draw_pile = []
        self.discard = []
        self.pending = None
        self.slap = None
        self.uno_called = []
        self.precall = -1
        self.catchable = {}
        self.catch_open_ms = {}
        self.deadline_ms = None
        self.now_ms = now_ms
        self.scores = []
        self.round_wins = []
        self.rounds_played = 0
        self.next_first = -1
        self.jumpable = False
        self.out = []
        self.places = []
        self.refills = []
        self.silence_by = -1
        self.silence_color = -1
        self.silence_since = -1
        self.last_round = None
        self.match_result = None
        self.version = 0
        self.positions = {}
        self.turns_started = 0
        self.order = []
        self.eliminated = []
        self.clock_ends_ms = None
        self.passed_turn = -1
        self.shown = []
        self.position = []
        self.simple_turns = True


_SIMPLE = ("rules", "rng", "pending", "slap", "catchable", "catch_open_ms", "positions")
_DERIVED = ("position", "simple_turns")


def snapshot(state: GameState) -> dict[str, Any]:
    """A JSON-safe dict from which ``restore`` rebuilds this exact state."""
    out: dict[str, Any] = {
        f.name: getattr(state, f.name)
        for f in fields(state)
        if f.name not in _SIMPLE and f.name not in _DERIVED
    }
    out["hands"] = [list(h) for h in state.hands]
    out["draw_pile"] = list(state.draw_pile)
    out["discard"] = list(state.discard)
    out["uno_called"] = list(state.uno_called)
    out["scores"] = list(state.scores)
    out["round_wins"] = list(state.round_wins)
    for name in ("out", "places", "refills", "order", "eliminated"):
        out[name] = list(getattr(state, name))
    out["shown"] = [None if h is None else list(h) for h in state.shown]
    out["rules"] = state.rules.to_dict()
    out["rng"] = state.rng.to_json()
    out["pending"] = _pending_dict(state.pending)
    out["slap"] = _pending_dict(state.slap)
    out["catchable"] = [[k, v] for k, v in state.catchable.items()]
    out["positions"] = [[k, v] for k, v in state.positions.items()]
    out["catch_open_ms"] = [[k, v] for k, v in state.catch_open_ms.items()]
    return out


def _pending_dict(p: Pending | None) -> dict[str, Any] | None:
    if p is None:
        return None
    values = {name: getattr(p, name) for name in PENDING_FIELDS}
    return {name: list(v) if isinstance(v, list) else v for name, v in values.items()}


def restore(data: dict[str, Any]) -> GameState:
    rng = GameRandom.from_json(data["rng"])
    state = GameState(rules_from_dict(data["rules"]), data["players"], rng)
    for name, value in data.items():
        if name not in _SIMPLE:
            setattr(state, name, value)
    state.hands = [list(h) for h in state.hands]
    state.pending = None if data["pending"] is None else Pending(**data["pending"])
    state.slap = None if data["slap"] is None else Pending(**data["slap"])
    state.catchable = {int(k): int(v) for k, v in data["catchable"]}
    state.positions = {int(k): int(v) for k, v in data.get("positions", [])}
    state.catch_open_ms = {int(k): int(v) for k, v in data["catch_open_ms"]}
    if not state.order:  # a snapshot from before H-SHUFFLESEATS
        state.order = list(range(state.players))
    seat_order_changed(state)
    return state


def seat_order_changed(state: GameState) -> None:
    """Recompute what ``order``, ``out`` and ``eliminated`` imply (H-SHUFFLESEATS, H-LAST,
    H-ELIM): each seat's position in the order, and whether turns are simple."""
    position = [0] * state.players
    for index, seat in enumerate(state.order):
        position[seat] = index
    state.position = position
    natural = state.order == list(range(state.players))
    state.simple_turns = natural and not any(state.out)
