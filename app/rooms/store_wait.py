"""A room's side of a database outage (the store's side: app/store/outage.py). While the
database is away the room refuses whatever would write (``store_unavailable``, before anything
changes), its turn's clock does not run, and its people may still connect and watch. A write
that failed halfway left the room ahead of its store (``tainted``): it is reloaded from the
store once the database is back, which is exactly what its sockets have seen (events go out
only once stored)."""

from __future__ import annotations

from app.store.base import RoomStore

from .errors import STORE_UNAVAILABLE, RoomError


class StoreWait:
    def __init__(self, store: RoomStore) -> None:
        self._store = store
        self.tainted = False  # a write of ours failed: the state is ahead of the store
        self._since_ms: int | None = None  # when this room first found the database away
        self._shift: tuple[int, int] | None = None  # (deadline, ms it moved by)

    @property
    def ok(self) -> bool:
        return not self.tainted and self._store.available

    def check(self, now_ms: int) -> None:
        """Refuse (before anything changes) while the room cannot store what it does."""
        if self.ok:
            return
        if self._since_ms is None:
            self._since_ms = now_ms
        raise RoomError(STORE_UNAVAILABLE, "the room waits for its database: nothing was "
                        "done, try again in a moment", 503)

    def failed(self, now_ms: int) -> RoomError:
        """A write of ours failed halfway: the room must be reloaded before it goes on."""
        self.tainted = True
        if self._since_ms is None:
            self._since_ms = now_ms
        return RoomError(STORE_UNAVAILABLE, "the room's database did not take this: nothing "
                         "was done, try again in a moment", 503)

    def back(self, now_ms: int, deadline_ms: int | None) -> None:
        """The database is back (and the room reloaded if it had to be): the turn that was
        waited on gets the time the outage took from it."""
        if self._since_ms is not None and deadline_ms is not None:
            self._shift = (deadline_ms, max(0, now_ms - min(self._since_ms, deadline_ms)))
        self._since_ms = None

    def deadline(self, deadline_ms: int) -> int:
        """When the room acts on ``deadline_ms``: later by the outage, for the turn it hit."""
        shift = self._shift
        if shift is not None and shift[0] == deadline_ms:
            return deadline_ms + shift[1]
        return deadline_ms
