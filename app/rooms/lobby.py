"""Who sits where: joins, connects and disconnects, leaving, chat, seats taken over by bots."""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING, Any

from app.engine import Event
from app.engine.commands import Chat

from . import host
from .codes import new_token, token_hash
from .errors import ALREADY_STARTED, ROOM_FULL, RoomError
from .hub import Viewer, frame_for
from .items import Item, JoinRequest
from .meta import LOBBY, SeatInfo

if TYPE_CHECKING:
    from .room import Room

log = logging.getLogger("uno.room")


def between_matches(room: Room) -> bool:
    game = room.game
    return room.meta.phase == LOBBY or game is None or game.phase == "match_over"


def back_to_lobby(room: Room) -> None:
    """The roster changes after a match: the room returns to the lobby for the next one."""
    room.meta.phase = LOBBY
    room.game = None


def seats_public(room: Room) -> dict[str, Any]:
    return {"seats": room.meta.public_seats(), "host": room.meta.host}


async def join(room: Room, request: JoinRequest) -> tuple[int, str]:
    """A new seat for ``request.name`` (made safe at the edge), between matches only."""
    meta = room.meta
    name = request.name
    if not between_matches(room):
        raise RoomError(ALREADY_STARTED, "the match has started: watch it or wait for the next")
    if len(meta.seats) >= meta.max_players:
        raise RoomError(ROOM_FULL, f"the table is full ({meta.max_players} players)")
    back_to_lobby(room)
    token = new_token()
    player_id = await room.recorder.profile_id(request.player_key)
    meta.seats.append(SeatInfo(name, token_hash(token), player_id=player_id))
    seat = len(meta.seats) - 1
    if meta.host is None:
        meta.host = seat
    joined = Event("joined", {"seat": seat, "name": name, "bot": False, **seats_public(room)})
    await room.commit(None, {"type": "join", "seat": seat, "name": name}, [joined],
                      meta_changed=True)
    return seat, token


def resume_frames(room: Room, seat: int | None, since: int | None) -> list[str]:
    """The events after ``since`` if all are still kept, else a fresh state."""
    if since is not None and 0 <= since <= room.seq:
        oldest = room.history[0][0] if room.history else room.seq + 1
        if since >= oldest - 1:
            return [frame_for(event, seat) for event in room.history if event[0] > since]
    return [room.state_frame(seat)]


async def connect(room: Room, viewer: Viewer, since: int | None) -> int | None:
    """Seat the viewer by its token (checked here, in order with kicks), mark the seat
    connected, then send its first frames. Returns the seat (None: a spectator)."""
    seat: int | None = None
    if viewer.token_hash is not None:
        seat = room.meta.seat_of_token(viewer.token_hash)
        if seat is None:
            raise RoomError("bad_token", "this token holds no seat in this room", 401)
    viewer.seat = seat
    room.viewers += 1
    if seat is not None and viewer.token_hash is not None:
        count = room.seat_connections.get(viewer.token_hash, 0)
        room.seat_connections[viewer.token_hash] = count + 1
        info = room.meta.seats[seat]
        if not info.connected:
            info.connected = True
            info.disconnected_ms = None
            await room.commit(
                seat,
                {"type": "presence", "connected": True},
                [Event("presence", {"seat": seat, "connected": True})],
                meta_changed=True,
            )
        await host.pass_host_if_gone(room)
    viewer.begin(resume_frames(room, seat, since), room.seq)
    return seat


async def disconnect(room: Room, viewer: Viewer) -> None:
    room.viewers -= 1
    if room.viewers == 0:
        room.empty_since = time.monotonic()
        room.later(room.settings.idle_seconds, Item("idle_check"))
    hashed = viewer.token_hash
    if hashed is None or hashed not in room.seat_connections:
        return
    room.seat_connections[hashed] -= 1
    if room.seat_connections[hashed] > 0:
        return
    del room.seat_connections[hashed]
    seat = room.meta.seat_of_token(hashed)
    if seat is None:
        return  # kicked or left: the seat is gone already
    info = room.meta.seats[seat]
    info.connected = False
    info.disconnected_ms = room.clock()
    await room.commit(
        seat,
        {"type": "presence", "connected": False},
        [Event("presence", {"seat": seat, "connected": False})],
        meta_changed=True,
    )
    if room.meta.host == seat:
        room.later(room.settings.host_grace_seconds + 0.01, Item("host_check"))


async def chat(room: Room, seat: int, command: Chat) -> None:
    if room.game is not None and room.meta.phase != LOBBY:
        await room.engine_command(seat, command)  # H-SILENT may make chat cost cards
        return
    said = Event("chat", {"seat": seat, "text": command.text})
    await room.commit(seat, {"type": "chat", "text": command.text, "room": True}, [said])


async def leave(room: Room, seat: int) -> None:
    if between_matches(room):
        await remove_seat(room, seat, "left")
    else:
        await replace_with_bot(room, seat, "left")


async def remove_seat(room: Room, seat: int, reason: str) -> None:
    """Between matches: the seat goes and the seats after it move down by one."""
    meta = room.meta
    back_to_lobby(room)
    gone = meta.seats.pop(seat)
    room.seat_connections.pop(gone.token_hash, None)
    moved = {s + 1: s for s in range(seat, len(meta.seats))}
    if meta.host == seat:
        meta.host = None
        humans = [s for s, info in enumerate(meta.seats) if info.human and info.connected]
        meta.host = humans[0] if humans else None
    elif meta.host is not None and meta.host > seat:
        meta.host -= 1
    private = {old: {"you": new} for old, new in moved.items()}
    left = Event("left", {"seat": seat, "name": gone.name, "reason": reason,
                          **seats_public(room)}, private)
    controls: list[dict[str, Any]] = []
    if gone.token_hash:
        controls.append({"control": "revoke", "token_hash": gone.token_hash})
    reseat = {meta.seats[new].token_hash: new for new in moved.values() if meta.seats[new].human}
    controls.append({"control": "reseat", "seats": reseat})
    await room.commit(None, {"type": reason, "seat": seat}, [left], meta_changed=True,
                      controls=controls)


async def replace_with_bot(room: Room, seat: int, reason: str) -> None:
    """During a match: a bot takes the seat (and its cards); the old token stops working."""
    meta = room.meta
    old = meta.seats[seat]
    meta.seats[seat] = SeatInfo(f"{old.name} (bot)", "", bot=True, connected=True)
    if meta.match is not None and old.player_id is not None:
        try:
            await room.recorder.left(meta.match, seat)
        except Exception:  # history is not worth stopping the game for
            log.exception("room %s: seat %d leaving was not recorded", room.code, seat)
    room.seat_connections.pop(old.token_hash, None)
    if meta.host == seat:
        meta.host = None
        await host.pass_host_if_gone(room, publish=False)
    replaced = Event("replaced", {"seat": seat, "name": meta.seats[seat].name, "bot": True,
                                  "reason": reason, **seats_public(room)})
    await room.commit(None, {"type": "replace", "seat": seat, "reason": reason}, [replaced],
                      meta_changed=True,
                      controls=[{"control": "revoke", "token_hash": old.token_hash}])
