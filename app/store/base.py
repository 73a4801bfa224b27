"""The narrow storage boundary the room layer depends on; SQL and in-memory implementations.

Every accepted command is appended (with the events it produced) before those events are
published; a snapshot of the engine is saved now and then. A room is rebuilt from its latest
snapshot plus the records after it (the engine is deterministic, so re-applying the stored
commands gives the exact state; the stored events serve clients resuming with ``since``).

Fencing (many workers): a worker that takes a room over calls ``take_over(code, generation)``
with its lease generation before loading it; from then on the store refuses (``Fenced``) every
write of an older generation to that room, inside the same SQL statement that would write it,
so a worker frozen between its lease check and its insert writes nothing once another worker
took the room. A store that never took the room over writes unfenced (one worker, no leases).
The SQL and memory stores keep one fencing entry per room they took over, until they close or
park it, or the worker stops running it and calls ``forget(code, generation)``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

# The generation a store that never took a room over writes with: above any lease's, so its
# writes go in (one worker, no leases).
UNFENCED = 2**62


@dataclass(frozen=True, slots=True)
class RoomRecord:
    """One accepted command and what it produced. ``seq`` is the room seq of its last event."""

    seq: int
    seat: int | None  # None: the room itself (timers, host actions applied by the room)
    command: dict[str, Any]  # the wire form (PROTOCOL.md) plus room-level commands
    now_ms: int
    events: list[dict[str, Any]]  # Event.to_dict() with "seq" added, in order


@dataclass(slots=True)
class StoredRoom:
    code: str
    meta: dict[str, Any]  # room-level state: seats, names, token hashes, host, rules, phase...
    snapshot: dict[str, Any] | None  # Game.snapshot() at ``snapshot_seq``; None before start
    snapshot_seq: int
    records: list[RoomRecord] = field(default_factory=list)  # after snapshot_seq, in order


class RoomStore(Protocol):
    async def create_room(self, code: str, meta: dict[str, Any]) -> None: ...

    async def append(self, code: str, record: RoomRecord, meta: dict[str, Any] | None,
                     snapshot: dict[str, Any] | None = None) -> None:
        """Durably store one record (and the room's new meta when it changed, and the engine's
        snapshot at the record's seq when one is given), all or nothing."""

    async def save_snapshot(self, code: str, seq: int, snapshot: dict[str, Any]) -> None: ...

    async def load_room(self, code: str) -> StoredRoom | None: ...

    async def open_rooms(self) -> list[str]:
        """Codes of rooms in play (not closed) and not parked, for recovery at start-up: a
        parked room (unloaded for idleness) stays in the store until someone asks for it."""

    async def close_room(self, code: str) -> None:
        """The room is finished or abandoned: its snapshot and live log may go (history stays)."""

    async def take_over(self, code: str, generation: int | None) -> None:
        """This worker runs the room from now on: unpark it and, with a ``generation`` (the
        lease's), raise the room's fencing generation to it; this store's later writes to the
        room carry it. ``Fenced`` if the room is at a higher generation already (or at the same
        one taken by another store), ``UnknownRoom`` if it is not open."""

    async def park(self, code: str) -> None:
        """The room is unloaded for idleness (still open): the takeover sweep leaves it be."""

    def forget(self, code: str, generation: int) -> None:
        """This worker stopped running the room taken over at ``generation`` and calls no more
        writes for it: drop what the store kept for it (a newer take-over's entry stays)."""

    @property
    def available(self) -> bool:
        """Can the database take writes now (False while it is away: app/store/outage.py)?"""

    @property
    def transactions(self) -> int:
        """Transactions that stored appends so far (a group commit stores several): /metrics."""

    async def rooms_to_run(self) -> list[str]:
        """Codes of open rooms in a match and not parked: what a takeover sweep keeps running
        (each is run by whoever holds its lease; the sweep claims those nobody holds)."""
