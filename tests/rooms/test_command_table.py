"""The command table (app/rooms/command_table.py) walked entry by entry: every command a client
may send parses at the edge, writes itself back as it was sent, forwards between two workers,
is refused to the senders it is not for, is recorded, and replays after a rebuild. A command
added to the table without an example here fails the first test: add its example, and the
other tests then check it too."""

from __future__ import annotations

import json
from typing import Any

import pytest

from app.api.messages import parse_frame
from app.bus import InProcessBus
from app.cluster import calls
from app.config import Settings
from app.engine import Event, parse_command
from app.jsonwire import compact_json
from app.rooms import RoomError, RoomRegistry
from app.rooms.codes import token_hash
from app.rooms.command_table import COMMANDS, Engine, Sender, sender_of
from app.rooms.messages import JoinRequest, WatchRequest
from app.rooms.meta import RoomMeta, SeatInfo
from app.rooms.people import Person
from app.rooms.rebuild import rebuilt_state
from app.rooms.room import Room
from app.store.memory import MemoryRoomStore
from app.store.records import LEGACY_ROOM_KINDS, EngineLine, goes_to_engine, replay
from tests.rooms.opening import open_room
from tests.rooms.test_room_actor import FakeViewer

# One message of each command, as a client sends it (every field the command has, where it
# can carry one).
EXAMPLES: dict[str, dict[str, Any]] = {
    "play": {"type": "play", "card": "W", "color": "G", "target": 1, "uno": True,
             "more": ["G5", "G5"]},
    "draw": {"type": "draw"},
    "pass": {"type": "pass"},
    "keep": {"type": "keep"},
    "uno": {"type": "uno"},
    "catch": {"type": "catch", "target": 2},
    "challenge": {"type": "challenge"},
    "accept": {"type": "accept"},
    "choose_color": {"type": "choose_color", "color": "B"},
    "give": {"type": "give", "card": "R3"},
    "slap": {"type": "slap"},
    "chat": {"type": "chat", "text": "good game"},
    "react": {"type": "react", "emoji": "🎉"},
    "leave": {"type": "leave"},
    "back": {"type": "back"},
    "start": {"type": "start"},
    "next_round": {"type": "next_round"},
    "rematch": {"type": "rematch"},
    "rules": {"type": "rules", "preset": "house", "rules": {"jump_in": False}},
    "add_bot": {"type": "add_bot", "seat": 1},
    "kick": {"type": "kick", "seat": 1},
    "queue": {"type": "queue"},
    "unqueue": {"type": "unqueue", "spectator": 4},
    "queue_order": {"type": "queue_order", "order": [5, 4]},
    "admit": {"type": "admit", "request": 3},
    "deny": {"type": "deny", "request": 3},
    "ban": {"type": "ban", "spectator": 2},
}


def example(name: str) -> dict[str, Any]:
    assert name in EXAMPLES, f"the command {name!r} has no example in this test: add one"
    return dict(EXAMPLES[name])


@pytest.mark.parametrize("name", [spec.name for spec in COMMANDS.specs])
def test_every_command_parses_at_the_edge_and_writes_itself_back_as_sent(name: str) -> None:
    message = example(name)
    spec = next(s for s in COMMANDS.specs if s.name == name)
    parsed = parse_frame(json.dumps({**message, "id": 7, "seq": 3}))
    assert (parsed.type, parsed.id, parsed.seq) == (name, 7, 3)
    assert parsed.command is not None and type(parsed.command) is spec.command
    assert COMMANDS.to_wire(parsed.command) == message
    assert COMMANDS.from_wire(message) == parsed.command


@pytest.mark.parametrize("name", [spec.name for spec in COMMANDS.specs])
def test_every_command_forwards_between_two_workers_as_it_was_sent(name: str) -> None:
    command = COMMANDS.from_wire(example(name))
    sent = calls.Call(12, "worker-a", "BCDF", calls.CommandCall(Person(seat=1), command, 40))
    through_redis = json.loads(compact_json(calls.to_wire(sent)))
    assert calls.from_wire(through_redis) == sent


@pytest.mark.parametrize("name", [s.name for s in COMMANDS.specs if isinstance(s.applies, Engine)])
def test_every_engine_command_is_recorded_as_its_message_and_replays_through_the_engine(
    name: str,
) -> None:
    command = COMMANDS.from_wire(example(name))
    line = EngineLine(command).to_command()  # type: ignore[arg-type]
    assert line == example(name)
    assert goes_to_engine(line)
    assert parse_command(line) == command


def test_who_may_send_what_is_read_from_the_table() -> None:
    meta = RoomMeta("BCDF", {}, host=0, seats=[SeatInfo("Ann", "a"), SeatInfo("Bob", "b")])
    host, player, named, anonymous = (Person(seat=0), Person(seat=1), Person(spectator=3),
                                      Person(watcher=1))
    assert sender_of(meta, host) == Sender.PLAYER | Sender.HOST
    assert sender_of(meta, player) == Sender.PLAYER
    assert sender_of(meta, named) == Sender.SPECTATOR | Sender.NAMED
    assert sender_of(meta, anonymous) == Sender.SPECTATOR
    for spec in COMMANDS.specs:
        assert spec.senders, f"{spec.name}: nobody may send it"
        for person in (host, player, named, anonymous):
            sender = sender_of(meta, person)
            if sender & spec.senders:
                spec.permit(sender)
                continue
            with pytest.raises(RoomError) as refused:
                spec.permit(sender)
            assert refused.value.code == "forbidden" and spec.name in refused.value.message


def test_a_spectator_is_told_what_spectators_may_send() -> None:
    spec = next(s for s in COMMANDS.specs if s.name == "play")
    with pytest.raises(RoomError) as refused:
        spec.permit(Sender.SPECTATOR)
    assert "chat" in refused.value.message and "react" in refused.value.message


def test_records_written_before_room_lines_were_marked_still_read_as_the_rooms_own() -> None:
    for kind in LEGACY_ROOM_KINDS:
        assert not goes_to_engine({"type": kind, "seat": 1})
        assert replay(None, 1, {"type": kind}, 0) == (None, [])


# -- every room command, applied in a room, then the room rebuilt from the store ------------

TARGET_LOW = {"turn_seconds": 0, "target": 1}  # one round ends the match
TARGET_HIGH = {"turn_seconds": 0, "target": 500}
ANN_GOES_OUT = {"dealer": 1, "hands": [["R1"], ["G2", "G3", "Y4"]], "discard": "R5",
                "draw_pile": ["B1", "B2", "B3", "B4"]}
BOB_GOES_AWAY = {"dealer": 1, "hands": [["R1", "R2"], ["G2", "G3", "Y4"]], "discard": "R5",
                 "draw_pile": ["B3", "B4", "B5", "B6"]}  # Bob's draw plays nothing


class Applied:
    """The room's commands, applied and noted by their table name."""

    def __init__(self, room: Room) -> None:
        self.room = room
        self.names: set[str] = set()

    async def send(self, person: Person, name: str, **fields: Any) -> None:
        await self.room.command(person, COMMANDS.from_wire({"type": name, **fields}))
        self.names.add(name)


def without_presence(meta: dict[str, Any]) -> dict[str, Any]:
    """The meta but who is connected (every socket dies with its worker: a rebuilt room starts
    with every person disconnected)."""
    seats = [{k: v for k, v in seat.items() if k not in ("connected", "disconnected_ms")}
             for seat in meta["seats"]]
    return {**meta, "seats": seats}


async def rebuilt_equals_live(store: MemoryRoomStore, room: Room) -> None:
    stored = await store.load_room(room.code)
    assert stored is not None
    state, seq, history = rebuilt_state(stored, 0)
    assert seq == room.seq
    # The events kept for resumes: the replay's own where they match, each as stored.
    stored_events = {int(e["seq"]): Event.from_dict(e) for r in stored.records for e in r.events}
    assert [s for s, _ in history] == sorted(stored_events)
    assert all(event == stored_events[s] for s, event in history)
    assert without_presence(state.meta.to_dict()) == without_presence(room.state.meta.to_dict())
    live, again = room.state.game, state.game
    assert (live is None) == (again is None)
    if live is not None and again is not None:
        assert again.snapshot() == live.snapshot()


async def test_every_room_command_is_recorded_and_the_room_rebuilds_the_same() -> None:
    store = MemoryRoomStore()
    registry = RoomRegistry(store, InProcessBus(),
                            Settings(database_url="memory://", testing=True,
                                     bot_delay_ms=(60_000, 60_000)))
    ann, bob, cid = Person(seat=0), Person(seat=1), Person(seat=2)
    # A room that plays a round and deals the next.
    code, _, ann_token = await open_room(registry, "Ann", rules=TARGET_HIGH, deal=BOB_GOES_AWAY,
                                         seed=3, max_players=3)
    room = registry.local(code)
    assert room is not None
    applied = Applied(room)
    bob_token = (await room.join(JoinRequest("Bob"))).token
    await room.connect(FakeViewer(token_hash(ann_token)))
    await applied.send(ann, "rules", rules={"jump_in": True})
    await applied.send(ann, "add_bot")
    await applied.send(ann, "kick", seat=2)
    await room.join(JoinRequest("Cid"))  # the table of three is full
    await applied.send(bob, "chat", text="hello")
    await applied.send(cid, "react", emoji="👏")
    await applied.send(Person(watcher=1), "chat", text="from the stands")
    zoe, yan = (await room.watch(WatchRequest("Zoe"))), (await room.watch(WatchRequest("Yan")))
    for fan in (zoe, yan):
        await room.connect(FakeViewer(token_hash(fan.token)))
        await applied.send(Person(spectator=fan.spectator), "queue")
    await applied.send(ann, "queue_order", order=[yan.spectator, zoe.spectator])
    await applied.send(ann, "unqueue", spectator=zoe.spectator)
    await applied.send(Person(spectator=zoe.spectator), "queue")
    await applied.send(Person(spectator=zoe.spectator), "unqueue")
    await applied.send(cid, "leave")  # Yan, first in the queue, takes the free seat
    assert [s.name for s in room.state.meta.seats] == ["Ann", "Bob", "Yan"]
    await applied.send(ann, "ban", seat=2)
    await applied.send(ann, "ban", spectator=zoe.spectator)
    assert len(room.state.meta.audience.bans) == 2 and len(room.state.meta.seats) == 2
    await applied.send(ann, "start")
    await applied.send(bob, "chat", text="during the match")
    await applied.send(ann, "play", card="R1")
    assert room.state.meta.seats[1].away  # O-IDLE: Bob's turn came while he was away
    await room.connect(FakeViewer(token_hash(bob_token)))
    await applied.send(bob, "back")
    await applied.send(bob, "draw")
    await applied.send(ann, "play", card="R2")
    await applied.send(ann, "next_round")
    await rebuilt_equals_live(store, room)
    # A room whose match ends at once, then plays again.
    code, _, _ = await open_room(registry, "Ann", rules=TARGET_LOW, deal=ANN_GOES_OUT, seed=5,
                                 approval=True)
    again = registry.local(code)
    assert again is not None
    second = Applied(again)
    bob_asks, cid_asks = await again.join(JoinRequest("Bob")), await again.join(JoinRequest("Cid"))
    await second.send(ann, "admit", request=bob_asks.request)
    await second.send(ann, "deny", request=cid_asks.request)
    await second.send(ann, "start")
    await second.send(ann, "play", card="R1")
    assert again.state.game is not None and again.state.game.phase == "match_over"
    await second.send(ann, "rematch")
    await rebuilt_equals_live(store, again)
    handled = {s.name for s in COMMANDS.specs if not isinstance(s.applies, Engine)}
    missing = handled - applied.names - second.names
    assert not missing, f"room commands this test never applied: {sorted(missing)}"
    await registry.close()
