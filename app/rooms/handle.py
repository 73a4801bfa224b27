"""The one room interface: a room as sockets and HTTP handlers use it, wherever it runs. This
worker's ``Room`` (the actor) implements it, and so does the cluster's ``RemoteRoom`` (which
forwards to the worker that runs the room); nobody else reaches into a room."""

from __future__ import annotations

from typing import Any, Protocol

from .commands import ClientCommand
from .hub import Viewer
from .messages import JoinRequest


class RoomHandle(Protocol):
    @property
    def code(self) -> str: ...

    @property
    def stopped(self) -> bool:
        """True once this handle can no longer be used (ask the registry again)."""

    async def connect(self, viewer: Viewer, since: int | None = None) -> int | None:
        """Seat ``viewer`` by its token (None: a spectator) and send its first frames: a state,
        or the events after ``since``. Its seat, or RoomError ``bad_token``."""

    async def sync(self, viewer: Viewer) -> None:
        """Send ``viewer`` a fresh state."""

    async def command(self, seat: int | None, command: ClientCommand,
                      seen: int | None = None, watcher: int | None = None) -> None:
        """Apply ``seat``'s command (an EngineError or RoomError: refused, nothing changed);
        ``seat`` None: spectator ``watcher``'s."""

    async def join(self, request: JoinRequest) -> tuple[int, str]:
        """A new seat and its token."""

    def disconnect(self, viewer: Viewer) -> None:
        """``viewer``'s socket closed (nobody waits for the room to take note)."""

    def summary(self, spectators: int) -> dict[str, Any]:
        """The room's public summary (GET /api/rooms/{code})."""
