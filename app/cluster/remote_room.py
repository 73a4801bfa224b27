"""A room run by another worker, as this worker's sockets and HTTP handlers use it: the one room
interface (``RoomHandle``), each method a call to the room's owner (``Forwarder``), answered
with a typed result (``calls``)."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any

from app.engine import EngineError
from app.rooms.commands import ClientCommand
from app.rooms.errors import RoomError, RoomUnavailable
from app.rooms.hub import Viewer, person_of, room_topic
from app.rooms.messages import Admission, Granted, JoinRequest, WatchRequest
from app.rooms.people import Person

from .calls import (
    CommandCall,
    ConnectCall,
    DisconnectCall,
    Frames,
    JoinCall,
    Result,
    Summary,
    SummaryCall,
    SyncCall,
    WatchCall,
)
from .forwarding import Forwarder


class RemoteRoom:
    def __init__(self, forwarder: Forwarder, code: str) -> None:
        self._forwarder = forwarder
        self._code = code

    @property
    def code(self) -> str:
        return self._code

    @property
    def stopped(self) -> bool:
        return False  # every call asks the owner afresh

    async def connect(self, viewer: Viewer, since: int | None = None) -> Admission:
        forwarder = self._forwarder
        # Events published from now on must reach this worker before the answer does.
        try:
            await forwarder.redis.ready(room_topic(self._code))
        except TimeoutError:
            raise RoomUnavailable("Redis does not answer; try again") from None
        frames = _frames(await forwarder.call(self._code, ConnectCall(
            forwarder.conn_id(viewer), viewer.token_hash, since)))
        admission = frames.admission or Admission(None)
        viewer.seat, viewer.spectator, viewer.watcher, viewer.request = (
            admission.seat, admission.spectator, admission.watcher, admission.request)
        viewer.begin(frames.frames, frames.seq)
        return admission

    async def sync(self, viewer: Viewer) -> None:
        forwarder = self._forwarder
        frames = _frames(await forwarder.call(self._code, SyncCall(forwarder.conn_id(viewer),
                                                                   person_of(viewer))))
        viewer.begin(frames.frames, frames.seq)

    async def command(self, person: Person, command: ClientCommand,
                      seen: int | None = None, applied: Callable[[], None] | None = None) -> None:
        await self._forwarder.call(self._code, CommandCall(person, command, seen))
        if applied is not None:
            applied()

    async def join(self, request: JoinRequest) -> Granted:
        return _granted(await self._forwarder.call(self._code, JoinCall(request)))

    async def watch(self, request: WatchRequest) -> Granted:
        return _granted(await self._forwarder.call(self._code, WatchCall(request)))

    def disconnect(self, viewer: Viewer) -> None:
        forwarder = self._forwarder
        conn = forwarder.forget(viewer)
        if conn is not None:
            forwarder.spawn(self._quietly(forwarder.call(self._code, DisconnectCall(conn))))

    async def summary(self) -> dict[str, Any]:
        answer = await self._forwarder.call(self._code, SummaryCall())
        if not isinstance(answer, Summary):
            raise RoomUnavailable("the room's worker gave no summary")
        return answer.summary

    @staticmethod
    async def _quietly(work: Any) -> None:
        with contextlib.suppress(EngineError, RoomError):  # the owner is gone: nothing to tell
            await work


def _frames(result: Result) -> Frames:
    if not isinstance(result, Frames):
        raise RoomUnavailable("the room's worker did not send the frames")
    return result


def _granted(result: Result) -> Granted:
    if not isinstance(result, Granted):
        raise RoomUnavailable("the room's worker did not grant a token")
    return result
