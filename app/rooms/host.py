"""Host commands (start, rules, add_bot, kick, next_round) and the host role passing on."""

from __future__ import annotations

import logging
import secrets
import uuid
from typing import TYPE_CHECKING

from app.engine import Event, Game, InvalidRules, RiggedDeal, preset, rules_from_dict
from app.engine.commands import NextRound

from . import lobby
from .commands import AddBot, ChangeRules, Kick, StartMatch
from .errors import BAD_DEAL, BAD_SEAT, FORBIDDEN, ROOM_FULL, TOO_EARLY, WRONG_PHASE, RoomError
from .meta import IN_MATCH, SeatInfo

if TYPE_CHECKING:
    from .room import Room

log = logging.getLogger("uno.room")

HostCommand = StartMatch | ChangeRules | AddBot | Kick | NextRound


async def command(room: Room, seat: int, command: HostCommand) -> None:
    if isinstance(command, StartMatch):
        await start(room, seat)
    elif isinstance(command, ChangeRules):
        await change_rules(room, seat, command)
    elif isinstance(command, AddBot):
        await add_bot(room, command.seat)
    elif isinstance(command, Kick):
        await kick(room, seat, command.seat)
    else:
        await room.engine_command(seat, NextRound())


def _check_seat(room: Room, seat: int) -> int:
    if not 0 <= seat < len(room.meta.seats):
        raise RoomError(BAD_SEAT, f"there is no seat {seat}")
    return seat


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
    # A room made with a seed replays every match; otherwise each match gets its own secret
    # seed (kept for the replay), so no finished match's seed tells the next deal.
    seed = meta.seed + meta.matches_started if meta.seeded else secrets.randbelow(2**52)
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


async def change_rules(room: Room, seat: int, command: ChangeRules) -> None:
    meta = room.meta
    if not lobby.between_matches(room):
        raise RoomError(WRONG_PHASE, "rules change between matches only")
    fixed = meta.fixed_rules or {}
    overruled = sorted(k for k, v in command.rules.items() if k in fixed and fixed[k] != v)
    if overruled:
        raise RoomError(FORBIDDEN, f"this room plays for a league, which fixes "
                        f"{', '.join(repr(k) for k in overruled)}")
    if command.preset is not None:
        rules = preset(command.preset, {**command.rules, **fixed})
        meta.preset = command.preset
    else:
        rules = rules_from_dict(meta.rules).with_changes(command.rules)
    meta.rules = rules.to_dict()
    changed = Event("rules_changed", {"preset": meta.preset, "rules": meta.rules})
    await room.commit(seat, {"type": "rules", "preset": command.preset, "rules": command.rules},
                      [changed], meta_changed=True)


async def add_bot(room: Room, seat: int | None) -> None:
    """Between matches: a bot takes a new seat. During a match, with ``seat``: a bot replaces a
    player disconnected for longer than ``abandon_seconds`` (O-DISCONNECT)."""
    meta = room.meta
    if seat is not None and not lobby.between_matches(room):
        target = _check_seat(room, seat)
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


async def kick(room: Room, seat: int, target: int) -> None:
    _check_seat(room, target)
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

