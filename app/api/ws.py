"""WebSocket /ws/rooms/{code}: seat tokens, limits per socket and per client, and the frames of
PROTOCOL.md. Every refusal is an error frame or a close code from ``app.codes``, and changes
nothing; the socket is accepted first so that a browser sees the code."""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass

from starlette.datastructures import QueryParams
from starlette.types import Receive, Scope, Send
from starlette.websockets import WebSocket

from app.codes import Close
from app.rooms import RoomError, RoomHandle
from app.rooms.codes import is_room_code, token_hash
from app.store.errors import StoreUnavailable

from .connection import Connection
from .deps import Services
from .limits import Ticket
from .open_socket import OpenSocket, leave
from .socket_reading import direct_reader

log = logging.getLogger("uno.ws")

_TOKEN = re.compile(r"[A-Za-z0-9_-]{1,128}")
_DIGITS = re.compile(r"[0-9]+")
_MAX_SEQ_DIGITS = 16  # a longer ``since`` is past any room's seq: a fresh state
ROOM_PATH = re.compile(r"/ws/rooms/([^/]+)")


BEYOND = 10**_MAX_SEQ_DIGITS  # past every room's seq


def room_code(path: str) -> str | None:
    """The room's code in a room socket's path (``/ws/rooms/{code}``); None: another path."""
    match = ROOM_PATH.fullmatch(path)
    return None if match is None else match[1]


@dataclass(frozen=True, slots=True)
class SocketQuery:
    token: str | None  # None: a spectator
    since: int | None


def socket_query(params: QueryParams) -> SocketQuery | None:
    """``token`` and ``since``, strictly; None when either is present but malformed. A
    ``since`` of more digits than any seq has is beyond the room's seq, as a larger number
    would be (a fresh state), and is never turned into a number."""
    token = params.get("token")
    since = params.get("since")
    if token is not None and not _TOKEN.fullmatch(token):
        return None
    if since is not None and not _DIGITS.fullmatch(since):
        return None
    if since is None:
        return SocketQuery(token, None)
    return SocketQuery(token, int(since) if len(since) <= _MAX_SEQ_DIGITS else BEYOND)


async def serve_socket(scope: Scope, receive: Receive, send: Send, services: Services,
                       code: str) -> None:
    """The ASGI application of one room socket. ``app.main`` calls it for every WebSocket
    to ``/ws/rooms/{code}`` before Starlette's middleware and routing: they add nothing to a
    socket, and their frames and exit stacks stayed alive as long as it did (8 KB each). It
    checks and connects the socket, then hands it to an ``OpenSocket``: under ``python -m app``
    this coroutine then returns, and the protocol's calls read the socket (no coroutine or task
    is kept per open socket); under any other server it reads the socket itself."""
    ws = WebSocket(scope, receive, send)
    await ws.accept()  # first, so that a browser sees the close codes below
    client = services.client(ws)
    sockets = services.limits.sockets
    ticket = sockets.open(client)  # the address's until the room proves whose token it is
    if ticket is None:
        await ws.close(Close.TOO_MANY_SOCKETS, "too many sockets from your address")
        return
    handed_over = False  # from then on the open socket gives its ticket back
    try:
        query = socket_query(QueryParams(ws.scope["query_string"]))
        forget_the_handshake(ws)
        if query is None:
            await ws.close(Close.BAD_QUERY, "'token' or 'since' is malformed")
            return
        opened = await _open(ws, services, ticket, code, query)
        if opened is None:
            return
        socket = OpenSocket(services, ticket, *opened)
        handed_over = True
        reader = direct_reader(ws)
        if reader is None:
            await socket.read(ws)
        else:  # read by the protocol's calls: this coroutine and its task end here
            socket.listen(reader)
    finally:
        if not handed_over:
            sockets.close(ticket)


# Read by the server and the routing before the endpoint runs, never after: ASGI's versions,
# the HTTP version and scheme, both ends' paths and the server's address, the raw path, the
# headers and the query string (the token), the subprotocols asked for, the copy of the
# lifespan's state, the HTTP response extension. What stays is what a socket still reads (its
# type, the client's address, the protocol's extensions) and what the routing put there for
# itself (a tournament socket's exit stacks): about 350 bytes a socket less than keeping them.
_HANDSHAKE_ONLY = frozenset(("asgi", "http_version", "scheme", "server", "root_path", "path",
                             "raw_path", "query_string", "headers", "subprotocols", "state"))


def forget_the_handshake(ws: WebSocket) -> None:
    """What the handshake carried is read (the client's address, the token): its headers and
    query string are not kept for the socket's life, about 1 KB a socket (README, memory), nor
    what else the scope held only for the handshake."""
    scope = ws.scope
    kept = {key: value for key, value in scope.items() if key not in _HANDSHAKE_ONLY}
    scope.clear()  # the same dict (the server and Starlette hold it), its table made anew:
    scope.update(kept)  # a dict never shrinks as keys are popped (192 bytes a socket)
    scope.get("extensions", {}).pop("websocket.http.response", None)


async def _open(ws: WebSocket, services: Services, ticket: Ticket, code: str,
                query: SocketQuery) -> tuple[RoomHandle, Connection] | None:
    """The socket's room and its connection to it, connected; None: refused, and closed."""
    client = ticket.address
    unknown = services.limits.unknown_codes
    if unknown.blocked(client):
        await ws.close(Close.UNKNOWN_ROOM, "too many unknown room codes")
        return None
    try:
        room = await services.registry.get(code) if is_room_code(code) else None
    except RoomError as exc:
        await ws.close(Close.TRY_LATER, exc.message[:100])
        return None
    except StoreUnavailable:  # the database is away: the client tries again shortly
        await ws.close(Close.TRY_LATER, "the room waits for its database: try again")
        return None
    except Exception:  # the store or Redis failed: the client tries again
        log.exception("room %s could not be loaded for a socket", code)
        await ws.close(Close.TRY_LATER, "the room cannot be loaded now: try again")
        return None
    if room is None:
        unknown.hit(client)
        await ws.close(Close.UNKNOWN_ROOM, "unknown room")
        return None
    settings = services.settings
    if query.token is None and services.hub.spectators(room.code) >= settings.spectators_per_room:
        await ws.close(Close.ROOM_CROWDED, "this room has as many spectators as it takes")
        return None
    hashed = token_hash(query.token) if query.token else None
    # A person's sockets count as theirs, not their address's: checked before the room sees
    # the socket (a forged token's socket is closed by the room at once, 4401).
    if hashed is not None and not services.limits.sockets.claim(ticket, hashed):
        await ws.close(Close.TOO_MANY_SOCKETS, "too many sockets for one person")
        return None
    conn = Connection(ws, hashed, settings.send_buffer_bytes)
    services.hub.attach(room.code, conn)
    try:
        await room.connect(conn, query.since)
    except RoomError as exc:
        leave(services, room, conn)
        close = (Close.BAD_TOKEN if exc.code == "bad_token"
                 else Close.KICKED if exc.status == 403  # banned; approval to watch
                 else Close.TRY_LATER)
        await ws.close(close, exc.message[:100])
        return None
    except Exception:  # Redis failed under the forwarded connect: try again
        leave(services, room, conn)
        log.exception("room %s: a socket could not connect", room.code)
        await ws.close(Close.TRY_LATER, "the room cannot be reached now: try again")
        return None
    except BaseException:  # cancelled
        leave(services, room, conn)
        raise
    return room, conn
