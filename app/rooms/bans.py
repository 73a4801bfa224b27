"""O-BAN: the host bans a person: they leave (a seat is freed between matches, taken by a bot
during one; a spectator's sockets close) and never come back to this room, by their token,
their profile or, for a guest, their browser's device key: never by name (trivially dodged)
nor by address (it would hit a whole party on one Wi-Fi). Pure."""

from __future__ import annotations

from app.engine import Event
from app.store.records import Banned

from .commands import Ban as BanCommand
from .controls import Revoke
from .errors import BAD_SEAT, ROOM_CROWDED, RoomError
from .people import Ban, Person
from .seating import remove_seat, replace_with_bot
from .state import Context, Outcome, RoomState

MAX_BANS = 256  # per room: a host's list, stored with the room
BANNED_HERE = "the host banned you from this room"


def ban(state: RoomState, person: Person, command: BanCommand, ctx: Context) -> Outcome:
    if len(state.meta.audience.bans) >= MAX_BANS:
        raise RoomError(ROOM_CROWDED, f"this room keeps at most {MAX_BANS} bans")
    if command.seat is not None:
        return _ban_seat(state, person, command.seat)
    assert command.spectator is not None  # the model names exactly one
    return _ban_spectator(state, person, command.spectator)


def _ban_seat(state: RoomState, person: Person, seat: int) -> Outcome:
    meta = state.meta
    if not 0 <= seat < len(meta.seats):
        raise RoomError(BAD_SEAT, f"there is no seat {seat}")
    info = meta.seats[seat]
    if seat == person.seat:
        raise RoomError(BAD_SEAT, "the host cannot ban their own seat")
    if info.bot:
        raise RoomError(BAD_SEAT, f"seat {seat} is a bot; kick it instead")
    removed = (remove_seat(state, seat, "banned") if state.between_matches
               else replace_with_bot(state, seat, "banned"))
    assert removed.state is not None
    after = removed.state.meta  # a copy already
    after.audience.bans.append(Ban(info.name, [info.token_hash], info.player_id, info.device))
    controls = [Revoke(info.token_hash, BANNED_HERE) if isinstance(c, Revoke) else c
                for c in removed.controls]
    return Outcome(Banned(seat, None), removed.events, seat=person.seat,
                   state=RoomState(after, removed.state.game), controls=controls,
                   left_match=removed.left_match)


def _ban_spectator(state: RoomState, person: Person, spectator: int) -> Outcome:
    found = state.meta.audience.spectator(spectator)
    if found is None:
        raise RoomError(BAD_SEAT, f"there is no spectator {spectator}")
    meta = state.meta.copy()
    audience = meta.audience
    audience.spectators = [s for s in audience.spectators if s.id != spectator]
    audience.queue = [s for s in audience.queue if s != spectator]
    audience.bans.append(Ban(found.name or "", [found.token_hash], found.player_id,
                             found.device))
    banned = Event("banned", {"spectator": spectator})
    return Outcome(Banned(None, spectator), [banned], seat=person.seat,
                   state=RoomState(meta, state.game),
                   controls=[Revoke(found.token_hash, BANNED_HERE)])
