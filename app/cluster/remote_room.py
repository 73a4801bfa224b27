"""A room run by another worker, as this worker's sockets and HTTP handlers use it: the one room
interface (``RoomHandle``), each method a call to the room's owner (``Forwarder``)."""

from __future__ import annotations

import contextlib
from typing import Any

from app.engine import EngineError
from app.rooms.commands import ClientCommand
from app.rooms.errors import RoomError, RoomUnavailable
from app.rooms.hub import Viewer, room_topic
from app.rooms.messages import JoinRequest
from app.rooms.meta import RoomMeta
from app.rooms.views import summary

from .calls import CommandCall, ConnectCall, DisconnectCall, JoinCall, SyncCall
from .forwarding import Forwarder


class RemoteRoom:
    def __init__(self, forwarder: Forwarder, code: str, meta: RoomMeta) -> None:
        self._forwarder = forwarder
        self._code = code
        self._meta = meta  # as stored when this handle was made: for its summary only

    @property
    def code(self) -> str:
        return self._code

    @property
    def stopped(self) -> bool:
        return False  # every call asks the owner afresh

    async def connect(self, viewer: Viewer, since: int | None = None) -> int | None:
        forwarder = self._forwarder
        # Events published from now on must reach this worker before the answer does.
        try:
            await forwarder.redis.ready(room_topic(self._code))
        except TimeoutError:
            raise RoomUnavailable("Redis does not answer; try again") from None
        result = await forwarder.call(self._code, ConnectCall(
            forwarder.conn_id(viewer), viewer.token_hash, since))
        seat: int | None = result["seat"]
        viewer.seat = seat
        viewer.watcher = result.get("watcher")
        viewer.begin(result["frames"], result["seq"])
        return seat

    async def sync(self, viewer: Viewer) -> None:
        forwarder = self._forwarder
        result = await forwarder.call(self._code, SyncCall(forwarder.conn_id(viewer),
                                                            viewer.seat))
        viewer.begin(result["frames"], result["seq"])

    async def command(self, seat: int | None, command: ClientCommand,
                      seen: int | None = None, watcher: int | None = None) -> None:
        await self._forwarder.call(self._code, CommandCall(seat, command, seen, watcher))

    async def join(self, request: JoinRequest) -> tuple[int, str]:
        seat, token = await self._forwarder.call(self._code, JoinCall(request))
        return seat, token

    def disconnect(self, viewer: Viewer) -> None:
        forwarder = self._forwarder
        conn = forwarder.forget(viewer)
        if conn is not None:
            forwarder.spawn(self._quietly(forwarder.call(self._code, DisconnectCall(conn))))

    def summary(self, spectators: int) -> dict[str, Any]:
        return summary(self._meta, None, spectators)

    @staticmethod
    async def _quietly(work: Any) -> None:
        with contextlib.suppress(EngineError, RoomError):  # the owner is gone: nothing to tell
            await work
