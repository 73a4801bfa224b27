"""Errors the SQL store raises; the HTTP layer maps them to JSON errors.

StoreError            code: str, message: str
├── UnknownRoom       not_found: no open room has this code
├── RoomExists        conflict: an open room already has this code
├── DuplicateRecord   conflict: this room seq is stored already
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


class NotFound(StoreError):
    code = "not_found"


class InvalidRequest(StoreError):
    code = "bad_request"
