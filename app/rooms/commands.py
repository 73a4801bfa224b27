"""What a person may ask of their room: the engine's commands, and the room's own (seating, host
and audience commands). Typed and immutable; each has its model and its entry in the command
table (command_models.py, command_table.py), which read and write them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from app.engine import Command


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


@dataclass(frozen=True, slots=True)
class Back:
    """O-IDLE: take one's away seat again (any other command does too)."""


# Reactions anyone at the table or watching may send: a small fixed set.
REACTIONS = ("👏", "🔥", "😂", "😮", "😱", "🎉", "👀", "💀")


@dataclass(frozen=True, slots=True)
class React:
    """An emoji from ``REACTIONS`` that floats over everyone's table."""

    emoji: str


RoomCommand = StartMatch | ChangeRules | AddBot | Kick | Leave | Rematch | React | Back
ClientCommand = Command | RoomCommand
