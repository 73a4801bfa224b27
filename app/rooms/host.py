"""Host commands (start, rules, add_bot, kick, next_round) and the host role passing on."""

from __future__ import annotations

import logging
import uuid
from typing import TYPE_CHECKING, Any

from app.engine import Event, Game, InvalidRules, RiggedDeal, preset, rules_from_dict
from app.engine.commands import NextRound

from . import lobby
from .errors import BAD_DEAL, BAD_SEAT, ROOM_FULL, TOO_EARLY, WRONG_PHASE, RoomError
from .meta import IN_MATCH, SeatInfo

if TYPE_CHECKING:
    from .room import Room

log = logging.getLogger("uno.room")


async def command(room: Room, seat: int, kind: str, message: dict[str, Any]) -> None:
    if kind == "start":
        await start(room, seat)
    elif kind == "rules":
        await change_rules(room, seat, message)
    elif kind == "add_bot":
        await add_bot(room, message)
    elif kind == "kick":
        await kick(room, seat, message)
    else:
        await room.engine_command(seat, NextRound())


def _seat_arg(room: Room, message: dict[str, Any]) -> int:
    value = message.get("seat")
    if isinstance(value, bool) or not isinstance(value, int):
        raise RoomError(BAD_SEAT, "'seat' must be a seat number")
    if not 0 <= value < len(room.meta.seats):
        raise RoomError(BAD_SEAT, f"there is no seat {value}")
    return value


async def start(room: Room, seat: int) -> None:
    meta = room.meta
    if not lobby.between_matches(room):
        raise RoomError(WRONG_PHASE, "a match is running already")
    players = len(meta.seats)
    if players < 2:
        raise RoomError("not_enough_players", "S-PLAYERS: a match needs at least 2 players")
    rules = rules_from_dict(meta.rules)
    deal = None
    if meta.deal is not None and meta.matches_started == 0:
        try:
            deal = RiggedDeal.parse(meta.deal, players, rules.deck)
        except InvalidRules as exc:
            raise RoomError(BAD_DEAL, exc.message) from exc
    seed = meta.seed + meta.matches_started
    now = room.clock()
    game, events = Game.start(players, rules, seed, deal, now)
    first_seq = room.seq + 1 + len(events)  # the start record's seq: its last event's
    try:
        meta.match = await room.recorder.start(meta, seed, first_seq)
    except Exception:  # history is not worth refusing a game for
        log.exception("room %s: the match start was not recorded", room.code)
        meta.match = uuid.uuid4().hex
    meta.matches_started += 1
    meta.phase = IN_MATCH
    room.game = game
    started = Event(
        "match_started",
        {"match": meta.match, "players": players, "rules": meta.rules, **lobby.seats_public(room)},
    )
    record = {
        "type": "start",
        "players": players,
        "seed": seed,
        "rules": meta.rules,
        "deal": meta.deal if deal is not None else None,
        "match": meta.match,
    }
    await room.commit(seat, record, [started, *events], now, meta_changed=True)


async def change_rules(room: Room, seat: int, message: dict[str, Any]) -> None:
    meta = room.meta
    if not lobby.between_matches(room):
        raise RoomError(WRONG_PHASE, "rules change between matches only")
    name = message.get("preset")
    changes = message.get("rules") or {}
    if name is not None and not isinstance(name, str):
        raise RoomError("bad_rules", "'preset' must be a preset name")
    if not isinstance(changes, dict):
        raise RoomError("bad_rules", "'rules' must be an object of rule toggles")
    if name is not None:
        rules = preset(name, changes)
        meta.preset = name
    else:
        rules = rules_from_dict(meta.rules).with_changes(changes)
    meta.rules = rules.to_dict()
    changed = Event("rules_changed", {"preset": meta.preset, "rules": meta.rules})
    await room.commit(seat, {"type": "rules", "preset": name, "rules": changes}, [changed],
                      meta_changed=True)


async def add_bot(room: Room, message: dict[str, Any]) -> None:
    """Between matches: a bot takes a new seat. During a match, with ``seat``: a bot replaces a
    player disconnected for longer than ``abandon_seconds`` (O-DISCONNECT)."""
    meta = room.meta
    if message.get("seat") is not None and not lobby.between_matches(room):
        target = _seat_arg(room, message)
        info = meta.seats[target]
        if info.bot:
            raise RoomError(BAD_SEAT, f"seat {target} is a bot already")
        abandon_ms = int(meta.rules.get("abandon_seconds", 60)) * 1000
        gone_since = info.disconnected_ms
        if info.connected or gone_since is None or room.clock() - gone_since < abandon_ms:
            raise RoomError(
                TOO_EARLY, f"seat {target} may be replaced once disconnected for "
                f"{abandon_ms // 1000} s (O-DISCONNECT)"
            )
        await lobby.replace_with_bot(room, target, "abandoned")
        return
    if not lobby.between_matches(room):
        raise RoomError(WRONG_PHASE, "bots take new seats between matches; name a 'seat' to "
                        "replace an abandoned player")
    if len(meta.seats) >= meta.max_players:
        raise RoomError(ROOM_FULL, f"the table is full ({meta.max_players} players)")
    lobby.back_to_lobby(room)
    number = 1 + sum(1 for info in meta.seats if info.bot)
    meta.seats.append(SeatInfo(f"Bot {number}", "", bot=True, connected=True))
    seat = len(meta.seats) - 1
    name = meta.seats[seat].name
    joined = Event("joined", {"seat": seat, "name": name, "bot": True,
                              **lobby.seats_public(room)})
    await room.commit(None, {"type": "add_bot", "seat": seat}, [joined], meta_changed=True)


async def kick(room: Room, seat: int, message: dict[str, Any]) -> None:
    target = _seat_arg(room, message)
    if target == seat:
        raise RoomError(BAD_SEAT, "the host cannot kick their own seat: send 'leave'")
    if lobby.between_matches(room):
        await lobby.remove_seat(room, target, "kicked")
    elif room.meta.seats[target].bot:
        raise RoomError(BAD_SEAT, f"seat {target} is a bot; bots stay until the match ends")
    else:
        await lobby.replace_with_bot(room, target, "kicked")


def _gone(room: Room, seat: int | None, now: int) -> bool:
    meta = room.meta
    if seat is None or seat >= len(meta.seats) or meta.seats[seat].bot:
        return True
    info = meta.seats[seat]
    grace_ms = room.settings.host_grace_seconds * 1000
    return (
        not info.connected
        and info.disconnected_ms is not None
        and now - info.disconnected_ms >= grace_ms
    )


async def pass_host_if_gone(room: Room, publish: bool = True) -> None:
    """The host role passes to the next connected person after the host leaves (or stays
    away longer than ``host_grace_seconds``)."""
    meta = room.meta
    old = meta.host
    if not _gone(room, old, room.clock()):
        return
    n = len(meta.seats)
    first = 0 if old is None else old + 1
    order = [(first + i) % n for i in range(n)] if n else []
    heirs = [s for s in order if meta.seats[s].human and meta.seats[s].connected]
    if not heirs:
        return
    meta.host = heirs[0]
    if publish:
        changed = Event("host_changed", {"host": meta.host, "previous": old})
        await room.commit(None, {"type": "host", "host": meta.host}, [changed], meta_changed=True)

