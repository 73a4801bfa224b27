"""A room's meta as stored: every field, and a copy the room's later changes do not reach."""

from __future__ import annotations

import dataclasses

from hypothesis import given
from hypothesis import strategies as st

from app.rooms.meta import RoomMeta, SeatInfo

json_leaf = st.none() | st.booleans() | st.integers() | st.text(max_size=5)
json_like = st.recursive(json_leaf, lambda inner: st.lists(inner, max_size=3)
                         | st.dictionaries(st.text(max_size=5), inner, max_size=3), max_leaves=8)
seats = st.builds(SeatInfo, name=st.text(max_size=8), token_hash=st.text(max_size=8),
                  bot=st.booleans(), player_id=st.none() | st.integers(),
                  connected=st.booleans(), disconnected_ms=st.none() | st.integers(),
                  stand_in=st.booleans())
metas = st.builds(RoomMeta, code=st.text(min_size=4, max_size=4),
                  rules=st.dictionaries(st.text(max_size=8), json_like, max_size=4),
                  deal=st.none() | st.dictionaries(st.text(max_size=4), json_like, max_size=3),
                  league=st.none() | st.text(max_size=4), host=st.none() | st.integers(0, 9),
                  seats=st.lists(seats, max_size=5))


@given(metas)
def test_the_stored_meta_is_every_field_and_reads_back_the_same(meta: RoomMeta) -> None:
    stored = meta.to_dict()
    assert stored == dataclasses.asdict(meta)
    assert RoomMeta.from_dict(stored) == meta


def test_the_stored_meta_does_not_change_with_the_room() -> None:
    meta = RoomMeta("ABCD", rules={"house": {"stacking": ["draw_two"]}},
                    deal={"hands": [["R1"]]}, seats=[SeatInfo("Ann", "h")])
    stored = meta.to_dict()
    meta.rules["house"]["stacking"].append("wild_draw_four")
    meta.deal["hands"][0].append("G2")  # type: ignore[index]
    meta.seats[0].connected = True
    assert stored["rules"] == {"house": {"stacking": ["draw_two"]}}
    assert stored["deal"] == {"hands": [["R1"]]}
    assert stored["seats"][0]["connected"] is False
