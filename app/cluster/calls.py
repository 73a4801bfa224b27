"""What workers say to each other on their own topics (``worker:NAME``): a call to a room's
owner, its typed reply, and a request to close a socket. One frozen dataclass per message,
with the JSON form Redis carries (``to_wire`` / ``from_wire``); the forwarder writes and reads
them. A command travels as its PROTOCOL.md message, written and read by the command table
(app/rooms/command_table.py), as at the edge."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from app.engine import EngineError
from app.rooms.command_table import COMMANDS
from app.rooms.commands import ClientCommand
from app.rooms.errors import RoomError, RoomUnavailable
from app.rooms.messages import Admission, Granted, JoinRequest, WatchRequest
from app.rooms.people import Person


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
    person: Person


@dataclass(frozen=True, slots=True)
class CommandCall:
    person: Person
    command: ClientCommand
    seen: int | None


@dataclass(frozen=True, slots=True)
class JoinCall:
    request: JoinRequest


@dataclass(frozen=True, slots=True)
class WatchCall:
    request: WatchRequest


@dataclass(frozen=True, slots=True)
class DisconnectCall:
    conn: str


@dataclass(frozen=True, slots=True)
class SummaryCall:
    """The room's public summary, as its owner sees it now."""


@dataclass(frozen=True, slots=True)
class TakeOverCall:
    """A draining worker hands the room over: take its lease and load it now, before its
    sockets move (answered once the room runs on the receiver)."""


Request = (ConnectCall | SyncCall | CommandCall | JoinCall | WatchCall | DisconnectCall
           | SummaryCall | TakeOverCall)


@dataclass(frozen=True, slots=True)
class Frames:
    """A socket's first frames (a state, or the events since), current up to ``seq``; with
    ``admission`` for a connect."""

    frames: list[str]
    seq: int
    admission: Admission | None = None


@dataclass(frozen=True, slots=True)
class Summary:
    summary: dict[str, Any]


Result = Frames | Granted | Summary | None


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
    result: Result = None
    error: EngineError | RoomError | None = None


@dataclass(frozen=True, slots=True)
class CloseSocket:
    """The owner closes one of the receiver's sockets."""

    conn: str
    code: int
    reason: str


WorkerMessage = Call | Reply | CloseSocket


def _person(data: dict[str, Any]) -> Person:
    return Person(data.get("seat"), data.get("spectator"), data.get("watcher"),
                  data.get("request"))


def _person_wire(person: Person) -> dict[str, Any]:
    return {"seat": person.seat, "spectator": person.spectator, "watcher": person.watcher,
            "request": person.request}


def _request_to_wire(request: Request) -> dict[str, Any]:
    match request:
        case ConnectCall(conn, token_hash, since):
            return {"kind": "connect", "conn": conn, "token_hash": token_hash, "since": since}
        case SyncCall(conn, person):
            return {"kind": "sync", "conn": conn, "person": _person_wire(person)}
        case CommandCall(person, command, seen):
            return {"kind": "command", "person": _person_wire(person),
                    "message": COMMANDS.to_wire(command), "seen": seen}
        case JoinCall(JoinRequest(name, player_key, device)):
            return {"kind": "join", "name": name, "player_key": player_key, "device": device}
        case WatchCall(WatchRequest(name, player_key, device)):
            return {"kind": "watch", "name": name, "player_key": player_key, "device": device}
        case DisconnectCall(conn):
            return {"kind": "disconnect", "conn": conn}
        case SummaryCall():
            return {"kind": "summary"}
        case TakeOverCall():
            return {"kind": "take_over"}


def _request_from_wire(data: dict[str, Any]) -> Request:
    match data.get("kind"):
        case "connect":
            return ConnectCall(data["conn"], data.get("token_hash"), data.get("since"))
        case "sync":
            return SyncCall(data["conn"], _person(data["person"]))
        case "command":
            return CommandCall(_person(data["person"]), COMMANDS.from_wire(data["message"]),
                               data.get("seen"))
        case "join":
            return JoinCall(JoinRequest(data["name"], data.get("player_key"),
                                        data.get("device")))
        case "watch":
            return WatchCall(WatchRequest(data.get("name"), data.get("player_key"),
                                          data.get("device")))
        case "disconnect":
            return DisconnectCall(data["conn"])
        case "summary":
            return SummaryCall()
        case "take_over":
            return TakeOverCall()
        case other:
            raise ValueError(f"unknown forwarded request {other!r}")


def _result_to_wire(result: Result) -> dict[str, Any] | None:
    match result:
        case Frames(frames, seq, admission):
            out: dict[str, Any] = {"kind": "frames", "frames": frames, "seq": seq}
            if admission is not None:
                out["admission"] = [admission.seat, admission.spectator, admission.watcher,
                                    admission.request]
            return out
        case Granted(token, seat, spectator, request):
            return {"kind": "granted", "token": token, "seat": seat, "spectator": spectator,
                    "request": request}
        case Summary(summary):
            return {"kind": "summary", "summary": summary}
        case None:
            return None


def _result_from_wire(data: dict[str, Any] | None) -> Result:
    if data is None:
        return None
    match data["kind"]:
        case "frames":
            admission = data.get("admission")
            return Frames(data["frames"], data["seq"],
                          None if admission is None else Admission(*admission))
        case "granted":
            return Granted(data["token"], data.get("seat"), data.get("spectator"),
                           data.get("request"))
        case "summary":
            return Summary(data["summary"])
        case other:
            raise ValueError(f"unknown forwarded result {other!r}")


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
            return {"reply": call, "result": _result_to_wire(result)}
        case Reply(call, _result, error):
            assert error is not None
            return {"reply": call, "error": _error_to_wire(error)}
        case CloseSocket(conn, code, reason):
            return {"close": conn, "code": code, "reason": reason}


def from_wire(data: dict[str, Any]) -> WorkerMessage:
    if "reply" in data:
        error = data.get("error")
        if error is not None:
            return Reply(data["reply"], None, _error_from_wire(error))
        return Reply(data["reply"], _result_from_wire(data.get("result")))
    if "call" in data:
        return Call(data["call"], data["from"], data["code"], _request_from_wire(data))
    return CloseSocket(data["close"], data["code"], data["reason"])
