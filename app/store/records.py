"""The room log's record format, and how a record is replayed: defined once, for the live room
(which writes records through the typed lines below, never as literal dicts), its rebuild after
a restart or failover, and the match replay.

A record is one accepted command (``RoomRecord``); its ``command`` is one of three lines:

- ``StartLine``: a match dealt from its ``seed``, ``rules``, ``players`` and rigged ``deal``;
- ``EngineLine``: a command the engine applied (the PROTOCOL.md message), replayed through the
  engine for ``engine_seat(record.seat)`` (a record with no seat is the room's own: its timer's
  ``timeout``, applied for seat 0, where the engine ignores the seat);
- a ``RoomLine``: the room's own (seating, presence, host, rules, the audience), marked
  ``"room": true``; it went around the engine and replays as nothing (its effect is in the
  meta stored with it).

Every record, snapshot and meta carries the format it was written in (``"v"``): 1 (none said:
written before there were versions; room lines unmarked, ``LEGACY_ROOM_KINDS``), 2 (room lines
marked), 3 (a snapshot's ``rng`` is the game's seed and the words drawn, ``GameRandom``, where
it was the generator's state, which 3 still reads). A worker reads a room only if every part
of it is in a format it knows (``check_readable``): during a rolling deploy a worker of the
older build leaves a room a newer one wrote to a worker that can read it.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, ClassVar, Final

from app.engine import (
    Command,
    Event,
    Game,
    RiggedDeal,
    command_to_wire,
    parse_command,
    rules_from_dict,
)

START: Final = "start"
RECORD_FORMAT: Final = 3  # the format this build writes, and the newest it reads
FORMAT_KEY: Final = "v"


class FormatTooNew(Exception):
    """A room written in a format newer than this build reads (a rolling deploy's newer
    build wrote to it): it is for a worker of that build."""

    def __init__(self, part: str, found: int, readable: int) -> None:
        super().__init__(f"{part} is in format {found}; this build reads up to {readable}")


def format_for(configured: int, testing: bool) -> int:
    """The format a worker writes and reads: its build's, or (tests) a newer one it poses as."""
    return configured if testing and configured > RECORD_FORMAT else RECORD_FORMAT


def stamped(data: dict[str, Any], written: int) -> dict[str, Any]:
    """``data`` (a record's command, a snapshot, a meta) marked with the format it is in."""
    data[FORMAT_KEY] = written
    return data


def format_of(data: dict[str, Any]) -> int:
    """The format a record's command, a snapshot or a meta was written in."""
    return int(data.get(FORMAT_KEY, 1))


def check_readable(meta: dict[str, Any], snapshot: dict[str, Any] | None,
                   commands: list[dict[str, Any]], readable: int = RECORD_FORMAT) -> None:
    """Raise ``FormatTooNew`` if any part of a stored room is newer than ``readable``."""
    parts = [("the room's meta", meta), ("its snapshot", snapshot or {})]
    parts += [(f"record {n}", command) for n, command in enumerate(commands)]
    for part, data in parts:
        found = format_of(data)
        if found > readable:
            raise FormatTooNew(part, found, readable)
# The kinds of room lines as written before they were marked: never extend this set.
LEGACY_ROOM_KINDS: Final = frozenset(
    {"join", "presence", "add_bot", "rules", "host", "left", "kicked", "replace", "freed",
     "react", "watching"}
)


@dataclass(frozen=True, slots=True)
class StartLine:
    players: int
    seed: int
    rules: dict[str, Any]
    deal: dict[str, Any] | None
    match: str

    def to_command(self) -> dict[str, Any]:
        return {"type": START, "players": self.players, "seed": self.seed,
                "rules": self.rules, "deal": self.deal, "match": self.match}


@dataclass(frozen=True, slots=True)
class EngineLine:
    command: Command

    def to_command(self) -> dict[str, Any]:
        return command_to_wire(self.command)


@dataclass(frozen=True, slots=True)
class RoomLine:
    """A line of the room's own: each kind is a subclass naming its ``kind`` and its fields."""

    kind: ClassVar[str]

    def to_command(self) -> dict[str, Any]:
        return {"type": self.kind, "room": True,
                **{f.name: getattr(self, f.name) for f in fields(self)}}


@dataclass(frozen=True, slots=True)
class Joined(RoomLine):
    kind: ClassVar[str] = "join"
    seat: int
    name: str


@dataclass(frozen=True, slots=True)
class BotSeated(RoomLine):
    kind: ClassVar[str] = "add_bot"
    seat: int


@dataclass(frozen=True, slots=True)
class Presence(RoomLine):
    """The record's seat connected (its first socket) or disconnected (its last)."""

    kind: ClassVar[str] = "presence"
    connected: bool


@dataclass(frozen=True, slots=True)
class RulesChanged(RoomLine):
    kind: ClassVar[str] = "rules"
    preset: str | None
    rules: dict[str, Any]


@dataclass(frozen=True, slots=True)
class HostPassed(RoomLine):
    kind: ClassVar[str] = "host"
    host: int


@dataclass(frozen=True, slots=True)
class SeatLeft(RoomLine):
    """Between matches, ``seat`` went (the seats after it moved down)."""

    kind: ClassVar[str] = "left"
    seat: int


@dataclass(frozen=True, slots=True)
class SeatKicked(RoomLine):
    kind: ClassVar[str] = "kicked"
    seat: int


@dataclass(frozen=True, slots=True)
class Replaced(RoomLine):
    """During a match a bot took ``seat`` (``reason``: left, kicked, abandoned)."""

    kind: ClassVar[str] = "replace"
    seat: int
    reason: str


@dataclass(frozen=True, slots=True)
class SeatsFreed(RoomLine):
    kind: ClassVar[str] = "freed"
    seats: list[int]


@dataclass(frozen=True, slots=True)
class Reacted(RoomLine):
    kind: ClassVar[str] = "react"
    emoji: str


@dataclass(frozen=True, slots=True)
class Watching(RoomLine):
    kind: ClassVar[str] = "watching"
    spectators: int


@dataclass(frozen=True, slots=True)
class LobbyChat(RoomLine):
    kind: ClassVar[str] = "chat"
    text: str


@dataclass(frozen=True, slots=True)
class SpectatorNamed(RoomLine):
    """A spectator took a token of their own (``POST /api/rooms/{code}/watch``)."""

    kind: ClassVar[str] = "watch"
    spectator: int
    name: str | None


@dataclass(frozen=True, slots=True)
class SeatAway(RoomLine):
    """O-IDLE: a bot plays ``seat`` from now on (``away``), or its person is back."""

    kind: ClassVar[str] = "away"
    seat: int
    away: bool


@dataclass(frozen=True, slots=True)
class QueueChanged(RoomLine):
    """O-QUEUE: the queue for a seat, as it is now (spectator ids, first to sit first)."""

    kind: ClassVar[str] = "queue"
    queue: list[int]


@dataclass(frozen=True, slots=True)
class SeatedFromQueue(RoomLine):
    """O-QUEUE: queued spectators took the free seats: ``[spectator, seat]`` pairs."""

    kind: ClassVar[str] = "seated"
    seated: list[list[int]]


@dataclass(frozen=True, slots=True)
class JoinAsked(RoomLine):
    """O-APPROVAL: someone asks to sit (or, ``watch``, to watch)."""

    kind: ClassVar[str] = "ask"
    request: int
    name: str
    watch: bool


@dataclass(frozen=True, slots=True)
class JoinAnswered(RoomLine):
    """O-APPROVAL: a request was admitted (to ``seat`` or as ``spectator``), denied or left
    unanswered too long (``lapsed``)."""

    kind: ClassVar[str] = "answer"
    request: int
    answer: str  # admitted, denied, lapsed
    seat: int | None = None
    spectator: int | None = None


@dataclass(frozen=True, slots=True)
class Banned(RoomLine):
    """O-BAN: the person in ``seat`` or spectator ``spectator`` is banned from the room."""

    kind: ClassVar[str] = "ban"
    seat: int | None
    spectator: int | None


Line = StartLine | EngineLine | RoomLine


def goes_to_engine(command: dict[str, Any]) -> bool:
    """Was this record's command applied to a running match's engine (``start`` aside)?"""
    kind = command.get("type")
    return kind != START and not command.get("room") and kind not in LEGACY_ROOM_KINDS


def engine_seat(seat: int | None) -> int:
    return 0 if seat is None else seat


def deal(command: dict[str, Any], now_ms: int) -> tuple[Game, list[Event]]:
    """The match a ``start`` record dealt, as it was dealt."""
    rules = rules_from_dict(command["rules"])
    players = int(command["players"])
    rigged_deal = command.get("deal")
    rigged = RiggedDeal.parse(rigged_deal, players, rules.deck) if rigged_deal else None
    return Game.start(players, rules, int(command["seed"]), rigged, now_ms)


def replay(game: Game | None, seat: int | None, command: dict[str, Any], now_ms: int
           ) -> tuple[Game | None, list[Event]]:
    """The game after one record, and the engine's events for it (none for the room's own
    records, or without a match)."""
    if command.get("type") == START:
        return deal(command, now_ms)
    if game is None or not goes_to_engine(command):
        return game, []
    return game, game.apply(engine_seat(seat), parse_command(command), now_ms)
