"""The engine shares events between games and rooms (a seat's plain turn, a drawer's turn, a
skip, a reverse, the common plays and draws, a challenged Wild Draw Four's victim's turn:
``turns.PLAIN_TURNS``, ``turns._PLAYED``, ``turns.CHALLENGE_TURNS``, ``drawing._DREW_ONE``,
``effects._SKIPPED``...), which is safe only while nothing changes an event once it is built
(the shared pendings, ``drawing._PLAY_DRAWN`` and ``effects._CHALLENGES``, stay inside the
engine: ``state.Pending`` says the same of them). A whole match through the room layer (the
record, the store, the encoding, the fan-out to a socket) leaves every event the engine handed
it as it was handed over."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from app.bus import InProcessBus
from app.engine import Event, Game
from app.engine.commands import Accept, ChooseColor, Command, Draw, Keep, Play
from app.engine.state import PLAY_DRAWN
from app.engine.turns import DRAWN_TURNS, PLAIN_TURNS
from app.rooms import Hub, RoomRegistry
from app.rooms.codes import token_hash
from app.rooms.command_table import COMMANDS
from app.rooms.messages import JoinRequest
from app.rooms.people import Person
from app.store.memory import MemoryRoomStore
from tests.rooms.opening import open_room
from tests.rooms.test_room_actor import FakeViewer, settings

# What each seat picks from its legal moves, in this order (bench/server.py's players).
PREFERRED = (ChooseColor, Accept, Play, Keep, Draw)


def next_move(legal: list[Command]) -> Command | None:
    for kind in PREFERRED:
        for command in legal:
            if isinstance(command, kind):
                return command
    return None


async def test_a_whole_match_through_the_room_changes_no_shared_event(
        monkeypatch: pytest.MonkeyPatch) -> None:
    handed: list[tuple[Event, Any]] = []  # each event Game.apply returned, and a copy of it then
    apply = Game.apply

    def apply_and_keep(game: Game, seat: int, command: Command,
                       now_ms: int | None = None) -> list[Event]:
        events = apply(game, seat, command, now_ms)
        handed.extend((e, copy.deepcopy((e.kind, e.public, e.private))) for e in events)
        return events

    monkeypatch.setattr(Game, "apply", apply_and_keep)
    bus = InProcessBus()
    hub = Hub(bus)
    registry = RoomRegistry(MemoryRoomStore(), bus, settings())
    code, _seat, token = await open_room(registry, "Ann", seed=7,
                                          rules={"turn_seconds": 0, "target": 1,
                                                 "deck": "classic"})
    await registry.get(code)
    room = registry.local(code)
    assert room is not None
    tokens = [token, *[(await room.join(JoinRequest(name))).token for name in ("Bob", "Cid")]]
    # A spectator, and a socket for each seat (a seat with none would be played by a bot).
    viewers = [FakeViewer(), *[FakeViewer(token_hash(t)) for t in tokens]]
    for viewer in viewers:
        hub.attach(code, viewer)
        await room.connect(viewer)
    await room.command(Person(0), COMMANDS.from_wire({"type": "start"}))
    moves = 0
    while room.state.game is not None and room.state.game.phase == "playing":
        game = room.state.game
        turn = next((seat, move) for seat in range(3)
                    if (move := next_move(game.legal_commands(seat))) is not None)
        await room.command(Person(turn[0]), turn[1])
        moves += 1
        assert moves < 2000, "the round does not end"
    assert any(f.get("event", {}).get("kind") == "round_over" for f in viewers[0].frames)
    assert len(handed) > moves
    changed = [e for e, then in handed if (e.kind, e.public, e.private) != then]
    assert changed == []
    assert [e.public for e in PLAIN_TURNS] == [{"seat": s} for s in range(len(PLAIN_TURNS))]
    assert [e.public for e in DRAWN_TURNS] == [
        {"seat": s, "pending": {"kind": PLAY_DRAWN, "seat": s}} for s in range(len(DRAWN_TURNS))]
    assert all(e.private is None for e in (*PLAIN_TURNS, *DRAWN_TURNS))
    await registry.close()
