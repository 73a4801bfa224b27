"""Rebuilding a room from the store: the latest meta, the engine snapshot, then the records
stored after it replayed (app/store/records.py; the engine is deterministic, RNG included)."""

from __future__ import annotations

import logging

from app.engine import Event, Game
from app.store.base import StoredRoom
from app.store.records import FORMAT_KEY, RECORD_FORMAT, check_readable, replay

from .journal import Stamped
from .meta import LOBBY, RoomMeta
from .state import RoomState

log = logging.getLogger("uno.rooms")


def rebuilt_state(stored: StoredRoom, now: int, readable: int = RECORD_FORMAT,
                  sockets_died: bool = True) -> tuple[RoomState, int, list[Stamped]]:
    """The room's state, its seq and its recent events, as stored; every seat disconnected
    (``sockets_died``: they died with the process that ran it; not so when the room reloads in
    place). ``FormatTooNew`` if a newer build wrote any of it."""
    check_readable(stored.meta, stored.snapshot, [r.command for r in stored.records], readable)
    meta = RoomMeta.from_dict(stored.meta)
    snapshot = stored.snapshot
    game = None if snapshot is None else Game.restore(
        {k: v for k, v in snapshot.items() if k != FORMAT_KEY})
    seq = stored.snapshot_seq
    history: list[Stamped] = []
    for record in stored.records:
        game, events = replay(game, record.seat, record.command, record.now_ms)
        if events and [e.to_dict() for e in events] != [
                {k: v for k, v in e.items() if k != "seq"} for e in record.events]:
            log.warning("replay of seq %d differs from its stored events", record.seq)
            events = []
        # The events the replay made where they are the stored ones (the engine shares many
        # between tables), else those stored (a room line's, which the engine never saw).
        kept = events or [Event.from_dict(data) for data in record.events]
        history += zip((int(data["seq"]) for data in record.events), kept, strict=True)
        seq = max(seq, record.seq)
    if meta.phase == LOBBY:
        game = None
    for info in meta.seats if sockets_died else ():
        if info.human and info.connected:
            info.connected = False
            info.disconnected_ms = now
    log.info("room %s rebuilt at seq %d from %d records", meta.code, seq, len(stored.records))
    return RoomState(meta, game), seq, history
