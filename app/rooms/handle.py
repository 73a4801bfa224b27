"""The one room interface: a room as sockets and HTTP handlers use it, wherever it runs. This
worker's ``Room`` (the actor) implements it, and so does the cluster's ``RemoteRoom`` (which
forwards to the worker that runs the room); nobody else reaches into a room."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any, Protocol, runtime_checkable

from .commands import ClientCommand
from .hub import Viewer
from .messages import Admission, Granted, JoinRequest, SeatCommand, WatchRequest
from .people import Person


class RoomHandle(Protocol):
    @property
    def code(self) -> str: ...

    @property
    def stopped(self) -> bool:
        """True once this handle can no longer be used (ask the registry again)."""

    async def connect(self, viewer: Viewer, since: int | None = None) -> Admission:
        """Let ``viewer`` in by its token (a seat, a named spectator; no token: an anonymous
        spectator) and send its first frames: a state, or the events after ``since``. Who it
        was let in as, or RoomError ``bad_token``."""

    async def sync(self, viewer: Viewer) -> None:
        """Send ``viewer`` a fresh state."""

    async def command(self, person: Person, command: ClientCommand,
                      seen: int | None = None, applied: Callable[[], None] | None = None) -> None:
        """Apply ``person``'s command (an EngineError or RoomError: refused, nothing
        changed). ``applied`` is called once it is, before this returns: on the room's owner in
        the turn of the event loop that sent its events."""

    async def join(self, request: JoinRequest) -> Granted:
        """A new seat (or, O-APPROVAL, a request waiting for the host) and its token."""

    async def watch(self, request: WatchRequest) -> Granted:
        """A named spectator (or, with ``approval_watch``, a request) and its token."""

    def disconnect(self, viewer: Viewer) -> None:
        """``viewer``'s socket closed (nobody waits for the room to take note)."""

    async def summary(self) -> dict[str, Any]:
        """The room's public summary (GET /api/rooms/{code}), as its owner sees it now."""


@runtime_checkable
class LocalRoomHandle(RoomHandle, Protocol):
    """A room run on this worker: it also takes a command with no task or turn of the event
    loop in between (the cluster hands forwarded commands over so)."""

    def command_then(self, message: SeatCommand,
                     done: Callable[[asyncio.Future[Any]], None]) -> None:
        """Queue ``message`` at once; ``done`` is called with its future."""
