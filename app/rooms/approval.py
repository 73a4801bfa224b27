"""O-APPROVAL: in a room with ``approval`` a join waits for the host (with ``approval_watch``,
watching too). The request's token is the person's from the start: a socket opened with it
waits and sees nothing of the table; admitted, the same token holds the seat (or makes them a
named spectator) and the socket gets the table; denied or left unanswered for
``approval_seconds``, its sockets close (4403). Pure."""

from __future__ import annotations

from app.engine import Event
from app.store.records import JoinAnswered, JoinAsked

from .commands import Admit, Deny
from .controls import Revoke
from .errors import (
    ALREADY_STARTED,
    BAD_SEAT,
    BANNED,
    RATE_LIMITED,
    ROOM_FULL,
    RoomError,
)
from .messages import RequestCheck
from .meta import RoomMeta, SeatInfo
from .people import JoinAsk, Person, Spectator
from .seating import seats_public, to_lobby
from .state import Context, Outcome, RoomState

MAX_REQUESTS = 20  # waiting at once per room: a flood of requests never buries the host


def refuse_banned(meta: RoomMeta, token_hash: str | None, player_id: int | None,
                  device: str | None) -> None:
    if meta.audience.banned(token_hash, player_id, device):
        raise RoomError(BANNED, "the host banned you from this room", 403)


def ask(state: RoomState, name: str, token_hash: str, player_id: int | None,
        device: str | None, now_ms: int, watch: bool) -> Outcome:
    """A new request; the reply is its id. The host hears the name (privately)."""
    meta = state.meta
    refuse_banned(meta, None, player_id, device)
    if len(meta.audience.requests) >= MAX_REQUESTS:
        raise RoomError(RATE_LIMITED, "this room has many people waiting to be let in; try "
                        "again later", 429)
    meta = meta.copy()
    audience = meta.audience
    request = audience.next_id
    audience.next_id += 1
    audience.requests.append(JoinAsk(request, name, token_hash, now_ms, player_id, device,
                                     watch))
    private = {meta.host: {"name": name}} if meta.host is not None else None
    asked = Event("join_request", {"request": request, "watch": watch}, private)
    return Outcome(JoinAsked(request, name, watch), [asked], state=RoomState(meta, state.game),
                   reply=request, later=[(meta.approval_seconds + 0.05, RequestCheck(request))])


def _request(meta: RoomMeta, request: int) -> JoinAsk:
    for found in meta.audience.requests:
        if found.id == request:
            return found
    raise RoomError(BAD_SEAT, f"there is no join request {request} (answered, or lapsed)")


def admit(state: RoomState, person: Person, command: Admit, ctx: Context) -> Outcome:
    """The host lets the person in: to a new seat (between matches), or to watch."""
    asked = _request(state.meta, command.request)
    if asked.watch:
        meta = state.meta.copy()
        spectator = Spectator(meta.audience.next_id, asked.name, asked.token_hash,
                              asked.player_id, asked.device)
        meta.audience.next_id += 1
        meta.audience.spectators.append(spectator)
        game = state.game
        welcome = Person(spectator=spectator.id)
    else:
        if not state.between_matches:
            raise RoomError(ALREADY_STARTED, "a match is running: let them in after it")
        if len(state.meta.seats) >= state.meta.max_players:
            raise RoomError(ROOM_FULL, f"the table is full ({state.meta.max_players} players)")
        meta = to_lobby(state)
        meta.seats.append(SeatInfo(asked.name, asked.token_hash, player_id=asked.player_id,
                                   device=asked.device))
        game = None
        welcome = Person(seat=len(meta.seats) - 1)
    meta.audience.requests = [r for r in meta.audience.requests if r.id != asked.id]
    answered = Event("join_answered", {"request": asked.id, "answer": "admitted",
                                       "seat": welcome.seat, "spectator": welcome.spectator,
                                       "name": asked.name, **seats_public(meta)})
    return Outcome(JoinAnswered(asked.id, "admitted", welcome.seat, welcome.spectator),
                   [answered], seat=person.seat, state=RoomState(meta, game),
                   welcome=(asked.token_hash, welcome))


def _turn_away(state: RoomState, asked: JoinAsk, answer: str, why: str,
               seat: int | None) -> Outcome:
    meta = state.meta.copy()
    meta.audience.requests = [r for r in meta.audience.requests if r.id != asked.id]
    answered = Event("join_answered", {"request": asked.id, "answer": answer})
    return Outcome(JoinAnswered(asked.id, answer), [answered], seat=seat,
                   state=RoomState(meta, state.game), controls=[Revoke(asked.token_hash, why)])


def deny(state: RoomState, person: Person, command: Deny, ctx: Context) -> Outcome:
    asked = _request(state.meta, command.request)
    return _turn_away(state, asked, "denied", "the host did not let you in", person.seat)


def lapse(state: RoomState, request: int, now_ms: int) -> Outcome | None:
    """A request unanswered for ``approval_seconds`` lapses (None: answered, or not yet)."""
    meta = state.meta
    asked = next((r for r in meta.audience.requests if r.id == request), None)
    if asked is None or now_ms - asked.asked_ms < meta.approval_seconds * 1000:
        return None
    return _turn_away(state, asked, "lapsed", "the host did not answer in time", None)
