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


@dataclass(frozen=True, slots=True)
class Queue:
    """O-QUEUE: a named spectator asks for the next free seat."""


@dataclass(frozen=True, slots=True)
class Unqueue:
    """O-QUEUE: leave the queue (``spectator`` None), or the host takes ``spectator`` off it."""

    spectator: int | None = None


@dataclass(frozen=True, slots=True)
class QueueOrder:
    """O-QUEUE, host: the queue in this order (every queued spectator, once)."""

    order: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Admit:
    """O-APPROVAL, host: let the person of ``request`` in."""

    request: int


@dataclass(frozen=True, slots=True)
class Deny:
    """O-APPROVAL, host: turn ``request`` away."""

    request: int


@dataclass(frozen=True, slots=True)
class Ban:
    """O-BAN, host: the person in ``seat``, or named spectator ``spectator``, leaves and may
    never come back to this room."""

    seat: int | None = None
    spectator: int | None = None


# Reactions anyone at the table or watching may send: a small fixed set.
REACTIONS = ("👏", "🔥", "😂", "😮", "😱", "🎉", "👀", "💀")


@dataclass(frozen=True, slots=True)
class React:
    """An emoji from ``REACTIONS`` that floats over everyone's table."""

    emoji: str


RoomCommand = (StartMatch | ChangeRules | AddBot | Kick | Leave | Rematch | React | Back | Queue
               | Unqueue | QueueOrder | Admit | Deny | Ban)
ClientCommand = Command | RoomCommand
