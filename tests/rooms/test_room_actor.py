"""The room actor in-process (memory store, in-process bus, no sockets): store before publish,
a failing store, idle rooms unloaded."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from app.api.open_socket import handle_text
from app.bus import InProcessBus
from app.config import Settings
from app.rooms import Hub, RoomError, RoomRegistry
from app.rooms.codes import token_hash
from app.rooms.command_table import COMMANDS
from app.rooms.messages import JoinRequest
from app.rooms.people import Person
from app.store.base import RoomRecord
from app.store.memory import MemoryRoomStore
from tests.api.test_connection import direct
from tests.rooms.opening import open_room


class RecordingStore(MemoryRoomStore):
    def __init__(self, log: list[str]) -> None:
        super().__init__()
        self.log = log
        self.fail_next = False

    async def append(self, code: str, record: RoomRecord, meta: dict[str, Any] | None,
                     snapshot: dict[str, Any] | None = None) -> None:
        if self.fail_next:
            self.fail_next = False
            raise OSError("disk full")
        await asyncio.sleep(0.001)  # a commit takes time: publishing must wait for it
        await super().append(code, record, meta, snapshot)
        self.log.extend(f"stored {e['seq']}" for e in record.events)


class FakeViewer:
    def __init__(self, token_hash: str | None = None) -> None:
        self.seat: int | None = None
        self.spectator: int | None = None
        self.watcher: int | None = None
        self.request: int | None = None
        self.token_hash = token_hash
        self.frames: list[dict[str, Any]] = []
        self.closed: tuple[int, str] | None = None

    def deliver(self, seq: int, frames: list[str]) -> None:
        self.frames.extend(json.loads(frame) for frame in frames)

    def notice(self, frame: str) -> None:
        self.frames.append(json.loads(frame))

    def begin(self, frames: list[str], seq: int) -> None:
        self.frames.extend(json.loads(f) for f in frames)

    def close(self, code: int, reason: str) -> None:
        self.closed = (code, reason)


def settings(**changes: Any) -> Settings:
    return Settings(database_url="memory://", bot_delay_ms=(1, 2), **changes)


async def make_room(registry: RoomRegistry) -> str:
    code, _seat, _token = await open_room(registry, "Ann", rules={"turn_seconds": 0}, seed=4)
    room = await registry.get(code)
    assert room is not None
    await room.join(JoinRequest("Bob"))
    return code


async def test_every_event_is_stored_before_it_is_published() -> None:
    log: list[str] = []
    bus = InProcessBus()
    registry = RoomRegistry(RecordingStore(log), bus, settings())
    code = await make_room(registry)
    bus.subscribe(f"room:{code}", lambda m: log.extend(
        f"published {seq}" for seq, _public, _private in m.get("events", ())))
    room = await registry.get(code)
    assert room is not None
    await room.command(Person(0), COMMANDS.from_wire({"type": "start"}))
    published = [line for line in log if line.startswith("published")]
    assert len(published) >= 3
    for line in published:
        seq = line.split()[1]
        assert log.index(f"stored {seq}") < log.index(line)
    await registry.close()


async def test_a_failing_store_refuses_the_command_and_the_room_reloads_as_stored() -> None:
    store = RecordingStore([])
    bus = InProcessBus()
    hub = Hub(bus)
    registry = RoomRegistry(store, bus, settings())
    code = await make_room(registry)
    room = await registry.get(code)
    assert room is not None
    viewer = FakeViewer()
    hub.attach(code, viewer)
    await room.connect(viewer)
    store.fail_next = True
    try:
        await room.command(Person(0), COMMANDS.from_wire({"type": "start"}))
        raise AssertionError("the command should have been refused")
    except RoomError as exc:
        assert exc.code == "unavailable"
    assert viewer.closed is not None and viewer.closed[0] == 1012  # reconnect and resume
    await registry.get(code)
    again = registry.local(code)
    assert again is not None and again is not room
    # The unstored start never was.
    assert again.state.meta.phase == "lobby" and again.state.game is None
    await again.command(Person(0), COMMANDS.from_wire({"type": "start"}))
    assert again.state.game is not None
    await registry.close()


async def test_a_room_nobody_watches_is_unloaded_and_a_finished_one_closed() -> None:
    store = MemoryRoomStore()
    registry = RoomRegistry(store, InProcessBus(), settings(idle_seconds=0.1))
    code = await make_room(registry)
    await asyncio.sleep(0.3)
    assert code not in registry.rooms
    assert await store.open_rooms() == []  # it never started: closed for good
    assert await registry.get(code) is None
    await registry.close()


async def test_a_commands_ack_goes_out_in_the_same_write_as_its_events() -> None:
    """The sender's ack follows its command's events in the write that carries them (it was
    a write of its own, a turn of the event loop later: a fifth system call per move)."""
    bus = InProcessBus()
    hub = Hub(bus)
    registry = RoomRegistry(MemoryRoomStore(), bus, settings())
    code, _seat, token = await open_room(registry, "Ann", rules={"turn_seconds": 0}, seed=4)
    room = await registry.get(code)
    assert room is not None
    conn, writer = direct()
    conn.token_hash = token_hash(token)
    hub.attach(code, conn)
    await room.connect(conn, None)
    await asyncio.sleep(0.01)
    writer.writes.clear()
    await handle_text(conn, room, '{"type": "chat", "text": "hello", "id": 7}')
    await asyncio.sleep(0.01)
    frames = [[json.loads(text) for text in write] for write in writer.writes]
    assert [[f["type"] for f in write] for write in frames] == [["event", "ack"]], frames
    assert frames[0][0]["event"]["kind"] == "chat" and frames[0][1]["id"] == 7
    await registry.close()


async def test_a_room_waiting_for_its_next_message_keeps_nothing_of_the_last_command() -> None:
    # A room's last command (its person, its envelope and future) stayed alive until the next
    # message: memory per room, and objects the collector traversed once more.
    import gc  # noqa: PLC0415

    from app.rooms.messages import Envelope, SeatCommand  # noqa: PLC0415

    registry = RoomRegistry(MemoryRoomStore(), InProcessBus(), settings())
    code = await make_room(registry)
    room = await registry.get(code)
    assert room is not None

    def commands_alive() -> set[int]:  # type(), not isinstance: no dead weak proxy's error
        return {id(o) for o in gc.get_objects() if type(o) in (Envelope, SeatCommand)}

    before = commands_alive()  # other tests' leftovers, if any
    # A chat line: a command answered with nothing to follow (a start would set the absent
    # seats' automatic turns going, whose next message may be queued when looked at).
    await room.command(Person(0), COMMANDS.from_wire({"type": "chat", "text": "hi"}))
    await asyncio.sleep(0.05)  # the room's loop waits for its next message
    alive = commands_alive() - before
    await registry.close()
    assert alive == set()
