"""The room log's format version (issue 30): every record, snapshot and meta says the format it
was written in, and a worker never loads a room in a format it cannot read: during a rolling
deploy a worker of the older build leaves a room a newer build wrote for a worker of that build,
and gives its claim up."""

from __future__ import annotations

import pytest

from app.bus import InProcessBus
from app.config import Settings
from app.engine import Game, preset
from app.engine.randomness import GameRandom
from app.rooms import RoomRegistry, RoomUnavailable
from app.rooms.command_table import COMMANDS
from app.rooms.people import Person
from app.store.memory import MemoryRoomStore
from app.store.records import RECORD_FORMAT, FormatTooNew, check_readable
from tests.rooms.opening import open_room


def registry(store: MemoryRoomStore, record_format: int = 0) -> RoomRegistry:
    return RoomRegistry(store, InProcessBus(),
                        Settings(database_url="memory://", testing=True, snapshot_every=2,
                                 record_format=record_format, bot_delay_ms=(60_000, 60_000)))


async def test_every_record_snapshot_and_meta_says_its_format() -> None:
    store = MemoryRoomStore()
    rooms = registry(store)
    code, seat, _ = await open_room(rooms, "Ann", rules={"turn_seconds": 0})
    room = rooms.local(code)
    assert room is not None
    await room.command(Person(seat), COMMANDS.from_wire({"type": "add_bot"}))
    await room.command(Person(seat), COMMANDS.from_wire({"type": "start"}))
    # A snapshot every two records: whether the last one fell on a snapshot depends on the deal
    # (a first turn of the absent host's adds a record: it goes away), so chat until it did not.
    for line in ("after", "and after"):
        await room.command(Person(seat), COMMANDS.from_wire({"type": "chat", "text": line}))
        stored = await store.load_room(code)
        if stored is not None and stored.records:
            break
    assert stored is not None and stored.snapshot is not None
    assert stored.records and {r.command["v"] for r in stored.records} == {RECORD_FORMAT}
    assert stored.snapshot["v"] == RECORD_FORMAT and stored.meta["v"] == RECORD_FORMAT
    await rooms.close()


async def test_a_room_a_newer_build_wrote_is_left_to_that_build() -> None:
    store = MemoryRoomStore()
    newer = registry(store, record_format=RECORD_FORMAT + 1)
    code, seat, _ = await open_room(newer, "Ann", rules={"turn_seconds": 0})
    room = newer.local(code)
    assert room is not None
    await room.command(Person(seat), COMMANDS.from_wire({"type": "chat", "text": "hi"}))
    await newer.drop(code)
    older = registry(MemoryRoomStore(store))
    with pytest.raises(RoomUnavailable) as refused:
        await older.get(code)
    assert "newer build" in refused.value.message
    assert older.local(code) is None
    again = await newer.get(code)  # the newer build reads it, and the room plays on
    assert again is not None
    await again.command(Person(seat), COMMANDS.from_wire({"type": "chat", "text": "still"}))
    await newer.close()


def test_records_without_a_format_are_the_first_and_a_newer_one_is_refused() -> None:
    check_readable({"code": "X"}, None, [{"type": "join", "seat": 1}])  # format 1: readable
    with pytest.raises(FormatTooNew) as newer:
        check_readable({"v": 2}, {"v": 2}, [{"type": "play", "v": RECORD_FORMAT + 1}])
    assert "record 0" in str(newer.value)
    with pytest.raises(FormatTooNew):
        check_readable({"v": RECORD_FORMAT + 1}, None, [])


def test_this_build_reads_a_format_2_snapshot_whose_rng_is_the_generators_state() -> None:
    """Format 3 keeps the game's random stream as its seed and the words drawn; a room a format 2
    worker snapshotted (the generator's state) is read and deals on the same."""
    game, _ = Game.start(4, preset("official"), seed=5)
    ours = {**game.snapshot(), "v": RECORD_FORMAT}
    generator = GameRandom.from_json(ours["rng"]).generator(0)
    version, internal, gauss = generator.getstate()
    theirs = {**ours, "rng": [version, list(internal), gauss], "v": 2}
    check_readable({"v": 2}, theirs, [])
    with pytest.raises(FormatTooNew):  # and a format 2 worker leaves ours alone
        check_readable({"v": 2}, ours, [], readable=2)
    restored = [Game.restore({k: v for k, v in data.items() if k != "v"}).state.rng
                for data in (ours, theirs)]
    assert [restored[0].choice(range(1000)) for _ in range(5)] == \
        [restored[1].choice(range(1000)) for _ in range(5)]
