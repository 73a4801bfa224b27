"""Calls to a room's owner: a worker that holds a socket for a room run elsewhere forwards the
socket's connect, sync, commands and disconnect (and HTTP joins) to the owner over Redis
(``calls``), and gets the answer back; the room's events reach it on the room topic
(``LeasedBus``).

    forwarder = Forwarder(redis_bus, leased_bus, ownership, registry)
    forwarder.start()                          # listens on this worker's own topic
    room = RemoteRoom(forwarder, code, meta)   # the handle the placement gives for such a room

A connect is forwarded only once this worker's listener receives the room topic, and the owner
answers after publishing every earlier event: the answer and the events arrive in Redis order,
so the socket's first frames and the events after them neither overlap nor leave a gap.

The owner sends a room's events to Redis only once another worker asked it about the room
(``LeasedBus.want``, marked as a call arrives, before the room sees it): the events before the
call are in its answer (a state, or the events since), those after it go out on the topic. The
marks go with the lease (``Ownership.on_release``): a room run here again starts with a "moved"
that makes every socket elsewhere connect again.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import time
from typing import Any

from app.engine import EngineError
from app.rooms.controls import Moved, to_wire
from app.rooms.errors import RoomError, RoomUnavailable
from app.rooms.handle import LocalRoomHandle
from app.rooms.hub import Viewer, room_topic
from app.rooms.messages import SeatCommand
from app.rooms.registry import RoomRegistry

from .calls import (
    Call,
    CloseSocket,
    CommandCall,
    ConnectCall,
    DisconnectCall,
    Frames,
    JoinCall,
    Reply,
    Request,
    Result,
    Summary,
    SummaryCall,
    SyncCall,
    TakeOverCall,
    WatchCall,
    from_wire,
    worker_topic,
)
from .calls import to_wire as call_to_wire
from .leased_bus import LeasedBus
from .leases import Ownership
from .transport import Transport

log = logging.getLogger("uno.rooms")

# How long a room's owner, once looked up, is trusted without news (see ``Forwarder._owners``).
# A stale entry costs one refused call at most: fencing keeps a former owner from writing.
OWNER_SECONDS = 30.0
MOVING = "the room is moving to another worker; reconnect"


class RemoteViewer:
    """On the owner: a socket held by another worker. Its frames travel in the call's answer
    (first frames) and on the room topic (events); a close is sent back to its worker."""

    def __init__(self, forwarder: Forwarder, worker: str, conn: str,
                 token_hash: str | None, code: str = "") -> None:
        self.forwarder = forwarder
        self.worker = worker
        self.conn = conn
        self.code = code
        self.seat: int | None = None
        self.spectator: int | None = None
        self.watcher: int | None = None
        self.request: int | None = None
        self.token_hash = token_hash
        self.frames: list[str] = []
        self.seq = 0

    def deliver(self, seq: int, frames: list[str]) -> None:
        pass  # events reach the socket's worker on the room topic

    def notice(self, frame: str) -> None:
        pass  # so does spectator chat

    def begin(self, frames: list[str], seq: int) -> None:
        self.frames, self.seq = frames, seq

    def close(self, code: int, reason: str) -> None:
        self.forwarder.send(self.worker, CloseSocket(self.conn, code, reason))


class Forwarder:
    def __init__(self, redis: Transport, bus: LeasedBus, ownership: Ownership,
                 registry: RoomRegistry) -> None:
        # An owner that does not answer within a lease is taken for dead: by then its lease
        # has lapsed too, and the client's retry lets this worker take the room over.
        self.call_seconds = max(1.0, ownership.ttl)
        self.redis = redis
        self.bus = bus  # where the owner marks which rooms other workers want events of
        self.ownership = ownership
        self.registry = registry
        self.worker = ownership.worker
        self._ids = itertools.count(1)
        self._calls: dict[int, tuple[str, asyncio.Future[Reply]]] = {}  # call -> (owner, answer)
        self.dead: set[str] = set()  # workers taken for dead (``DeathWatch.dead``)
        self._remote: dict[tuple[str, str], RemoteViewer] = {}  # owner side
        self._local: dict[str, Viewer] = {}  # socket side: conn id -> socket
        self._keys: dict[int, str] = {}  # socket side: id(socket) -> conn id
        self._tasks: set[asyncio.Task[None]] = set()
        self._unsubscribe: Any = None
        # Socket side: the owner each room's last call went to, and when it was looked up. It
        # is asked again on a socket's connect, when the room's new owner says "moved" (every
        # takeover does: ``forget_owner``), at once when it did not answer or said it no longer
        # runs the room, and after ``OWNER_SECONDS`` anyway: no Redis lookup before a command.
        self._owners: dict[str, tuple[str, float]] = {}

    def start(self) -> None:
        self._unsubscribe = self.redis.subscribe(worker_topic(self.worker), self._on_message)
        bus = self.bus
        bus.track_interest()
        self.ownership.on_release.append(lambda code: bus.forget(room_topic(code)))
        self.redis.on_reconnect.append(self.resume_remote_sockets)
        self.redis.on_topics_lost.append(self.resume_remote_sockets)

    def resume_remote_sockets(self, topics: frozenset[str] | None = None) -> None:
        """This worker's listener lost Redis for a while (or, on a cluster, these ``topics``
        alone): events of rooms run elsewhere, and a "moved" (a new owner, who does not know
        of this worker's sockets yet), may have been lost. Their sockets here reconnect and
        resume (close 1012), through a connect."""
        for topic in self.bus.local_topics() if topics is None else topics:
            code = topic.removeprefix(room_topic(""))
            if topic.startswith(room_topic("")) and code not in self.ownership.generations:
                self.bus.tell_local(topic, to_wire(Moved()))

    async def close(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
        for task in list(self._tasks):
            task.cancel()

    # -- socket side ------------------------------------------------------------------------------

    def conn_id(self, viewer: Viewer) -> str:
        key = self._keys.get(id(viewer))
        if key is None:
            key = self._keys[id(viewer)] = f"c{next(self._ids)}"
            self._local[key] = viewer
        return key

    def forget(self, viewer: Viewer) -> str | None:
        key = self._keys.pop(id(viewer), None)
        if key is not None:
            self._local.pop(key, None)
        return key

    async def call(self, code: str, request: Request) -> Result:
        """Run ``request`` on the owner of room ``code``; its result, or its error raised."""
        # A connect comes after a move (the sockets of a room that moved reconnect): look again.
        owner = await self._owner(code, fresh=isinstance(request, ConnectCall))
        if owner is None:
            self._spawn(self._take_over(code))
            raise RoomUnavailable(MOVING)
        return await self._send(owner, code, request)

    async def hand_over(self, worker: str, code: str) -> None:
        """Draining: ``worker`` takes room ``code`` (its lease released here) and runs it
        before this returns (RoomError if it will not: another worker may)."""
        await self._send(worker, code, TakeOverCall())

    async def _send(self, owner: str, code: str, request: Request) -> Result:
        call = next(self._ids)
        answer: asyncio.Future[Reply] = asyncio.get_running_loop().create_future()
        self._calls[call] = (owner, answer)
        if owner in self.dead:  # it died while it was being looked up: as ``worker_died``
            answer.set_exception(RoomUnavailable("the room's worker is gone; reconnect"))
        try:
            # The send too: a Redis that froze (no error, no answer) must not hang the move.
            async with asyncio.timeout(self.call_seconds):
                await self.redis.publish(worker_topic(owner),
                                         call_to_wire(Call(call, self.worker, code, request)))
                reply = await answer
        except TimeoutError:
            self._owners.pop(code, None)
            if not isinstance(request, TakeOverCall):
                self._spawn(self._take_over(code))
            raise RoomUnavailable("the room's worker does not answer; reconnect") from None
        except RoomUnavailable:  # the owner died meanwhile (``worker_died``)
            if not isinstance(request, TakeOverCall):
                self._spawn(self._take_over(code))
            raise
        finally:
            self._calls.pop(call, None)
        if reply.error is not None:
            if isinstance(reply.error, RoomUnavailable):
                self._owners.pop(code, None)  # it may have lost the room: look again next time
            raise reply.error
        return reply.result

    async def _owner(self, code: str, fresh: bool = False) -> str | None:
        """The worker that runs room ``code`` (None: nobody, or this worker after all)."""
        cached = self._owners.get(code)
        if not fresh and cached is not None and time.monotonic() - cached[1] < OWNER_SECONDS:
            return cached[0]
        looked_up = time.monotonic()
        holder = await self.ownership.live_holder(code, self.dead)
        if holder is None or holder[0] == self.worker:
            self._owners.pop(code, None)
            return None
        if len(self._owners) > 10_000:
            self._owners.clear()  # stale entries of rooms long gone; cheap to look up again
        self._owners[code] = (holder[0], looked_up)
        return holder[0]

    def forget_owner(self, code: str) -> None:
        """Room ``code`` moved to another worker: look its owner up on the next call."""
        self._owners.pop(code, None)

    async def _take_over(self, code: str) -> None:
        """The owner is gone: run the room here if its lease is free (this tells every socket
        of the room to reconnect and resume, see ``ClusterPlacement.started``)."""
        with contextlib.suppress(RoomError):  # known: a socket here had found the room open
            await self.registry.get(code, known=True)

    def send(self, worker: str, message: CloseSocket) -> None:
        self._spawn(self.redis.publish(worker_topic(worker), call_to_wire(message)))

    def spawn(self, work: Any) -> None:
        self._spawn(work)

    # -- owner side --------------------------------------------------------------------------------

    def worker_died(self, worker: str) -> int:
        """``worker`` is dead (``DeathWatch``): the calls waiting on it fail now (their sockets
        reconnect), and the sockets it held for rooms run here are gone: it cannot forward
        their disconnects, and its players would look connected for good (no bot for them,
        the room never idle). The number of its sockets dropped."""
        self._owners = {code: owner for code, owner in self._owners.items()
                        if owner[0] != worker}
        for owner, answer in list(self._calls.values()):
            if owner == worker and not answer.done():
                answer.set_exception(RoomUnavailable("the room's worker is gone; reconnect"))
        dropped = 0
        for key in [k for k in self._remote if k[0] == worker]:
            viewer = self._remote.pop(key)
            room = self.registry.local(viewer.code)
            if room is not None:
                room.disconnect(viewer)
                dropped += 1
        if dropped:
            log.info("worker %s gone: %d of its sockets disconnected", worker, dropped)
        return dropped

    def _on_message(self, data: dict[str, Any]) -> None:
        match from_wire(data):
            case Reply(call) as reply:
                waiting = self._calls.get(call)
                if waiting is not None and not waiting[1].done():
                    waiting[1].set_result(reply)
            case Call(_call, sender, code, request) as call:
                if not isinstance(request, DisconnectCall):
                    # Before the room sees the call: its events from now on go to Redis too.
                    self.bus.want(room_topic(code), sender)
                room = self._owned(code)
                if isinstance(request, CommandCall) and room is not None:
                    # Straight into the room's inbox, answered from its future: no task to
                    # start and no turn of the event loop before the room has it.
                    room.command_then(SeatCommand(request.person, request.command,
                                                  request.seen),
                                      lambda done: self._answer(call, done))
                else:
                    self._spawn(self._serve(call))
            case CloseSocket(conn, code, reason):
                viewer = self._local.get(conn)
                if viewer is not None:
                    viewer.close(code, reason)

    def _owned(self, code: str) -> LocalRoomHandle | None:
        """Room ``code`` if it runs here under this worker's lease."""
        return self.registry.local(code) if code in self.ownership.generations else None

    def _answer(self, call: Call, done: asyncio.Future[Any]) -> None:
        error = RoomUnavailable() if done.cancelled() else done.exception()
        reply = _reply(call, None if error is not None else done.result(), error)
        # With the room's events: the ack after them (on a cluster: on the room's channel).
        topic = self.redis.reply_topic(worker_topic(call.sender), call.code)
        try:
            self.redis.post(topic, call_to_wire(reply))
        except Exception:  # an earlier post failed (logged then); this one may go through
            self.redis.post(topic, call_to_wire(reply))

    async def _serve(self, call: Call) -> None:
        try:
            reply = _reply(call, await self._run(call))
        except Exception as exc:
            reply = _reply(call, error=exc)
        topic = worker_topic(call.sender)
        if not isinstance(call.request, JoinCall | DisconnectCall | TakeOverCall):  # a socket's
            topic = self.redis.reply_topic(topic, call.code)  # after the events it covers
        await self.redis.publish(topic, call_to_wire(reply))

    async def _run(self, call: Call) -> Result:
        code = call.code
        if isinstance(call.request, TakeOverCall):  # a draining worker's room comes here
            if not self.registry.draining:
                await self.registry.get(code, known=True)
            if self.registry.local(code) is None:
                raise RoomUnavailable(f"room {code} is not taken here")
            return None
        if code not in self.ownership.generations:
            raise RoomUnavailable(MOVING)
        await self.registry.get(code)
        room = self._owned(code)
        if room is None:
            raise RoomUnavailable(MOVING)
        match call.request:
            case ConnectCall(conn, token_hash, since):
                viewer = RemoteViewer(self, call.sender, conn, token_hash, code)
                admission = await room.connect(viewer, since)
                self._remote[(call.sender, conn)] = viewer
                return Frames(viewer.frames, viewer.seq, admission)
            case SyncCall(conn, person):
                viewer = (self._remote.get((call.sender, conn))
                          or RemoteViewer(self, call.sender, conn, None))
                viewer.seat, viewer.spectator, viewer.watcher, viewer.request = (
                    person.seat, person.spectator, person.watcher, person.request)
                await room.sync(viewer)
                return Frames(viewer.frames, viewer.seq)
            case DisconnectCall(conn):
                known = self._remote.pop((call.sender, conn), None)
                if known is not None:
                    room.disconnect(known)
                return None
            case CommandCall(person, command, seen):
                await room.command(person, command, seen)
                return None
            case JoinCall(request):
                return await room.join(request)
            case WatchCall(request):
                return await room.watch(request)
            case SummaryCall():
                return Summary(await room.summary())

    def _spawn(self, work: Any) -> None:
        task = asyncio.create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)


def _reply(call: Call, result: Result = None, error: BaseException | None = None) -> Reply:
    """The answer to ``call``: its result, or its error as the caller will raise it (anything
    but a room's or the engine's own error: 503, logged here)."""
    if error is None:
        return Reply(call.call, result)
    if isinstance(error, EngineError | RoomError):
        return Reply(call.call, error=error)
    log.error("forwarded %s for room %s failed", type(call.request).__name__, call.code,
              exc_info=error)
    return Reply(call.call, error=RoomUnavailable())
