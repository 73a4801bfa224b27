"""Room-level refusals. Like the engine's errors each carries a PROTOCOL.md code; the HTTP layer
maps ``status`` to the response status, the socket edge turns it into an ``error`` frame.

    RoomError               code, message, status
    ├── RoomNotFound        unknown_room (404)
    └── RoomUnavailable     unavailable (503): the store failed; the room reloads from it
"""

from __future__ import annotations

from app.engine import EngineError

FORBIDDEN = "forbidden"
ROOM_FULL = "room_full"
ROOM_CROWDED = "room_crowded"
ALREADY_STARTED = "already_started"
WRONG_PHASE = "wrong_phase"
BAD_SEAT = "bad_target"
TOO_EARLY = "too_early"
BAD_MESSAGE = "bad_message"
BAD_DEAL = "bad_deal"
RATE_LIMITED = "rate_limited"
NOTHING_TO_DO = "nothing_to_do"
STORE_UNAVAILABLE = "store_unavailable"
BANNED = "banned"
APPROVAL_REQUIRED = "approval_required"


class RoomError(Exception):
    def __init__(self, code: str, message: str, status: int = 409) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status


class RoomNotFound(RoomError):
    def __init__(self, code: str) -> None:
        super().__init__("unknown_room", f"there is no room {code!r}", 404)


class RoomUnavailable(RoomError):
    def __init__(self, message: str = "the room is reloading, try again") -> None:
        super().__init__("unavailable", message, 503)


# Refusals that mean "the table moved on" when the client acted on an older seq.
_STALE_CODES = frozenset({"not_your_turn", "not_catchable", "nothing_to_do", "illegal_play"})


def too_late_or(exc: EngineError, seen: int | None, seq: int) -> EngineError | RoomError:
    """A command carrying the ``seq`` its sender had seen, refused because events came after
    it, is answered ``too_late`` (the race was lost) instead of the engine's code."""
    if exc.code in _STALE_CODES and seen is not None and seen < seq:
        return RoomError("too_late", f"too late: {exc.message} (the table moved on after "
                         f"seq {seen})")
    return exc
