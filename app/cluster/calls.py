"""What workers say to each other on their own topics (``worker:NAME``): a call to a room's
owner, its reply, and a request to close a socket. One frozen dataclass per message, with the
JSON form Redis carries (``to_wire`` / ``from_wire``); the forwarder writes and reads them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from app.engine import EngineError
from app.rooms.commands import ClientCommand
from app.rooms.commands import from_wire as command_from_wire
from app.rooms.commands import to_wire as command_to_wire
from app.rooms.errors import RoomError, RoomUnavailable
from app.rooms.messages import JoinRequest


def worker_topic(worker: str) -> str:
    return f"worker:{worker}"


@dataclass(frozen=True, slots=True)
class ConnectCall:
    """A socket of the caller's opens (``conn``: its id there)."""

    conn: str
    token_hash: str | None
    since: int | None


@dataclass(frozen=True, slots=True)
class SyncCall:
    conn: str
    seat: int | None


@dataclass(frozen=True, slots=True)
class CommandCall:
    seat: int | None
    command: ClientCommand
    seen: int | None
    watcher: int | None = None


@dataclass(frozen=True, slots=True)
class JoinCall:
    request: JoinRequest


@dataclass(frozen=True, slots=True)
class DisconnectCall:
    conn: str


Request = ConnectCall | SyncCall | CommandCall | JoinCall | DisconnectCall


@dataclass(frozen=True, slots=True)
class Call:
    """``request`` for room ``code``, from worker ``sender``; ``call`` numbers it there."""

    call: int
    sender: str
    code: str
    request: Request


@dataclass(frozen=True, slots=True)
class Reply:
    call: int
    result: Any = None
    error: EngineError | RoomError | None = None


@dataclass(frozen=True, slots=True)
class CloseSocket:
    """The owner closes one of the receiver's sockets."""

    conn: str
    code: int
    reason: str


WorkerMessage = Call | Reply | CloseSocket


def _request_to_wire(request: Request) -> dict[str, Any]:
    match request:
        case ConnectCall(conn, token_hash, since):
            return {"kind": "connect", "conn": conn, "token_hash": token_hash, "since": since}
        case SyncCall(conn, seat):
            return {"kind": "sync", "conn": conn, "seat": seat}
        case CommandCall(seat, command, seen, watcher):
            return {"kind": "command", "seat": seat, "message": command_to_wire(command),
                    "seen": seen, "watcher": watcher}
        case JoinCall(JoinRequest(name, player_key)):
            return {"kind": "join", "name": name, "player_key": player_key}
        case DisconnectCall(conn):
            return {"kind": "disconnect", "conn": conn}


def _request_from_wire(data: dict[str, Any]) -> Request:
    match data.get("kind"):
        case "connect":
            return ConnectCall(data["conn"], data.get("token_hash"), data.get("since"))
        case "sync":
            return SyncCall(data["conn"], data.get("seat"))
        case "command":
            return CommandCall(data.get("seat"), command_from_wire(data["message"]),
                               data.get("seen"), data.get("watcher"))
        case "join":
            return JoinCall(JoinRequest(data["name"], data.get("player_key")))
        case "disconnect":
            return DisconnectCall(data["conn"])
        case other:
            raise ValueError(f"unknown forwarded request {other!r}")


def _error_to_wire(exc: EngineError | RoomError) -> dict[str, Any]:
    if isinstance(exc, RoomError):
        return {"room": True, "code": exc.code, "message": exc.message, "status": exc.status}
    return {"room": False, "code": exc.code, "message": exc.message}


def _error_from_wire(data: dict[str, Any]) -> EngineError | RoomError:
    if data.get("room"):
        if data["code"] == "unavailable":
            return RoomUnavailable(data["message"])
        return RoomError(data["code"], data["message"], data.get("status", 409))
    return EngineError(data["message"], data["code"])


def to_wire(message: WorkerMessage) -> dict[str, Any]:
    match message:
        case Call(call, sender, code, request):
            return {"call": call, "from": sender, "code": code, **_request_to_wire(request)}
        case Reply(call, result, None):
            return {"reply": call, "result": result}
        case Reply(call, _result, error):
            assert error is not None
            return {"reply": call, "error": _error_to_wire(error)}
        case CloseSocket(conn, code, reason):
            return {"close": conn, "code": code, "reason": reason}


def from_wire(data: dict[str, Any]) -> WorkerMessage:
    if "reply" in data:
        error = data.get("error")
        return Reply(data["reply"], data.get("result"),
                     None if error is None else _error_from_wire(error))
    if "call" in data:
        return Call(data["call"], data["from"], data["code"], _request_from_wire(data))
    return CloseSocket(data["close"], data["code"], data["reason"])
