"""Room-level refusals. Like the engine's errors each carries a PROTOCOL.md code; the HTTP layer
maps ``status`` to the response status, the socket edge turns it into an ``error`` frame.

    RoomError               code, message, status
    ├── RoomNotFound        unknown_room (404)
    └── RoomUnavailable     unavailable (503): the store failed; the room reloads from it
"""

from __future__ import annotations

FORBIDDEN = "forbidden"
ROOM_FULL = "room_full"
ALREADY_STARTED = "already_started"
WRONG_PHASE = "wrong_phase"
BAD_SEAT = "bad_target"
TOO_EARLY = "too_early"
BAD_MESSAGE = "bad_message"
BAD_DEAL = "bad_deal"


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
