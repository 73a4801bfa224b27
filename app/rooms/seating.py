"""Who sits where: joining, presence, leaving, seats given to bots, and the host role passing
on. Pure: each function takes the room's state and returns the ``Outcome`` to commit (or
refuses with a RoomError, deciding nothing)."""

from __future__ import annotations

from typing import Any

from app.engine import Event
from app.store.records import (
    BotSeated,
    HostPassed,
    Joined,
    Presence,
    Replaced,
    SeatKicked,
    SeatLeft,
    SeatsFreed,
)

from .commands import Leave
from .controls import Control, Reseat, Revoke
from .errors import ALREADY_STARTED, APPROVAL_REQUIRED, BANNED, ROOM_FULL, RoomError
from .messages import HostCheck
from .meta import LOBBY, RoomMeta, SeatInfo
from .people import Person
from .state import Context, Outcome, RoomState


def seats_public(meta: RoomMeta) -> dict[str, Any]:
    return {"seats": meta.public_seats(), "host": meta.host}


def identify(meta: RoomMeta, token_hash: str | None) -> Person:
    """The person a socket's token proves: a seat, a named spectator, or someone waiting to be
    let in (no token: an anonymous spectator). A token that proves nobody here is refused (the
    socket closes 4401), a banned person's or, under ``approval_watch``, no token at all too
    (4403)."""
    audience = meta.audience
    if token_hash is None:
        if meta.approval_watch:  # O-APPROVAL: watching waits for the host too
            raise RoomError(APPROVAL_REQUIRED, "this room lets spectators in by approval: ask "
                            "to watch (POST .../watch)", 403)
        return Person()
    if audience.banned(token_hash):
        raise RoomError(BANNED, "the host banned you from this room", 403)
    seat = meta.seat_of_token(token_hash)
    if seat is not None:
        return Person(seat=seat)
    spectator = audience.spectator_of_token(token_hash)
    if spectator is not None:
        return Person(spectator=spectator.id)
    asked = audience.request_of_token(token_hash)
    if asked is not None:
        return Person(request=asked.id)
    raise RoomError("bad_token", "this token holds no seat in this room", 401)


def to_lobby(state: RoomState) -> RoomMeta:
    """The roster changes after a match: the room returns to the lobby for the next one (the
    caller's state gets ``game`` None)."""
    meta = state.meta.copy()
    meta.phase = LOBBY
    return meta


def join(state: RoomState, name: str, token_hash: str, player_id: int | None,
         device: str | None = None) -> Outcome:
    """A new seat for ``name`` (made safe at the edge), between matches only. The reply is
    the new seat; the caller hands the token out."""
    meta = state.meta
    if meta.audience.banned(None, player_id, device):
        raise RoomError(BANNED, "the host banned you from this room", 403)
    if not state.between_matches:
        raise RoomError(ALREADY_STARTED, "the match has started: watch it or wait for the next")
    if len(meta.seats) >= meta.max_players:
        raise RoomError(ROOM_FULL, f"the table is full ({meta.max_players} players)")
    meta = to_lobby(state)
    meta.seats.append(SeatInfo(name, token_hash, player_id=player_id, device=device))
    seat = len(meta.seats) - 1
    if meta.host is None and meta.tournament is None:
        meta.host = seat
    joined = Event("joined", {"seat": seat, "name": name, "bot": False, **seats_public(meta)})
    return Outcome(Joined(seat, name), [joined], state=RoomState(meta), reply=seat)


def add_bot(state: RoomState) -> Outcome:
    """Between matches: a bot takes a new seat."""
    meta = state.meta
    if len(meta.seats) >= meta.max_players:
        raise RoomError(ROOM_FULL, f"the table is full ({meta.max_players} players)")
    meta = to_lobby(state)
    number = 1 + sum(1 for info in meta.seats if info.bot)
    meta.seats.append(SeatInfo(f"Bot {number}", "", bot=True, connected=True))
    seat = len(meta.seats) - 1
    joined = Event("joined", {"seat": seat, "name": meta.seats[seat].name, "bot": True,
                              **seats_public(meta)})
    return Outcome(BotSeated(seat), [joined], state=RoomState(meta))


def presence(state: RoomState, seat: int, connected: bool, now: int,
             host_grace: float) -> Outcome:
    """The seat's first socket opened, or its last one closed."""
    meta = state.meta.copy()
    info = meta.seats[seat]
    info.connected = connected
    info.disconnected_ms = None if connected else now
    later: list[tuple[float, Any]] = []
    if not connected and meta.host == seat:
        later.append((host_grace + 0.01, HostCheck()))
    return Outcome(Presence(connected),
                   [Event("presence", {"seat": seat, "connected": connected})], seat=seat,
                   state=RoomState(meta, state.game), later=later)


def leave_seat(state: RoomState, person: Person, command: Leave, ctx: Context) -> Outcome:
    """A player gives their seat up."""
    assert person.seat is not None  # the table lets only players send it
    return leave(state, person.seat)


def leave(state: RoomState, seat: int, reason: str = "left") -> Outcome:
    """Between matches the seat is freed; during a match a bot takes it."""
    if state.between_matches:
        return remove_seat(state, seat, reason)
    return replace_with_bot(state, seat, reason)


def remove_seat(state: RoomState, seat: int, reason: str) -> Outcome:
    """Between matches: the seat goes and the seats after it move down by one."""
    meta = to_lobby(state)
    gone = meta.seats.pop(seat)
    moved = {s + 1: s for s in range(seat, len(meta.seats))}
    if meta.host == seat:
        humans = [s for s, info in enumerate(meta.seats) if info.human and info.connected]
        meta.host = humans[0] if humans else None
    elif meta.host is not None and meta.host > seat:
        meta.host -= 1
    private = {old: {"you": new} for old, new in moved.items()}
    left = Event("left", {"seat": seat, "name": gone.name, "reason": reason,
                          **seats_public(meta)}, private)
    controls: list[Control] = []
    if gone.token_hash:
        controls.append(Revoke(gone.token_hash))
    controls.append(Reseat({meta.seats[new].token_hash: new for new in moved.values()
                            if meta.seats[new].human}))
    line = SeatKicked(seat) if reason == "kicked" else SeatLeft(seat)
    return Outcome(line, [left], state=RoomState(meta), controls=controls)


def free_stand_ins(state: RoomState) -> Outcome | None:
    """Before a rematch: the seats whose players left are freed (their bots go), the seats
    after them move down; None when every seat is still its player's or a bot the host added."""
    meta = state.meta
    freed = [s for s, info in enumerate(meta.seats) if info.stand_in]
    if not freed:
        return None
    meta = to_lobby(state)
    kept = [s for s in range(len(meta.seats)) if s not in freed]
    moved = {old: new for new, old in enumerate(kept) if old != new}
    host = meta.host
    meta.seats = [meta.seats[s] for s in kept]
    meta.host = None if host is None or host in freed else kept.index(host)
    private = {old: {"you": new} for old, new in moved.items()}
    left = Event("seats_freed", {"freed": freed, **seats_public(meta)}, private)
    reseat = {meta.seats[new].token_hash: new for new in moved.values()
              if meta.seats[new].human}
    return Outcome(SeatsFreed(freed), [left], state=RoomState(meta), controls=[Reseat(reseat)])


def replace_with_bot(state: RoomState, seat: int, reason: str) -> Outcome:
    """During a match: a bot takes the seat (and its cards); the old token stops working."""
    meta = state.meta.copy()
    old = meta.seats[seat]
    meta.seats[seat] = SeatInfo(f"{old.name} (bot)", "", bot=True, connected=True, stand_in=True)
    if meta.host == seat:
        meta.host = _heir(meta, None)
    replaced = Event("replaced", {"seat": seat, "name": meta.seats[seat].name, "bot": True,
                                  "reason": reason, **seats_public(meta)})
    left = seat if meta.match is not None and old.player_id is not None else None
    return Outcome(Replaced(seat, reason), [replaced],
                   state=RoomState(meta, state.game), controls=[Revoke(old.token_hash)],
                   left_match=left)


def _heir(meta: RoomMeta, old: int | None) -> int | None:
    """The next connected person after seat ``old``, in seat order (None: nobody)."""
    n = len(meta.seats)
    first = 0 if old is None else old + 1
    for step in range(n):
        seat = (first + step) % n
        if meta.seats[seat].human and meta.seats[seat].connected:
            return seat
    return None


def _gone(meta: RoomMeta, seat: int | None, now: int, grace_ms: float) -> bool:
    if seat is None or seat >= len(meta.seats) or meta.seats[seat].bot:
        return True
    info = meta.seats[seat]
    return (not info.connected and info.disconnected_ms is not None
            and now - info.disconnected_ms >= grace_ms)


def pass_host(state: RoomState, now: int, grace_seconds: float) -> Outcome | None:
    """The host role passes to the next connected person after the host leaves (or stays
    away longer than ``grace_seconds``); None: it stays (or nobody could take it)."""
    meta = state.meta
    old = meta.host
    if old is None and meta.tournament is not None:
        return None  # a tournament's table: nobody hosts it, ever (no kicks, no rematch)
    if not _gone(meta, old, now, grace_seconds * 1000):
        return None
    heir = _heir(meta, old)
    if heir is None:
        return None
    meta = meta.copy()
    meta.host = heir
    changed = Event("host_changed", {"host": heir, "previous": old})
    return Outcome(HostPassed(heir), [changed], state=RoomState(meta, state.game))
