"""What a room's topic carries besides its events, and the events themselves: one frozen
dataclass per kind, with the JSON form the bus carries (``to_wire`` / ``from_wire``). Writers:
the room actor and the cluster; reader: the hub, for this worker's sockets."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from app.codes import Close

# One event as its sockets get it: (seq, public frame, ((seat, that seat's frame), ...)), built
# once by the room's owner (hub.encode_event); the bus carries them as JSON arrays (lists of
# the same shape).
EncodedEvent = tuple[int, str, tuple[tuple[int, str], ...]]


@dataclass(frozen=True, slots=True)
class Events:
    """The events of one accepted command, in seq order."""

    events: list[EncodedEvent]


@dataclass(frozen=True, slots=True)
class Reseat:
    """Seats moved down after one left: token hash -> new seat."""

    seats: dict[str, int]


REMOVED = "removed from the table by the host"


@dataclass(frozen=True, slots=True)
class Revoke:
    """The person of this token may no longer be here (kicked, left, replaced by a bot, banned,
    denied): close their sockets (4403) saying why."""

    token_hash: str
    reason: str = REMOVED


@dataclass(frozen=True, slots=True)
class Admitted:
    """O-APPROVAL: the person of this token was let in: their waiting sockets become theirs
    (``seat``, or named spectator ``spectator``) and get ``frames`` (``admitted``, then the
    table as of ``seq``)."""

    token_hash: str
    seat: int | None
    spectator: int | None
    frames: list[str]
    seq: int


@dataclass(frozen=True, slots=True)
class Moved:
    """Another worker runs the room now: every socket reconnects and resumes there."""


@dataclass(frozen=True, slots=True)
class Closed:
    """The room stopped here: close its sockets with this code."""

    close: int = Close.ROOM_GONE
    reason: str = ""


@dataclass(frozen=True, slots=True)
class SpectatorChat:
    """A spectator's chat line, for spectators only: its ``spectator_chat`` frame, encoded."""

    frame: str


Control = Events | Reseat | Revoke | Admitted | Moved | Closed | SpectatorChat


def to_wire(control: Control) -> dict[str, Any]:
    match control:
        case Events(events):
            return {"events": events}
        case Reseat(seats):
            return {"control": "reseat", "seats": seats}
        case Revoke(token_hash, reason):
            return {"control": "revoke", "token_hash": token_hash, "reason": reason}
        case Admitted(token_hash, seat, spectator, frames, seq):
            return {"control": "admitted", "token_hash": token_hash, "seat": seat,
                    "spectator": spectator, "frames": frames, "seq": seq}
        case Moved():
            return {"control": "moved"}
        case Closed(close, reason):
            return {"control": "closed", "close": close, "reason": reason}
        case SpectatorChat(frame):
            return {"control": "spectator_chat", "frame": frame}


def from_wire(message: dict[str, Any]) -> Control:
    match message.get("control"):
        case None:
            return Events(message["events"])
        case "reseat":
            return Reseat(message["seats"])
        case "revoke":
            return Revoke(message["token_hash"], message.get("reason", REMOVED))
        case "admitted":
            return Admitted(message["token_hash"], message.get("seat"), message.get("spectator"),
                            message["frames"], message["seq"])
        case "moved":
            return Moved()
        case "closed":
            return Closed(message.get("close", Close.ROOM_GONE), message.get("reason", ""))
        case "spectator_chat":
            return SpectatorChat(message["frame"])
        case other:
            raise ValueError(f"unknown room control {other!r}")


def is_closed(message: dict[str, Any]) -> bool:
    """Does this wire message close the room's sockets on this worker only (see LeasedBus)?"""
    return message.get("control") == "closed"


def is_events(message: dict[str, Any]) -> bool:
    return "control" not in message
