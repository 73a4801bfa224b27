"""Rebuilding a room from the store: the latest meta, the engine snapshot, then the commands
recorded after it re-applied (the engine is deterministic, RNG included)."""

from __future__ import annotations

import logging

from app.bus import Bus
from app.config import Settings
from app.engine import Event, Game, RiggedDeal, parse_command, rules_from_dict
from app.store.base import RoomRecord, RoomStore, StoredRoom

from .hub import EncodedEvent, encode_event
from .meta import LOBBY, RoomMeta
from .room import Clock, Room

log = logging.getLogger("uno.rooms")

# Recorded command types the room applied itself; every other record went through the engine
# (and is replayed), whatever commands the engine learns.
ROOM_TYPES = frozenset(
    {"join", "presence", "add_bot", "rules", "host", "left", "kicked", "replace"}
)


def replay_record(game: Game | None, record: RoomRecord) -> Game | None:
    """The game after ``record``; room-only records (joins, presence, lobby chat) change none."""
    command = record.command
    kind = command.get("type")
    if kind == "start":
        rules = rules_from_dict(command["rules"])
        players = int(command["players"])
        deal = command.get("deal")
        rigged = RiggedDeal.parse(deal, players, rules.deck) if deal else None
        game, _ = Game.start(players, rules, int(command["seed"]), rigged, record.now_ms)
        return game
    if game is None or kind in ROOM_TYPES or command.get("room"):
        return game
    seat = record.seat if record.seat is not None else 0
    events = game.apply(seat, parse_command(command), record.now_ms)
    stored = [{k: v for k, v in e.items() if k != "seq"} for e in record.events]
    if [e.to_dict() for e in events] != stored:
        log.warning("replay of seq %d differs from its stored events", record.seq)
    return game


def rebuild(
    stored: StoredRoom, store: RoomStore, bus: Bus, settings: Settings, clock: Clock
) -> Room:
    meta = RoomMeta.from_dict(stored.meta)
    game = Game.restore(stored.snapshot) if stored.snapshot is not None else None
    seq = stored.snapshot_seq
    history: list[EncodedEvent] = []
    for record in stored.records:
        game = replay_record(game, record)
        for data in record.events:
            history.append(encode_event(int(data["seq"]), Event.from_dict(data)))
        seq = max(seq, record.seq)
    if meta.phase == LOBBY:
        game = None
    now = clock()
    for info in meta.seats:  # every socket died with the old process
        if info.human and info.connected:
            info.connected = False
            info.disconnected_ms = now
    log.info("room %s rebuilt at seq %d from %d records", meta.code, seq, len(stored.records))
    return Room(meta, store, bus, settings, clock, game, seq, history)
