"""What a seat may ask of its room: the engine's commands, and the room's own (seating and host
commands). Typed and immutable; the socket edge (app/api/messages.py) builds them from client
frames, and ``to_wire`` / ``from_wire`` carry them between workers (a trusted channel: the edge
validated them once)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from app.engine import Command, command_to_wire, parse_command


@dataclass(frozen=True, slots=True)
class StartMatch:
    """Host: start a match (in the lobby, or after a match: a rematch)."""


@dataclass(frozen=True, slots=True)
class ChangeRules:
    """Host, between matches: ``preset`` resets to that preset plus ``rules``; without it
    ``rules`` change single toggles."""

    preset: str | None = None
    rules: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class AddBot:
    """Host: a bot takes a new seat (between matches), or replaces the abandoned ``seat``."""

    seat: int | None = None


@dataclass(frozen=True, slots=True)
class Kick:
    """Host: remove ``seat`` (between matches) or seat a bot for it (during a match)."""

    seat: int


@dataclass(frozen=True, slots=True)
class Leave:
    """Give up one's own seat."""


@dataclass(frozen=True, slots=True)
class Rematch:
    """Host, after a match: a new one with the same seats, bots and rules; the seats of players
    who left (their bots) are freed first."""


# Reactions anyone at the table or watching may send: a small fixed set.
REACTIONS = ("👏", "🔥", "😂", "😮", "😱", "🎉", "👀", "💀")


@dataclass(frozen=True, slots=True)
class React:
    """An emoji from ``REACTIONS`` that floats over everyone's table."""

    emoji: str


RoomCommand = StartMatch | ChangeRules | AddBot | Kick | Leave | Rematch | React
ClientCommand = Command | RoomCommand

_ROOM_TYPES: dict[type[Any], str] = {
    StartMatch: "start", ChangeRules: "rules", AddBot: "add_bot", Kick: "kick", Leave: "leave",
    Rematch: "rematch", React: "react",
}


def to_wire(command: ClientCommand) -> dict[str, Any]:
    """The PROTOCOL.md message for ``command`` (without ``id``)."""
    kind = _ROOM_TYPES.get(type(command))
    if kind is None:
        return command_to_wire(command)  # type: ignore[arg-type]  # an engine command
    if isinstance(command, ChangeRules):
        return {"type": kind, "preset": command.preset, "rules": command.rules}
    if isinstance(command, AddBot | Kick):
        return {"type": kind, "seat": command.seat}
    if isinstance(command, React):
        return {"type": kind, "emoji": command.emoji}
    return {"type": kind}


def from_wire(message: dict[str, Any]) -> ClientCommand:
    """The command ``to_wire`` gave (from another worker of this deployment)."""
    kind = message.get("type")
    if kind == "start":
        return StartMatch()
    if kind == "rules":
        return ChangeRules(message.get("preset"), dict(message.get("rules") or {}))
    if kind == "add_bot":
        return AddBot(message.get("seat"))
    if kind == "kick":
        return Kick(int(message["seat"]))
    if kind == "leave":
        return Leave()
    if kind == "rematch":
        return Rematch()
    if kind == "react":
        return React(str(message["emoji"]))
    return parse_command(message)
