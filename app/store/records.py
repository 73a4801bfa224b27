"""The room log's record format, and how a record is replayed: defined once, for the live room
(which writes records), its rebuild after a restart or failover, and the match replay.

A record is one accepted command (``RoomRecord``): its ``command`` is the PROTOCOL.md message,
or one of the room's own (``ROOM_COMMANDS``: seating, presence, host changes, rule changes; and
lobby chat, marked ``"room": true``), which went around the engine. ``start`` deals a match from
its ``seed``, ``rules``, ``players`` and rigged ``deal``. Every other record went through the
engine, whatever commands the engine learns, for ``engine_seat(record.seat)``: a record with no
seat is the room's own (its timer's ``timeout``), applied for seat 0 (the engine ignores the
seat there).
"""

from __future__ import annotations

from typing import Any, Final

from app.engine import Event, Game, RiggedDeal, parse_command, rules_from_dict

START: Final = "start"
ROOM_COMMANDS: Final = frozenset(
    {"join", "presence", "add_bot", "rules", "host", "left", "kicked", "replace", "freed",
     "react", "watching"}
)


def goes_to_engine(command: dict[str, Any]) -> bool:
    """Was this record's command applied to a running match's engine (``start`` aside)?"""
    return (command.get("type") not in ROOM_COMMANDS and command.get("type") != START
            and not command.get("room"))


def engine_seat(seat: int | None) -> int:
    return 0 if seat is None else seat


def deal(command: dict[str, Any], now_ms: int) -> tuple[Game, list[Event]]:
    """The match a ``start`` record dealt, as it was dealt."""
    rules = rules_from_dict(command["rules"])
    players = int(command["players"])
    rigged_deal = command.get("deal")
    rigged = RiggedDeal.parse(rigged_deal, players, rules.deck) if rigged_deal else None
    return Game.start(players, rules, int(command["seed"]), rigged, now_ms)


def replay(game: Game | None, seat: int | None, command: dict[str, Any], now_ms: int
           ) -> tuple[Game | None, list[Event]]:
    """The game after one record, and the engine's events for it (none for the room's own
    records, or without a match)."""
    if command.get("type") == START:
        return deal(command, now_ms)
    if game is None or not goes_to_engine(command):
        return game, []
    return game, game.apply(engine_seat(seat), parse_command(command), now_ms)
