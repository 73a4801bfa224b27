"""Two workers in one process (real Redis, a shared in-memory store): commands from a socket on
one worker reach the room's owner on the other without a Redis lookup of the owner each time."""

from __future__ import annotations

import asyncio
import contextlib
import json
import signal
import time
import uuid
from collections.abc import AsyncIterator, Awaitable, Iterator
from typing import Any, cast

import pytest
from starlette.websockets import WebSocket

from app.api.connection import Connection
from app.api.open_socket import handle_text
from app.cluster.forwarding import Forwarder
from app.cluster.leased_bus import LeasedBus
from app.cluster.redis_bus import RedisBus, command_timeout_for
from app.cluster.remote_room import RemoteRoom
from app.config import Settings
from app.engine import EngineError
from app.engine.commands import Chat
from app.rooms import RoomHandle
from app.rooms.command_table import COMMANDS
from app.rooms.commands import ChangeRules
from app.rooms.errors import RoomError, RoomUnavailable
from app.rooms.hub import Hub
from app.rooms.messages import JoinRequest, Message, SeatCommand, Sync
from app.rooms.people import Person
from app.store.memory import MemoryRoomStore
from tests.cluster.leased import leased_registry
from tests.cluster.redis_server import RedisServer, private_redis
from tests.rooms.opening import open_room
from tests.rooms.test_room_actor import FakeViewer
from tests.services import redis_url


class Worker:
    """A worker in this process, assembled as app/cluster does it (without the lease renewal
    loop and the sweep: the tests drive those themselves)."""

    def __init__(self, name: str, store: MemoryRoomStore, prefix: str,
                 url: str | None = None, lease_seconds: float = 30.0) -> None:
        self.redis = RedisBus(url or redis_url(), prefix=prefix,
                              command_timeout=command_timeout_for(lease_seconds))
        self.bus = LeasedBus(self.redis, name)
        self.registry, self.placement = leased_registry(
            store, self.redis, name, Settings(database_url="memory://"), bus=self.bus,
            ttl=lease_seconds)
        self.ownership = self.placement.ownership
        self.forwarder = Forwarder(self.redis, self.bus, self.ownership, self.registry)
        self.placement.forwarder = self.forwarder
        self.lookups = 0
        lookup = self.redis.keys.lease_holder

        async def counted(key: str) -> Any:
            self.lookups += 1
            return await lookup(key)

        self.redis.keys.lease_holder = counted  # type: ignore[method-assign]

    async def start(self) -> None:
        await self.redis.start()
        self.forwarder.start()

    async def close(self) -> None:
        await self.forwarder.close()
        await self.registry.close()
        await self.ownership.close()
        await self.bus.close()


@contextlib.asynccontextmanager
async def running_workers(url: str | None = None, lease_seconds: float = 30.0
                          ) -> AsyncIterator[tuple[Worker, Worker]]:
    """Workers "a" and "b", started, on one Redis (the shared one by default)."""
    prefix = f"test:{uuid.uuid4().hex[:12]}:"
    first = MemoryRoomStore()
    pair = (Worker("a", first, prefix, url, lease_seconds),
            Worker("b", MemoryRoomStore(shared=first), prefix, url, lease_seconds))
    try:
        async with asyncio.timeout(10):
            for worker in pair:
                await worker.start()
        yield pair
    finally:
        async with asyncio.timeout(20):
            for worker in pair:
                await worker.close()


@pytest.fixture
async def workers() -> AsyncIterator[tuple[Worker, Worker]]:
    async with running_workers() as pair:
        yield pair


async def test_forwarded_commands_look_the_owner_up_once(workers: tuple[Worker, Worker]) -> None:
    owner, other = workers
    async with asyncio.timeout(10):
        code, seat, _ = await open_room(owner.registry, "Ann")
        room = await other.registry.get(code)
        assert isinstance(room, RemoteRoom)
        joined = await room.join(JoinRequest("Bob"))
        assert joined.seat == 1
        for n in range(10):
            await room.command(Person(seat), Chat(f"{n}"))
    assert other.lookups == 1
    stored = await owner.registry.store.load_room(code)
    assert stored is not None
    assert [r.command.get("type") for r in stored.records] == ["join"] + ["chat"] * 10


async def test_a_forwarded_command_the_room_refuses_raises_the_rooms_own_error_elsewhere(
    workers: tuple[Worker, Worker],
) -> None:
    owner, other = workers
    async with asyncio.timeout(10):
        code, seat, _ = await open_room(owner.registry, "Ann")
        room = await other.registry.get(code)
        assert isinstance(room, RemoteRoom)
        with pytest.raises(RoomError) as refused:
            await room.command(Person(seat), COMMANDS.from_wire({"type": "draw"}))
        assert refused.value.code == "wrong_phase"  # the match has not started
        with pytest.raises(EngineError) as bad:
            await room.command(Person(seat), ChangeRules(rules={"bogus": 1}))
        assert bad.value.code == "bad_rules"
        await room.command(Person(seat), Chat("ok"))
    stored = await owner.registry.store.load_room(code)
    assert stored is not None
    assert [r.command.get("type") for r in stored.records] == ["chat"]  # nothing else changed


async def test_a_rooms_owner_is_looked_up_again_once_a_new_owner_says_it_moved(
    workers: tuple[Worker, Worker],
) -> None:
    owner, other = workers
    forwarder = other.forwarder
    hub = Hub(other.bus)  # wired as app/cluster does
    hub.on_moved.append(forwarder.forget_owner)
    watcher = FakeViewer()
    async with asyncio.timeout(10):
        code, seat, _ = await open_room(owner.registry, "Ann")
        room = await other.registry.get(code)
        assert isinstance(room, RemoteRoom)
        hub.attach(code, watcher)
        await other.redis.ready(f"room:{code}")
        await room.command(Person(seat), Chat("hi"))
        await room.command(Person(seat), Chat("hi"))
        assert other.lookups == 1
        await owner.bus.publish(f"room:{code}", {"control": "moved"})
        await owner.redis.flush()
        while watcher.closed is None:  # told to reconnect: the room runs elsewhere now
            await asyncio.sleep(0.01)
        await room.command(Person(seat), Chat("hi"))
    assert other.lookups == 2


async def test_an_owner_sends_a_rooms_events_to_redis_once_another_worker_asked_about_it(
    workers: tuple[Worker, Worker],
) -> None:
    owner, other = workers
    bus = owner.bus
    async with asyncio.timeout(10):
        code, seat, _ = await open_room(owner.registry, "Ann")
        room = await owner.registry.get(code)
        assert room is not None
        await room.command(Person(seat), Chat("alone"))
        assert bus.kept_local == 1 and not bus.wanted(f"room:{code}")
        remote = await other.registry.get(code)
        assert isinstance(remote, RemoteRoom)
        await remote.join(JoinRequest("Bob"))
        assert bus.wanted(f"room:{code}")
        await room.command(Person(seat), Chat("seen"))
        assert bus.kept_local == 1
        await owner.ownership.release(code)  # its lease gone: asked again once run again
        assert not bus.wanted(f"room:{code}")


async def test_after_losing_redis_a_worker_tells_its_sockets_of_rooms_run_elsewhere_to_resume(
    workers: tuple[Worker, Worker],
) -> None:
    owner, other = workers
    async with asyncio.timeout(10):
        elsewhere, _, _ = await open_room(owner.registry, "Ann")
        here, _, _ = await open_room(other.registry, "Bob")
    bus = other.bus
    got: dict[str, list[dict[str, Any]]] = {elsewhere: [], here: []}
    for code, messages in got.items():
        bus.subscribe(f"room:{code}", messages.append)
    forwarder = other.forwarder
    assert forwarder.resume_remote_sockets in other.redis.on_reconnect
    forwarder.resume_remote_sockets()  # as the listener does once subscribed again
    assert got == {elsewhere: [{"control": "moved"}], here: []}


def chat(room: RoomHandle, seat: int, text: str) -> Awaitable[Any]:
    return room.command(Person(seat), COMMANDS.from_wire({"type": "chat", "text": text}))


@contextlib.contextmanager
def frozen(server: RedisServer) -> Iterator[None]:
    """Redis stopped (SIGSTOP: no error, no answer) for the block, and running again after."""
    assert server.process is not None
    server.process.send_signal(signal.SIGSTOP)
    try:
        yield
    finally:
        server.process.send_signal(signal.SIGCONT)


async def test_a_forwarded_command_gives_up_within_the_call_timeout_when_redis_freezes() -> None:
    """The player gets an answer (503: reconnect) instead of a move that hangs for good."""
    with private_redis() as server:
        async with running_workers(server.url, lease_seconds=1.0) as (owner, other):
            async with asyncio.timeout(10):
                code, seat, _ = await open_room(owner.registry, "Ann")
                room = await other.registry.get(code)
                assert isinstance(room, RemoteRoom)
                await chat(room, seat, "a")
                with frozen(server):
                    started = time.monotonic()
                    with pytest.raises(RoomUnavailable):
                        await chat(room, seat, "b")
                    assert time.monotonic() - started < 3


async def test_a_move_on_the_rooms_owner_gives_up_within_a_lease_when_redis_freezes() -> None:
    """The owner must confirm its lease once the last renewal is old; with Redis frozen (no
    error, no answer) the player gets 503 "unavailable" within about a lease instead of a move
    that hangs until Redis is back, and nothing of the refused move is stored. Once Redis is
    back, play goes on."""
    with private_redis() as server:
        async with running_workers(server.url, lease_seconds=1.0) as (owner, _other):
            async with asyncio.timeout(10):
                code, seat, _ = await open_room(owner.registry, "Ann")
                room = owner.registry.local(code)
                assert room is not None
                await chat(room, seat, "a")
                with frozen(server):
                    await asyncio.sleep(0.8)  # past two thirds of the lease since renewed
                    started = time.monotonic()
                    with pytest.raises(RoomUnavailable):
                        await chat(room, seat, "b")
                    assert time.monotonic() - started < 2.5
            async with asyncio.timeout(15):
                while True:  # the room reloads here, or the other worker's sweep took it
                    with contextlib.suppress(RoomError):
                        again = await owner.registry.get(code)
                        assert again is not None
                        await chat(again, seat, "c")
                        break
                    await asyncio.sleep(0.2)
    stored = await owner.registry.store.load_room(code)
    assert stored is not None
    chats = [r.command.get("text") for r in stored.records if r.command.get("type") == "chat"]
    assert chats == ["a", "c"]


class RecordingSocket:
    """The socket side of a Connection: every frame sent, in order."""

    def __init__(self) -> None:
        self.sent: list[str] = []
        self.closed = False
        self.scope: dict[str, Any] = {"extensions": {}}

    async def send_text(self, text: str) -> None:
        self.sent.append(text)

    async def close(self, code: int, reason: str) -> None:
        self.closed = True


async def test_a_sync_on_a_worker_that_does_not_own_the_room_never_goes_back_in_seq(
    workers: tuple[Worker, Worker],
) -> None:
    """Issue 18, finding 13: the owner applies a command right behind a spectator's sync and
    publishes its event before the sync's answer leaves; the spectator on the other worker still
    gets the state first and the event after it, never a state older than an event it has."""
    owner, other = workers
    async with asyncio.timeout(10):
        code, seat, _ = await open_room(owner.registry, "Ann")
        room = owner.registry.local(code)
        remote = await other.registry.get(code)
        assert room is not None and isinstance(remote, RemoteRoom)
        socket = RecordingSocket()
        conn = Connection(cast(WebSocket, cast(Any, socket)), None, 1 << 20)
        hub = Hub(other.bus)
        hub.attach(code, conn)
        await remote.connect(conn)
        actor = room._actor  # white box: a command queued the instant a sync is answered
        handle = actor.handle

        async def command_behind_the_sync(message: Message) -> Any:
            result = await handle(message)
            if isinstance(message, Sync):
                room.command_then(SeatCommand(Person(seat), Chat("behind")), lambda _done: None)
            return result

        actor.handle = command_behind_the_sync  # type: ignore[method-assign,unused-ignore]
        for _ in range(3):
            await handle_text(conn, remote, '{"type": "sync"}')
        while sum('"behind"' in frame for frame in socket.sent) < 3:
            await asyncio.sleep(0.01)
        conn.close(1000, "bye")
        while not socket.closed:
            await asyncio.sleep(0.01)
        conn.stop()
        hub.detach(code, conn)
    applied = -1
    for frame in map(json.loads, socket.sent):
        if frame["type"] == "recent":  # the story so far: events up to the state before it
            assert all(event["seq"] <= applied for event in frame["events"])
            continue
        assert frame["seq"] >= applied, f"a {frame['type']} at seq {frame['seq']} after {applied}"
        applied = frame["seq"]
    assert [json.loads(f)["type"] for f in socket.sent].count("state") == 4


@pytest.mark.parametrize("where", ["owner", "other"])
async def test_a_sync_state_follows_the_events_it_covers_and_none_is_lost(
    workers: tuple[Worker, Worker], where: str,
) -> None:
    """Issue 30: a command queued just before a socket's sync publishes its event while the
    socket waits for the state; the socket gets that event, then the state that covers it,
    on the room's own worker and on another: no event skipped, none twice, none out of seq."""
    owner, other = workers
    async with asyncio.timeout(10):
        code, seat, _ = await open_room(owner.registry, "Ann")
        room = owner.registry.local(code)
        assert room is not None
        worker = owner if where == "owner" else other
        handle = await worker.registry.get(code)
        assert handle is not None
        socket = RecordingSocket()
        conn = Connection(cast(WebSocket, cast(Any, socket)), None, 1 << 20)
        hub = Hub(worker.bus)
        hub.attach(code, conn)
        await handle.connect(conn)
        for n in range(3):
            room.command_then(SeatCommand(Person(seat), Chat(f"before sync {n}")),
                              lambda _done: None)
            await handle_text(conn, handle, '{"type": "sync"}')
        await chat(handle, seat, "last")
        while not any('"last"' in frame for frame in socket.sent):
            await asyncio.sleep(0.01)
        conn.stop()
        hub.detach(code, conn)
    frames = [json.loads(f) for f in socket.sent if not f.startswith('{"type":"recent"')]
    events = [f["seq"] for f in frames if f["type"] == "event"]
    first = frames[0]["seq"]
    assert events == list(range(first + 1, first + 1 + len(events))), events  # each once
    said = [f["event"]["text"] for f in frames if f["type"] == "event"]
    assert said == ["before sync 0", "before sync 1", "before sync 2", "last"]
    applied = -1
    for frame in frames:
        assert frame["seq"] >= applied, f"a {frame['type']} at seq {frame['seq']} after {applied}"
        applied = frame["seq"]
