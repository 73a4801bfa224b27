"""A room opened from one value (``RoomSpec``), as the HTTP route and a tournament open them: the
seats given in advance are taken, each by its own token, and a spec that cannot be is refused
before anything is opened."""

from __future__ import annotations

import pytest

from app.bus import InProcessBus
from app.config import Settings
from app.rooms import RoomError, RoomRegistry, seating
from app.rooms.codes import new_token, token_hash
from app.rooms.people import Person
from app.rooms.spec import RoomSpec, SeatSpec, TableOf
from app.store.memory import MemoryRoomStore


def registry(testing: bool = False) -> RoomRegistry:
    return RoomRegistry(MemoryRoomStore(), InProcessBus(),
                        Settings(database_url="memory://", testing=testing))


async def test_a_room_opens_with_its_people_seated_by_their_own_tokens() -> None:
    rooms = registry()
    ann, bob = new_token(), new_token()
    spec = RoomSpec(seats=(SeatSpec("Ann", token_hash(ann), player_id=4),
                           SeatSpec("Bob", token_hash(bob)), SeatSpec("Bot 1", bot=True)),
                    host=None, public=False, table_of=TableOf("QWXYZ", 2))
    code = await rooms.create(spec)
    room = rooms.local(code)
    assert room is not None
    meta = room.state.meta
    assert [(s.name, s.bot, s.player_id) for s in meta.seats] == [
        ("Ann", False, 4), ("Bob", False, None), ("Bot 1", True, None)]
    assert meta.host is None and not meta.public
    assert seating.identify(meta, token_hash(bob)) == Person(seat=1)
    assert meta.seats[2].connected  # a bot is always there
    assert meta.tournament == {"code": "QWXYZ", "round": 2}
    assert (await room.summary())["host"] is None
    await rooms.close()


async def test_a_spec_that_cannot_be_opened_is_refused_and_opens_nothing() -> None:
    rooms = registry()
    seats = tuple(SeatSpec(f"P{n}", f"h{n}") for n in range(5))
    cases = [
        (RoomSpec(seats=seats, max_players=4), "room_full"),
        (RoomSpec(seats=seats[:2], preset="teams"), None),  # four seats under H-TEAMS: fine
        (RoomSpec(seats=seats[:2], host=3), "bad_target"),
        (RoomSpec(seats=seats[:2], rules={"hand_size": 99}), "bad_rules"),
        (RoomSpec(seats=seats[:2], deal={"hands": [["R1"], ["R2"]], "discard": "R5"}),
         "forbidden"),
    ]
    for spec, code in cases:
        if code is None:
            await rooms.create(spec)
            continue
        with pytest.raises(Exception) as refused:
            await rooms.create(spec)
        assert getattr(refused.value, "code", None) == code, spec
    assert len(rooms.rooms) == 1
    await rooms.close()


async def test_a_rigged_deal_is_checked_against_the_deck_when_testing() -> None:
    rooms = registry(testing=True)
    seats = (SeatSpec("Ann", "a"), SeatSpec("Bob", "b"))
    with pytest.raises(RoomError) as refused:
        await rooms.create(RoomSpec(seats=seats, deal={"hands": [["R1"] * 9, []],
                                                       "discard": "R5"}))
    assert refused.value.code == "bad_deal"
    assert await rooms.create(RoomSpec(seats=seats, deal={"hands": [["R1"], ["R2"]],
                                                          "discard": "R5"}))
    await rooms.close()
