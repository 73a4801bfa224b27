"""This worker's connections, room by room. A room publishes one bus message per commit,
``Events``: every frame is encoded once, by the room's owner (``encode_event``, the only merge
of private parts), and each connection here gets its seat's frame, or the public one. The
room's other control messages (``app.rooms.controls``) reseat, revoke or close connections.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from app.bus import Bus, Unsubscribe
from app.codes import Close
from app.engine import Event
from app.jsonwire import compact_json

from .controls import (
    Admitted,
    Closed,
    EncodedEvent,
    Events,
    Moved,
    Reseat,
    Revoke,
    SpectatorChat,
    from_wire,
)
from .people import Person


class Viewer(Protocol):
    """One socket as the room layer sees it."""

    seat: int | None
    token_hash: str | None
    spectator: int | None  # a named spectator's id in the room
    watcher: int | None  # an anonymous spectator's number (its chat lines carry it)
    request: int | None  # O-APPROVAL: the join request it waits on (it sees nothing else)

    def deliver(self, seq: int, frames: list[str]) -> None:
        """Queue a commit's event frames (the list is the viewer's to keep), the first at
        ``seq`` and each next one a seq later; frames that arrive before ``begin`` wait for
        it."""

    def notice(self, frame: str) -> None:
        """Queue a frame outside the room's seq (spectator chat)."""

    def begin(self, frames: list[str], seq: int) -> None:
        """Send the first frames (a state, or the events after ``since``) current up to ``seq``;
        waiting frames with a higher seq follow, lower ones are dropped."""

    def close(self, code: int, reason: str) -> None: ...


def person_of(viewer: Viewer) -> Person:
    """Who the viewer's socket speaks for now."""
    return Person(viewer.seat, viewer.spectator, viewer.watcher, viewer.request)


def room_topic(code: str) -> str:
    return f"room:{code}"


def event_frame(seq: int, event: dict[str, Any], legal: list[dict[str, Any]] | None = None
                ) -> str:
    if legal is None:
        return compact_json({"type": "event", "seq": seq, "event": event})
    return compact_json({"type": "event", "seq": seq, "event": event, "legal": legal})


def encode_event(seq: int, event: Event,
                 legal: dict[int, list[dict[str, Any]]] | None = None) -> EncodedEvent:
    """The event's frames: the public one, and one for each seat with a private part or (the
    last event of a command) a new list of legal moves (O-LEGAL)."""
    seats = []  # loops, not comprehensions: each is a call, and every event comes here
    if event.private:
        for seat, part in event.private.items():
            if part:
                seats.append(seat)
    if legal:
        for seat in legal:
            if seat not in seats:
                seats.append(seat)
    frames = []
    for seat in seats:
        frames.append((seat, event_frame(seq, event.for_viewer(seat),
                                         legal.get(seat) if legal else None)))
    return seq, event_frame(seq, event.for_viewer(None)), tuple(frames)


def with_legal(frame: str, legal: list[dict[str, Any]]) -> str:
    """An event frame with a seat's legal moves added (O-LEGAL). Frames are compact JSON
    objects, so the list goes in before the closing brace."""
    return f'{frame[:-1]},"legal":{compact_json(legal)}}}'


def add_legal(event: EncodedEvent, legal: dict[int, list[dict[str, Any]]]) -> EncodedEvent:
    """``encode_event(seq, e, legal)`` from ``encode_event(seq, e)``: the frames already encoded,
    each seat's new legal moves added to its own (its private frame, or the public one)."""
    seq, public, private = event
    frames = []  # loops, not comprehensions, as in ``encode_event``
    for seat, frame in private:
        frames.append((seat, with_legal(frame, legal[seat]) if seat in legal else frame))
    for seat, moves in legal.items():
        for private_seat, _ in private:
            if private_seat == seat:
                break
        else:
            frames.append((seat, with_legal(public, moves)))
    return seq, public, tuple(frames)


def frame_for(event: EncodedEvent, seat: int | None) -> str:
    """The frame of ``event`` that ``seat`` (None: a spectator) may see."""
    return frames_for([event], seat)[0]


def frames_for(events: list[EncodedEvent], seat: int | None) -> list[str]:
    """The frame of each of a commit's events that ``seat`` may see: one call a socket, not
    one an event (the fan-out's calls were a tenth of a move's)."""
    frames = []
    for _, public, private in events:
        for private_seat, frame in private:
            if private_seat == seat:
                frames.append(frame)
                break
        else:
            frames.append(public)
    return frames


class Hub:
    def __init__(self, bus: Bus) -> None:
        self._bus = bus
        self._viewers: dict[str, set[Viewer]] = {}
        self._unsubscribe: dict[str, Unsubscribe] = {}
        self.on_moved: list[Callable[[str], None]] = []  # told the code of a room that moved

    def attach(self, code: str, viewer: Viewer) -> None:
        viewers = self._viewers.get(code)
        if viewers is None:
            viewers = self._viewers[code] = set()
            self._unsubscribe[code] = self._bus.subscribe(
                room_topic(code), lambda message: self._on_message(code, message)
            )
        viewers.add(viewer)

    def detach(self, code: str, viewer: Viewer) -> None:
        viewers = self._viewers.get(code)
        if viewers is None:
            return
        viewers.discard(viewer)
        if not viewers:
            del self._viewers[code]
            self._unsubscribe.pop(code)()

    def close_room(self, code: str, close: int, reason: str) -> None:
        """Close this worker's sockets of room ``code`` (it no longer runs the room here)."""
        for viewer in list(self._viewers.get(code, ())):
            viewer.close(close, reason)

    def close_all(self, close: int, reason: str) -> None:
        """Close every socket of this worker (it is going away)."""
        for code in list(self._viewers):
            self.close_room(code, close, reason)

    def count(self, code: str | None = None) -> int:
        if code is not None:
            return len(self._viewers.get(code, ()))
        return sum(len(v) for v in self._viewers.values())

    def spectators(self, code: str) -> int:
        return sum(1 for v in self._viewers.get(code, ()) if v.seat is None and v.request is None)

    def spectator_counts(self) -> dict[str, int]:
        """Spectators per room on this worker (rooms with none left out)."""
        counts = {code: sum(1 for v in viewers if v.seat is None)
                  for code, viewers in self._viewers.items()}
        return {code: count for code, count in counts.items() if count}

    def _on_message(self, code: str, message: dict[str, Any]) -> None:
        viewers = self._viewers.get(code)
        if not viewers:
            return
        match from_wire(message):
            case Events(events):
                self._fan_out(viewers, events)
            case Reseat(seats):  # a seat moved down, or a spectator took one (O-QUEUE)
                for viewer in viewers:
                    if viewer.token_hash in seats:
                        viewer.seat = seats[viewer.token_hash]
                        viewer.spectator = None
            case Revoke(token_hash, reason):
                for viewer in list(viewers):
                    if viewer.token_hash == token_hash:
                        viewer.close(Close.KICKED, reason)
            case Admitted(token_hash, seat, spectator, frames, seq):
                for viewer in viewers:
                    if viewer.token_hash == token_hash and viewer.request is not None:
                        viewer.request = None
                        viewer.seat, viewer.spectator = seat, spectator
                        viewer.begin(frames, seq)
            case Moved():  # another worker took the room over: resume there
                for hook in self.on_moved:
                    hook(code)
                for viewer in list(viewers):
                    viewer.close(Close.RELOAD, "the room moved to another worker: reconnect")
            case Closed(close, reason):
                for viewer in list(viewers):
                    viewer.close(close, reason)
            case SpectatorChat(frame):  # never to a player: no coaching from the stands
                for viewer in viewers:
                    if viewer.seat is None and viewer.request is None:
                        viewer.notice(frame)

    @staticmethod
    def _fan_out(viewers: set[Viewer], events: list[EncodedEvent]) -> None:
        """A commit's events as encoded, or as lists from another worker (the same shape)."""
        if not events:
            return
        seq = events[0][0]  # a commit's seqs follow one another
        for viewer in list(viewers):
            if viewer.request is None:  # O-APPROVAL: nothing of the table before admission
                viewer.deliver(seq, frames_for(events, viewer.seat))
