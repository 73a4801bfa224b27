"""Errors the SQL store raises; the HTTP layer maps them to JSON errors.

StoreError            code: str, message: str
├── UnknownRoom       not_found: no open room has this code
├── RoomExists        conflict: an open room already has this code
├── DuplicateRecord   conflict: this room seq is stored already
├── NotOwner          unavailable: this worker may no longer write for the room (it moved)
│   └── Fenced        a newer owner took the room over; this writer must stop
├── StoreUnavailable  store_unavailable: the database cannot take writes now (try again)
├── NotFound          not_found: no such player, match or league
└── InvalidRequest    bad_request: a value the store refuses (name, scoring, seats...)
"""

from __future__ import annotations


class StoreError(Exception):
    code = "store_error"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class UnknownRoom(StoreError):
    code = "not_found"


class RoomExists(StoreError):
    code = "conflict"


class DuplicateRecord(StoreError):
    code = "conflict"


class NotOwner(StoreError):
    """This worker may no longer write for the room: another worker runs it now (its lease
    lapsed here, or a newer owner fenced the store). The room stops here, nothing lost."""

    code = "unavailable"


class Fenced(NotOwner):
    """The room's fencing generation is above the writer's: another worker took the room over
    (with a newer lease) since this one did. Nothing of the refused write was stored; the
    writer must stop acting as the room's owner."""

    code = "unavailable"

    def __init__(self, room: str, generation: int, current: int) -> None:
        super().__init__(
            f"room {room}: write refused, the room is at generation {current} and this writer "
            f"holds {generation} (another worker took it over)"
        )
        self.room = room
        self.generation = generation
        self.current = current


class StoreUnavailable(StoreError):
    """The database could not be reached (stopped, restarting, failing over): nothing of the
    write that raised it is stored, or it is not known to be. The store says when it is back
    (``OutageWatch``)."""

    code = "store_unavailable"

    def __init__(self, message: str = "the database cannot take writes now") -> None:
        super().__init__(message)


class NotFound(StoreError):
    code = "not_found"


class InvalidRequest(StoreError):
    code = "bad_request"
