"""What a room's inbox holds: one frozen dataclass per kind, dispatched with ``match`` by the
room actor (app/rooms/room.py), the only reader. Writers: the room's own interface (``Room``'s
methods), its timers, and the cluster's forwarder (through that interface)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .commands import ClientCommand
from .hub import Viewer
from .people import Person


@dataclass(frozen=True, slots=True)
class JoinRequest:
    """Take the next free seat: ``name`` made safe at the edge; ``player_key`` proves a
    profile (never stored); ``device``: the hash of the browser's device key (O-BAN)."""

    name: str
    player_key: str | None = None
    device: str | None = None


@dataclass(frozen=True, slots=True)
class WatchRequest:
    """Watch under a token of one's own: a spectator with an identity (and, if given, a
    name) that survives reconnects."""

    name: str | None = None
    player_key: str | None = None
    device: str | None = None


@dataclass(frozen=True, slots=True)
class Granted:
    """What a join or a watch gave: a seat, a named spectator, or a join request waiting for
    the host (O-APPROVAL), and the person's token."""

    token: str
    seat: int | None = None
    spectator: int | None = None
    request: int | None = None


@dataclass(frozen=True, slots=True)
class Admission:
    """Who a socket was let in as: a seat, a named spectator, or an anonymous spectator with
    its number."""

    seat: int | None
    spectator: int | None = None
    watcher: int | None = None
    request: int | None = None  # O-APPROVAL: let in to wait for the host, nothing more


@dataclass(frozen=True, slots=True)
class Connect:
    """A socket opens: seat it by its token, then send its first frames."""

    viewer: Viewer
    since: int | None = None


@dataclass(frozen=True, slots=True)
class Sync:
    """A socket asks for a fresh state."""

    viewer: Viewer


@dataclass(frozen=True, slots=True)
class Disconnect:
    viewer: Viewer


@dataclass(frozen=True, slots=True)
class SeatCommand:
    """A person's command; ``seen``: the last seq its sender had seen. ``applied`` is called
    once it is applied, in the room's turn that sent its events and before its caller resumes:
    the sender's ack goes out with them, in one write (a turn later it was a write of its own)."""

    person: Person
    command: ClientCommand
    seen: int | None = None
    applied: Callable[[], None] | None = None


@dataclass(frozen=True, slots=True)
class Join:
    request: JoinRequest


@dataclass(frozen=True, slots=True)
class Watch:
    request: WatchRequest


@dataclass(frozen=True, slots=True)
class BotTurn:
    """A bot's thinking time is over."""

    seat: int


@dataclass(frozen=True, slots=True)
class HostCheck:
    """The host has been away for the grace time: the role may pass on."""


@dataclass(frozen=True, slots=True)
class Drained:
    """The room is handed to another worker: what came in before this is done (and stored);
    the loop ends here."""


@dataclass(frozen=True, slots=True)
class StoreBack:
    """The database is back after an outage: the room carries on (reloaded from it first if a
    write of its failed)."""


@dataclass(frozen=True, slots=True)
class AwayCheck:
    """O-IDLE: a waited person's reconnect grace may be over: a bot plays for them then."""


@dataclass(frozen=True, slots=True)
class RequestCheck:
    """O-APPROVAL: join request ``request`` may have waited ``approval_seconds``: it lapses."""

    request: int


@dataclass(frozen=True, slots=True)
class IdleCheck:
    """Nobody may have been connected for ``idle_seconds``: unload the room then."""


@dataclass(frozen=True, slots=True)
class StartTable:
    """A tournament's table opened (or reloaded before its match began): deal its match."""


@dataclass(frozen=True, slots=True)
class TableNextRound:
    """A tournament's table, its round over: deal the next one (nobody hosts such a table)."""


@dataclass(frozen=True, slots=True)
class CountSpectators:
    """Time to tell everyone how many watch (if that changed)."""


Message = (Connect | Sync | Disconnect | SeatCommand | Join | Watch | BotTurn | HostCheck
           | IdleCheck | StartTable | TableNextRound | CountSpectators | RequestCheck
           | AwayCheck | StoreBack | Drained)


@dataclass(slots=True)
class Envelope:
    """A message in the inbox, with the future its sender waits on (None: nobody waits)."""

    message: Message
    future: asyncio.Future[Any] | None = None
    arrived: float = field(default_factory=time.perf_counter)
