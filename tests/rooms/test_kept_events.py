"""O-DISCONNECT: a reconnecting socket resumes from the events its room keeps (``Journal``): as
the events, those carrying the seat list as their frames, each socket given exactly the frames
``encode_event`` makes for its seat (a private part to its seat alone), the seqs following from
the order; a history that is not gap-free is not kept."""

from __future__ import annotations

import tracemalloc
from typing import Any

from app.bus import InProcessBus
from app.config import Settings
from app.engine import Event
from app.rooms.hub import encode_event, frame_for
from app.rooms.journal import Journal, Stamped
from app.rooms.meta import RoomMeta, SeatInfo
from app.rooms.people import Person
from app.rooms.recorder import NoRecorder
from app.rooms.state import RoomState
from app.store.base import RoomRecord
from app.store.memory import MemoryRoomStore


def events(first: int, count: int) -> list[Stamped]:
    """Public events, and every third a draw whose cards only the drawer's frame names."""
    made = []
    for seq in range(first, first + count):
        if seq % 3:
            made.append((seq, Event("chat", {"seat": seq % 4, "text": "hi"})))
        else:
            seat = seq % 4
            made.append((seq, Event("draw", {"seat": seat, "count": 1}, {seat: {"cards": ["R7"]}})))
    return made


class Forgets(MemoryRoomStore):
    """A store that takes every record and keeps none: what a room keeps is all there is."""

    async def append(self, code: str, record: RoomRecord, meta: dict[str, Any] | None,
                     snapshot: dict[str, Any] | None = None) -> None:
        return None


def journal(seq: int, history: list[Stamped], keep: int = 64) -> Journal:
    return Journal("BCDF", Forgets(), InProcessBus(), NoRecorder(),
                   Settings(keep_events=keep), seq, history)


STATE = RoomState(RoomMeta("BCDF", {}, seats=[SeatInfo(n, n) for n in "abcd"]))


def test_a_resume_gets_each_missed_event_as_its_seat_may_see_it() -> None:
    history = events(11, 30)
    kept = journal(40, history)
    for seat in (None, 0, 1, 2, 3):
        for since in (10, 25, 39, 40):
            frames = kept.resume_frames(STATE, Person(seat), since, 0)
            want = [frame_for(encode_event(*e), seat) for e in history if e[0] > since]
            if want and seat is not None:  # O-LEGAL: the seat's list (none yet) on the last
                want[-1] = want[-1][:-1] + ',"legal":[]}'
            assert frames == want
            assert all('"R7"' not in f for f in frames if seat is None or f'"seat":{seat}' not in f)


def test_only_the_last_kept_events_answer_a_resume() -> None:
    kept = journal(40, events(11, 30), keep=8)  # 33..40 kept
    assert len(kept.resume_frames(STATE, Person(None), 32, 0)) == 8
    assert kept.resume_frames(STATE, Person(None), 31, 0)[0].startswith('{"type":"state"')


def test_a_history_with_a_gap_is_not_kept_and_a_resume_gets_a_fresh_state() -> None:
    history = events(11, 30)
    kept = journal(40, history[:10] + history[11:])
    assert kept.resume_frames(STATE, Person(1), 39, 0)[0].startswith('{"type":"state"')
    short = journal(41, history)  # not ending at the room's seq
    assert short.resume_frames(STATE, Person(1), 39, 0)[0].startswith('{"type":"state"')


def test_kept_events_give_back_their_frames_exactly_across_seq_digits_and_any_text() -> None:
    history = [(seq, Event("chat", {"seat": 1, "text": f"é한 {seq} \"}}"},
                           {2: {"note": "ß"}} if seq % 2 else None))
               for seq in range(1, 121)]
    kept = journal(120, history, keep=200)
    for seat in (None, 1, 2):
        frames = kept.resume_frames(STATE, Person(seat), 0, 0)
        if seat is not None:
            frames[-1] = frames[-1].removesuffix(',"legal":[]}') + "}"
        assert frames == [frame_for(encode_event(*e), seat) for e in history]


def joined(seat: int) -> Event:
    seats = [{"seat": s, "name": f"player {s}", "bot": False, "connected": True, "away": False}
             for s in range(seat + 1)]
    return Event("joined", {"seat": seat, "name": f"player {seat}", "bot": False,
                            "seats": seats, "host": 0})


async def test_events_kept_by_commits_resume_as_the_frames_that_went_out() -> None:
    kept = journal(0, [])
    made: list[Event] = [joined(0), Event("presence", {"seat": 0, "connected": True}),
                         Event("turn", {"seat": 1}),
                         Event("drew", {"seat": 1, "count": 2}, {1: {"cards": ["R7", "B2"]}}),
                         joined(1)]
    for event in made:  # a join comes with a new meta (its seat), a move without
        await kept.commit(STATE, 0, {"type": "chat"}, [event], 0,
                          meta_changed=event.kind == "joined")
    for seat in (None, 0, 1, 2):
        frames = kept.resume_frames(STATE, Person(seat), 0, 0)
        if seat is not None:
            frames[-1] = frames[-1].removesuffix(',"legal":[]}') + "}"
        assert frames == [frame_for(encode_event(seq, e), seat)
                          for seq, e in enumerate(made, 1)]
        assert ('"B2"' in "".join(frames)) == (seat == 1)  # a private part to its seat alone
    recent = kept.resume_frames(STATE, Person(1), None, 0)[1]
    assert recent.count('"kind":"joined"') == 2  # a fresh socket's story: the kinds still read


async def test_a_kept_join_costs_its_text_not_its_dicts() -> None:
    # A table's first events (the joins, each with the seat list) stay kept until 64 more
    # come: as the event's dicts, 2.2 KB a join of eight seats; as its frames, 1 KB.
    kept = journal(0, [], keep=64)
    tracemalloc.start()
    try:
        before, _ = tracemalloc.get_traced_memory()
        for _ in range(64):
            await kept.commit(STATE, 0, {"type": "chat"}, [joined(7)], 0, meta_changed=True)
        after, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert (after - before) / 64 < 1200
