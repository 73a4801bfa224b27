"""A room's data as its handlers see it (``RoomState``), and what a handler decides
(``Outcome``): the room actor alone applies an outcome, stores it and publishes it.

Handlers (app/rooms/seating.py, host.py, bots.py, chat.py) are pure functions of the state and
the message; they never change the state they are given (the meta they return is a copy) and
refuse with a RoomError or an EngineError before deciding anything.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from app.engine import Command, Event, Game
from app.store.records import Line

from .controls import Control
from .messages import Message
from .meta import LOBBY, RoomMeta
from .people import Person


@dataclass(frozen=True, slots=True)
class RoomState:
    """The room's meta (stored with every change) and its match (None in the lobby). The
    engine changes ``game`` in place when the actor applies a command to it."""

    meta: RoomMeta
    game: Game | None = None

    @property
    def between_matches(self) -> bool:
        game = self.game
        return self.meta.phase == LOBBY or game is None or game.phase == "match_over"

    @property
    def playing(self) -> bool:
        return self.game is not None and self.meta.phase != LOBBY


@dataclass(frozen=True, slots=True)
class Outcome:
    """What to commit: a line of the room log (``record``, by ``seat``; None: the room itself),
    its events, the room's new state (None: unchanged), control messages for the sockets, a
    reply for whoever asked, timers to set, a seat that left the running match, and a person
    let in whose sockets wait for the table."""

    record: Line
    events: list[Event]
    seat: int | None = None
    state: RoomState | None = None
    controls: list[Control] = field(default_factory=list)
    reply: Any = None
    later: list[tuple[float, Message]] = field(default_factory=list)
    left_match: int | None = None
    # O-APPROVAL: a person let in, by their token's hash: their waiting sockets get the table.
    welcome: tuple[str, Person] | None = None


@dataclass(frozen=True, slots=True)
class ToEngine:
    """The command goes to the match's engine after all (chat during a match: H-SILENT)."""

    command: Command


@dataclass(frozen=True, slots=True)
class Notice:
    """A control message for the room's sockets, outside the room's seq (spectator chat)."""

    control: Control


def _fresh_seed() -> int:
    return secrets.randbelow(2**52)


@dataclass(frozen=True, slots=True)
class Context:
    """What a handler may know besides the state: the room's clock now, the host's grace
    time, and a source of secret seeds (a match dealt without the room's seed)."""

    now_ms: int
    host_grace_seconds: float = 10.0
    fresh_seed: Callable[[], int] = _fresh_seed
