"""Commands to the room's owner: a worker that holds a socket for a room run elsewhere forwards
the socket's connect, sync, commands and disconnect (and HTTP joins) to the owner over Redis,
and gets the answer back; the room's events reach it on the room topic (``LeasedBus``).

    forwarder = Forwarder(redis_bus, ownership, registry)
    forwarder.start()                      # listens on this worker's own topic
    room = RemoteRoom(meta, forwarder, …)  # what the registry returns for a room run elsewhere

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
from typing import TYPE_CHECKING, Any

from app.bus.leased import LeasedBus
from app.bus.redis_bus import RedisBus
from app.engine import EngineError

from .commands import from_wire, to_wire
from .errors import RoomError, RoomUnavailable
from .hub import Viewer, room_topic
from .items import Item, JoinRequest
from .ownership import Ownership, lease_key
from .room import Room

if TYPE_CHECKING:
    from .registry import RoomRegistry

log = logging.getLogger("uno.rooms")

# How long a room's owner, once looked up, is trusted without news (see ``Forwarder._owners``).
# A stale entry costs one refused call at most: fencing keeps a former owner from writing.
OWNER_SECONDS = 30.0


def worker_topic(worker: str) -> str:
    return f"worker:{worker}"


def _error_to_wire(exc: EngineError | RoomError) -> dict[str, Any]:
    if isinstance(exc, RoomError):
        return {"room": True, "code": exc.code, "message": exc.message, "status": exc.status}
    return {"room": False, "code": exc.code, "message": exc.message}


def _error_from_wire(data: dict[str, Any]) -> EngineError | RoomError:
    if data.get("room"):
        return RoomError(data["code"], data["message"], data.get("status", 409))
    return EngineError(data["message"], data["code"])


def _reply(message: dict[str, Any], result: Any = None, error: BaseException | None = None
           ) -> dict[str, Any]:
    """The answer to the forwarded call ``message``: its result, or its error as the caller
    will raise it (anything but a room's or the engine's own error: 503, logged here)."""
    reply: dict[str, Any] = {"reply": message["call"]}
    if error is None:
        reply["result"] = result
    elif isinstance(error, EngineError | RoomError):
        reply["error"] = _error_to_wire(error)
    else:
        log.error("forwarded %s for room %s failed", message.get("kind"), message.get("code"),
                  exc_info=error)
        reply["error"] = _error_to_wire(RoomUnavailable())
    return reply


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
        self.token_hash = token_hash
        self.frames: list[str] = []
        self.seq = 0

    def deliver(self, seq: int, frame: str) -> None:
        pass  # events reach the socket's worker on the room topic

    def begin(self, frames: list[str], seq: int) -> None:
        self.frames, self.seq = frames, seq

    def close(self, code: int, reason: str) -> None:
        self.forwarder.send_close(self.worker, self.conn, code, reason)


class Forwarder:
    def __init__(self, redis: RedisBus, ownership: Ownership, registry: RoomRegistry) -> None:
        # An owner that does not answer within a lease is taken for dead: by then its lease
        # has lapsed too, and the client's retry lets this worker take the room over.
        self.call_seconds = max(1.0, ownership.ttl)
        self.redis = redis
        self.ownership = ownership
        self.registry = registry
        self.worker = ownership.worker
        self._ids = itertools.count(1)
        self._calls: dict[int, asyncio.Future[dict[str, Any]]] = {}
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
        # Owner side: where this worker marks which rooms other workers want events of.
        self._interest: LeasedBus | None = None

    def start(self) -> None:
        self._unsubscribe = self.redis.subscribe(worker_topic(self.worker), self._on_message)
        bus = self.registry.bus
        if isinstance(bus, LeasedBus):
            self._interest = bus
            bus.track_interest()
            self.ownership.on_release.append(lambda code: bus.forget(room_topic(code)))
            self.redis.on_reconnect.append(self.resume_remote_sockets)
        self._spawn(self._watch_socket_workers())

    def resume_remote_sockets(self) -> None:
        """This worker's listener lost Redis for a while: events of rooms run elsewhere, and a
        "moved" (a new owner, who does not know of this worker's sockets yet), may have been
        lost. Their sockets here reconnect and resume (close 1012), through a connect."""
        bus = self._interest
        if bus is None:
            return
        for topic in bus.local_topics():
            code = topic.removeprefix(room_topic(""))
            if topic.startswith(room_topic("")) and code not in self.ownership.generations:
                bus.tell_local(topic, {"control": "moved"})

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

    async def call(self, code: str, request: dict[str, Any]) -> Any:
        """Run ``request`` on the owner of room ``code``; its result, or its error raised."""
        # A connect comes after a move (the sockets of a room that moved reconnect): look again.
        owner = await self._owner(code, fresh=request.get("kind") == "connect")
        if owner is None:
            self._spawn(self._take_over(code))
            raise RoomUnavailable("the room is moving to another worker; reconnect")
        call = next(self._ids)
        answer: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._calls[call] = answer
        try:
            # The send too: a Redis that froze (no error, no answer) must not hang the move.
            async with asyncio.timeout(self.call_seconds):
                await self.redis.publish(worker_topic(owner), {
                    "call": call, "from": self.worker, "code": code, **request})
                reply = await answer
        except TimeoutError:
            self._owners.pop(code, None)
            self._spawn(self._take_over(code))
            raise RoomUnavailable("the room's worker does not answer; reconnect") from None
        finally:
            self._calls.pop(call, None)
        if "error" in reply:
            error = _error_from_wire(reply["error"])
            if isinstance(error, RoomError) and error.code == "unavailable":
                self._owners.pop(code, None)  # it may have lost the room: look again next time
            raise error
        return reply.get("result")

    async def _owner(self, code: str, fresh: bool = False) -> str | None:
        """The worker that runs room ``code`` (None: nobody, or this worker after all)."""
        cached = self._owners.get(code)
        if not fresh and cached is not None and time.monotonic() - cached[1] < OWNER_SECONDS:
            return cached[0]
        looked_up = time.monotonic()
        holder = await self.redis.lease_holder(lease_key(code))
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
        of the room to reconnect and resume, see ``RoomRegistry._load``)."""
        with contextlib.suppress(RoomError):
            await self.registry.get(code)

    def send_close(self, worker: str, conn: str, code: int, reason: str) -> None:
        self._spawn(self.redis.publish(worker_topic(worker),
                                       {"close": conn, "code": code, "reason": reason}))

    # -- owner side --------------------------------------------------------------------------------

    async def _watch_socket_workers(self) -> None:
        """A worker that dies takes its sockets with it but cannot forward their disconnects:
        its players would look connected for good (no bot for them, the room never idle).
        Every call timeout, the workers holding sockets of rooms run here are checked."""
        while True:
            await asyncio.sleep(self.call_seconds)
            try:
                await self.drop_sockets_of_dead_workers()
            except Exception as exc:  # Redis away: the next round tries again
                log.warning("checking the workers that hold sockets failed: %r", exc)

    async def drop_sockets_of_dead_workers(self) -> int:
        workers = sorted({worker for worker, _conn in self._remote})
        if not workers:
            return 0
        alive = await self.redis.listening([worker_topic(w) for w in workers])
        dead = {worker for worker, up in zip(workers, alive, strict=True) if not up}
        dropped = 0
        for key in [k for k in self._remote if k[0] in dead]:
            viewer = self._remote.pop(key)
            room = self.registry.rooms.get(viewer.code)
            if room is not None and not room.stopped:
                room.inbox.put_nowait(Item("disconnect", viewer=viewer))
                dropped += 1
        if dropped:
            log.info("worker(s) %s gone: %d of their sockets disconnected", sorted(dead), dropped)
        return dropped

    def _on_message(self, message: dict[str, Any]) -> None:
        if "reply" in message:
            answer = self._calls.get(message["reply"])
            if answer is not None and not answer.done():
                answer.set_result(message)
        elif "call" in message:
            if self._interest is not None and message.get("kind") != "disconnect":
                # Before the room sees the call: its events from now on go to Redis too.
                self._interest.want(room_topic(message["code"]), message["from"])
            if not self._command_at_once(message):
                self._spawn(self._serve(message))
        elif "close" in message:
            viewer = self._local.get(message["close"])
            if viewer is not None:
                viewer.close(message["code"], message["reason"])

    def _command_at_once(self, message: dict[str, Any]) -> bool:
        """A command for a room running here goes straight into its inbox, answered from the
        item's future: no task to start and no turn of the event loop before the room has it.
        False for anything else (``_serve`` takes it)."""
        code = message["code"]
        room = self.registry.rooms.get(code)
        if (message.get("kind") != "command" or room is None or room.stopped
                or isinstance(room, RemoteRoom) or code not in self.ownership.generations):
            return False
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        room.inbox.put_nowait(Item("command", seat=message.get("seat"),
                                   command=from_wire(message["message"]),
                                   seen=message.get("seen"), future=future))
        future.add_done_callback(lambda done: self._answer(message, done))
        return True

    def _answer(self, message: dict[str, Any], done: asyncio.Future[Any]) -> None:
        error = RoomUnavailable() if done.cancelled() else done.exception()
        reply = _reply(message, None if error is not None else done.result(), error)
        topic = worker_topic(message["from"])
        try:
            self.redis.post(topic, reply)
        except Exception:  # an earlier post failed (logged then); this one may go through
            self.redis.post(topic, reply)

    async def _serve(self, message: dict[str, Any]) -> None:
        try:
            reply = _reply(message, await self._run(message))
        except Exception as exc:
            reply = _reply(message, error=exc)
        await self.redis.publish(worker_topic(message["from"]), reply)

    async def _run(self, message: dict[str, Any]) -> Any:
        code, kind = message["code"], message["kind"]
        if code not in self.ownership.generations:
            raise RoomUnavailable("the room is moving to another worker; reconnect")
        room = await self.registry.get(code)
        if room is None or isinstance(room, RemoteRoom):
            raise RoomUnavailable("the room is moving to another worker; reconnect")
        key = (message["from"], message.get("conn", ""))
        if kind == "connect":
            viewer = RemoteViewer(self, key[0], key[1], message.get("token_hash"), code)
            seat = await room.ask(Item("connect", viewer=viewer, since=message.get("since")))
            self._remote[key] = viewer
            return {"seat": seat, "frames": viewer.frames, "seq": viewer.seq}
        if kind == "sync":
            viewer = self._remote.get(key) or RemoteViewer(self, key[0], key[1], None)
            viewer.seat = message.get("seat")
            await room.ask(Item("sync", viewer=viewer))
            return {"frames": viewer.frames, "seq": viewer.seq}
        if kind == "disconnect":
            known = self._remote.pop(key, None)
            if known is not None and not room.stopped:
                room.inbox.put_nowait(Item("disconnect", viewer=known))
            return None
        if kind == "command":
            return await room.ask(Item("command", seat=message.get("seat"),
                                       command=from_wire(message["message"]),
                                       seen=message.get("seen")))
        if kind == "join":
            join = JoinRequest(message["name"], message.get("player_key"))
            seat, token = await room.ask(Item("join", join=join))
            return [seat, token]
        raise RoomError("bad_message", f"unknown forwarded request {kind!r}")

    def _spawn(self, work: Any) -> None:
        task = asyncio.create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)


class _ForwardedInbox(asyncio.Queue[Item]):
    """The only inbox use from outside a room is a socket's disconnect: forward it."""

    def __init__(self, room: RemoteRoom) -> None:
        super().__init__()
        self.room = room

    def put_nowait(self, item: Item) -> None:
        if item.kind == "disconnect" and item.viewer is not None:
            self.room.forward_disconnect(item.viewer)


class RemoteRoom(Room):
    """A room run by another worker, as this worker's sockets and HTTP handlers see it."""

    def __init__(self, forwarder: Forwarder, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.forwarder = forwarder
        self.inbox = _ForwardedInbox(self)

    def start(self) -> None:
        pass  # the owner runs it

    async def stop(self) -> None:
        self.stopped = True

    async def ask(self, item: Item) -> Any:
        forwarder = self.forwarder
        viewer = item.viewer
        if item.kind == "connect" and viewer is not None:
            # Events published from now on must reach this worker before the answer does.
            try:
                await forwarder.redis.ready(room_topic(self.code))
            except TimeoutError:
                raise RoomUnavailable("Redis does not answer; try again") from None
            result = await forwarder.call(self.code, {
                "kind": "connect", "conn": forwarder.conn_id(viewer),
                "token_hash": viewer.token_hash, "since": item.since})
            viewer.seat = result["seat"]
            viewer.begin(result["frames"], result["seq"])
            return result["seat"]
        if item.kind == "sync" and viewer is not None:
            result = await forwarder.call(self.code, {
                "kind": "sync", "conn": forwarder.conn_id(viewer), "seat": viewer.seat})
            viewer.begin(result["frames"], result["seq"])
            return None
        if item.kind == "command" and item.command is not None:
            return await forwarder.call(self.code, {
                "kind": "command", "seat": item.seat, "message": to_wire(item.command),
                "seen": item.seen})
        if item.kind == "join" and item.join is not None:
            seat, token = await forwarder.call(self.code, {
                "kind": "join", "name": item.join.name, "player_key": item.join.player_key})
            return seat, token
        raise RoomError("bad_message", f"{item.kind!r} cannot be forwarded")

    def forward_disconnect(self, viewer: Viewer) -> None:
        conn = self.forwarder.forget(viewer)
        if conn is not None:
            self.forwarder._spawn(self._quietly(self.forwarder.call(
                self.code, {"kind": "disconnect", "conn": conn})))

    @staticmethod
    async def _quietly(work: Any) -> None:
        with contextlib.suppress(EngineError, RoomError):  # the owner is gone: nothing to tell
            await work
