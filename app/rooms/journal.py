"""A room's log as the worker running it writes it: every accepted command stored before its
events go out with a room-wide gap-free seq, the recent events kept for sockets that resume,
engine snapshots now and then, and the match history told of rounds and results."""

from __future__ import annotations

import itertools
import logging
import time
from collections import deque
from typing import Any

from app.bus import Bus
from app.config import Settings
from app.engine import Event
from app.jsonwire import compact_json
from app.store.base import RoomRecord, RoomStore
from app.store.records import format_for
from app.store.records import stamped as stamp

from .controls import Control, EncodedEvent, Events, to_wire
from .hub import add_legal, encode_event, event_frame, frame_for, room_topic, with_legal
from .meta import LOBBY
from .metrics import METRICS
from .people import Person
from .recorder import MatchRecorder
from .state import RoomState
from .views import state_view

log = logging.getLogger("uno.room")

Stamped = tuple[int, Event]  # an event and its seq

# The kinds that carry the room's seat list (and not the shared rules, as ``match_started``
# does): kept as the frames their commit made, whose text costs less than half the seat dicts
# (a join of eight seats: 1.0 KB, 2.2 as dicts), and a table's four joins stay kept until 64
# more events have come. Every other event is kept as itself: the engine shares most of them
# between tables (a plain turn's, a play's: a reference each), and a resume encodes again the
# few it sends. A kind misjudged here costs bytes, never a frame.
_KEPT_AS_FRAMES = frozenset(("joined", "left", "replaced", "seats_freed", "seated",
                             "join_answered"))


# A kept event as its kind and the frames its commit made (``encode_event``'s, before any legal
# moves were added): a plain tuple, the cheapest thing to build on a commit.
KeptFrames = tuple[str, EncodedEvent]
Kept = Event | KeptFrames


class Journal:
    def __init__(self, code: str, store: RoomStore, bus: Bus, recorder: MatchRecorder,
                 settings: Settings, seq: int = 0,
                 history: list[Stamped] | None = None) -> None:
        self.code = code
        self.seq = seq  # the seq of the room's last event
        self._store = store
        self._bus = bus
        self._topic = room_topic(code)
        self._recorder = recorder
        self._snapshot_every = settings.snapshot_every
        self.format = format_for(settings.record_format, settings.testing)
        # The kept events, oldest first, the last one's seq being ``seq`` (the seq is gap-free):
        # as the events, but those carrying the seat list as their frames (``_KEPT_AS_FRAMES``).
        self._history: deque[Kept] = deque(maxlen=settings.keep_events)
        self._keep(seq, history or [])
        self._since_snapshot = 0
        self._legal: dict[int, list[dict[str, Any]]] = {}  # each person's moves, as last sent

    def restart(self, seq: int, history: list[Stamped]) -> None:
        """The room was reloaded from the store (its last write failed): go on from there."""
        self.seq = seq
        self._history.clear()
        self._keep(seq, history)
        self._legal.clear()
        self._since_snapshot = 0

    def _keep(self, seq: int, history: list[Stamped]) -> None:
        """Keep ``history``, the events up to ``seq``, if they are that: gap-free and ending at
        ``seq`` (else none: a resume from before ``seq`` then gets a fresh state)."""
        if history and [s for s, _ in history] != list(range(seq - len(history) + 1, seq + 1)):
            log.warning("room %s: kept events not gap-free up to seq %d: none kept", self.code, seq)
            return
        self._history.extend(event for _, event in history)

    async def commit(self, state: RoomState, seat: int | None, command: dict[str, Any],
                     events: list[Event], now: int, meta_changed: bool = False,
                     controls: list[Control] | None = None) -> None:
        """Store the record (with the room's meta when it changed), then publish its events
        and any control messages, in seq order."""
        # A record's seq is its last event's: a record without one would repeat a seq.
        assert events, f"room {self.code}: a record with no event ({command.get('type')})"
        stamped: list[Stamped] = []
        for event in events:
            self.seq += 1
            stamped.append((self.seq, event))
        record = RoomRecord(self.seq, seat, stamp(command, self.format), now,
                            [{**e.to_dict(), "seq": s} for s, e in stamped])
        # The engine's snapshot now and then, and at each deal: in the record's own
        # transaction, so it is never ahead of the log, and the room waits for one commit.
        snapshot = None
        if state.game is not None and (
            self._since_snapshot + 1 >= self._snapshot_every
            or command.get("type") in ("start", "next_round")
        ):
            snapshot = stamp(state.game.snapshot(), self.format)
        storing = time.perf_counter()
        try:
            await self._store.append(self.code, record,
                                     stamp(state.meta.to_dict(), self.format) if meta_changed
                                     else None, snapshot)
        except BaseException:
            self.seq -= len(stamped)  # not stored: its events never were
            raise
        self._since_snapshot = 0 if snapshot is not None else self._since_snapshot + 1
        METRICS.commits.observe(time.perf_counter() - storing)
        encoded = [encode_event(seq, event) for seq, event in stamped]
        history = self._history  # their seqs follow from the order
        if meta_changed:  # the seat list changes with the meta: only then, a look at each kind
            for event, frames in zip(events, encoded, strict=True):
                history.append((event.kind, frames) if event.kind in _KEPT_AS_FRAMES else event)
        else:  # a move: its events as they are, at C's pace
            history.extend(events)
        legal = self._legal_changes(state)
        if legal and stamped:  # the new lists ride on the command's last event
            encoded[-1] = add_legal(encoded[-1], legal)
        if encoded:  # one message for the commit: fewer to send, pass on and read everywhere
            await self._bus.publish(self._topic, to_wire(Events(encoded)))
        for control in controls or ():
            await self._bus.publish(self._topic, to_wire(control))
        if state.meta.match is not None:
            await self._record_history(state.meta.match, stamped)

    def _legal_changes(self, state: RoomState) -> dict[int, list[dict[str, Any]]]:
        """O-LEGAL: the seats (people, not bots) whose legal moves changed, with the new lists."""
        game = state.game
        playing = game is not None and state.playing
        changes: dict[int, list[dict[str, Any]]] = {}
        for seat, info in enumerate(state.meta.seats):
            if info.bot:
                continue
            legal = game.legal_wire(seat) if playing and game is not None else []
            if legal != self._legal.get(seat, []):
                changes[seat] = self._legal[seat] = legal
        return changes

    async def publish(self, control: Control) -> None:
        await self._bus.publish(self._topic, to_wire(control))

    async def _record_history(self, match: str, stamped: list[Stamped]) -> None:
        """Rounds and match results go to the history; its failure never stops the game."""
        for _seq, event in stamped:
            try:
                if event.kind == "round_over":
                    await self._recorder.round_over(match, event.public)
                elif event.kind == "match_over":
                    await self._recorder.match_over(match, event.public, self.seq)
            except Exception:
                log.exception("room %s: history of match %s not recorded", self.code, match)

    def state_frame(self, state: RoomState, person: Person, spectators: int) -> str:
        view = state_view(state.meta, state.game, person, self.seq, spectators=spectators)
        return compact_json({"type": "state", "seq": self.seq, "state": view})

    def resume_frames(self, state: RoomState, person: Person, since: int | None,
                      spectators: int) -> list[str]:
        """The events after ``since`` if all are still kept, else a fresh state and the
        ``recent`` frame: the story so far, for the log of a socket that has none."""
        seat = person.seat
        history = self._history
        if since is not None and 0 <= since <= self.seq:
            oldest = self.seq - len(history) + 1  # the first kept event's seq
            if since >= oldest - 1:
                frames = self._kept_frames(since - oldest + 1, seat)
                if frames and seat is not None:  # O-LEGAL: the seat's list as it is now
                    frames[-1] = with_legal(frames[-1], self._legal.get(seat, []))
                return frames
        return [self.state_frame(state, person, spectators), self._recent_frame(state, seat)]

    def _recent_frame(self, state: RoomState, seat: int | None) -> str:
        """The kept events of the current match from its ``match_started`` on (in the lobby:
        those after the last ``match_over``), as ``seat`` may see them, oldest first."""
        history = self._history
        lobby = state.meta.phase == LOBBY
        begins = "match_over" if lobby else "match_started"
        start = 0
        for index in range(len(history) - 1, -1, -1):
            if _kind(history[index]) == begins:
                start = index + 1 if lobby else index
                break
        frames = self._kept_frames(start, seat)
        return f'{{"type":"recent","events":[{",".join(frames)}]}}'

    def _kept_frames(self, start: int, seat: int | None) -> list[str]:
        """The kept events from the ``start``-th on, each encoded again as ``seat`` (None: a
        spectator) may see it; their seqs follow from their places."""
        history = self._history
        first = self.seq - len(history) + 1  # the first kept event's seq
        return [event_frame(first + i, kept.for_viewer(seat)) if isinstance(kept, Event)
                else frame_for(kept[1], seat)
                for i, kept in enumerate(itertools.islice(history, start, None), start)]


def _kind(kept: Kept) -> str:
    return kept.kind if isinstance(kept, Event) else kept[0]
