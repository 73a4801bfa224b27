"""The socket edge: every client frame is parsed here, once, by one model per message type (a
discriminated union on ``type``, strict types, bounded strings and numbers, safe text), before
anything else sees it. What comes out is typed: ``Parsed`` holds the frame's ``id``, the ``seq``
its sender had seen, and the room command (``app.rooms.commands``), or ``Sync`` / ``Ping``.

    parsed = parse_frame('{"type": "play", "card": "R7", "id": 3}')
    parsed.command      # Play(card=..., color=None, target=None, uno=False)
    parse_frame("[")    # BadFrame("the message is not JSON ...", id=None)

JSON is read by pydantic's parser: it refuses lone surrogates and nesting deeper than 200.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    TypeAdapter,
    ValidationError,
)

from app.engine.commands import (
    Accept,
    CallUno,
    Catch,
    Challenge,
    Chat,
    ChooseColor,
    Draw,
    Give,
    Keep,
    NextRound,
    Pass,
    Play,
    Slap,
)
from app.rooms.commands import (
    REACTIONS,
    AddBot,
    ChangeRules,
    ClientCommand,
    Kick,
    Leave,
    React,
    Rematch,
    StartMatch,
)

from .fields import CardField, ColorField, MessageId, PlainRules, Seat
from .text import ChatText, SafeText


class _Message(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)
    id: MessageId | None = None
    seq: Annotated[StrictInt, Field(ge=0, le=2**53)] | None = None  # the last seq seen

    def command(self) -> ClientCommand | None:
        """The room command (None: answered by the socket itself)."""
        return None


class PlayMsg(_Message):
    type: Literal["play"]
    card: CardField
    color: ColorField | None = None
    target: Seat | None = None
    uno: StrictBool = False
    more: Annotated[list[CardField], Field(max_length=12)] = []  # H-MULTI: the cards after

    def command(self) -> ClientCommand:
        return Play(self.card, self.color, self.target, self.uno, tuple(self.more))


class CatchMsg(_Message):
    type: Literal["catch"]
    target: Seat

    def command(self) -> ClientCommand:
        return Catch(self.target)


class ChooseColorMsg(_Message):
    type: Literal["choose_color"]
    color: ColorField

    def command(self) -> ClientCommand:
        return ChooseColor(self.color)


class GiveMsg(_Message):
    type: Literal["give"]
    card: CardField

    def command(self) -> ClientCommand:
        return Give(self.card)


class ChatMsg(_Message):
    type: Literal["chat"]
    text: ChatText

    def command(self) -> ClientCommand:
        return Chat(self.text)


class RulesMsg(_Message):
    type: Literal["rules"]
    preset: SafeText | None = None
    rules: PlainRules | None = None

    def command(self) -> ClientCommand:
        return ChangeRules(self.preset, dict(self.rules or {}))


class AddBotMsg(_Message):
    type: Literal["add_bot"]
    seat: Seat | None = None

    def command(self) -> ClientCommand:
        return AddBot(self.seat)


class ReactMsg(_Message):
    type: Literal["react"]
    emoji: Literal[REACTIONS]  # type: ignore[valid-type]

    def command(self) -> ClientCommand:
        return React(self.emoji)


class KickMsg(_Message):
    type: Literal["kick"]
    seat: Seat

    def command(self) -> ClientCommand:
        return Kick(self.seat)


_SIMPLE: dict[str, ClientCommand | None] = {
    "draw": Draw(),
    "pass": Pass(),
    "keep": Keep(),
    "uno": CallUno(),
    "challenge": Challenge(),
    "accept": Accept(),
    "slap": Slap(),
    "next_round": NextRound(),
    "start": StartMatch(),
    "leave": Leave(),
    "rematch": Rematch(),
    "sync": None,
    "ping": None,
}


class SimpleMsg(_Message):
    """A message with nothing but its type (and ``id``, ``seq``)."""

    type: Literal["draw", "pass", "keep", "uno", "challenge", "accept", "slap", "next_round",
                  "start", "leave", "rematch", "sync", "ping"]

    def command(self) -> ClientCommand | None:
        return _SIMPLE[self.type]


ClientMessage = Annotated[
    PlayMsg | CatchMsg | ChooseColorMsg | GiveMsg | ChatMsg | RulesMsg | AddBotMsg | KickMsg
    | ReactMsg | SimpleMsg,
    Field(discriminator="type"),
]
_ADAPTER: TypeAdapter[ClientMessage] = TypeAdapter(ClientMessage)
_ID: TypeAdapter[Any] = TypeAdapter(MessageId)
TYPES = frozenset(["play", "catch", "choose_color", "give", "chat", "rules", "add_bot", "kick",
                   "react", *_SIMPLE])


@dataclass(frozen=True, slots=True)
class Parsed:
    type: str
    id: str | int | None
    seq: int | None
    command: ClientCommand | None  # None: ``sync`` or ``ping``


class BadFrame(Exception):
    """A frame the edge refuses (``bad_message``); ``id`` is its id if one could be read."""

    def __init__(self, message: str, mid: str | int | None) -> None:
        super().__init__(message)
        self.message = message
        self.id = mid


def parse_frame(text: str | bytes) -> Parsed:
    try:
        message = _ADAPTER.validate_json(text)
    except ValidationError as exc:
        raise BadFrame(_explain(exc), _peek_id(text)) from None
    return Parsed(message.type, message.id, message.seq, message.command())


_TYPE_NAMES = frozenset({"bool", "int", "str", "float"})  # a union's members, in error paths


def _explain(exc: ValidationError) -> str:
    """One line a client developer can act on (never the input echoed back in full)."""
    first = exc.errors(include_url=False, include_input=False)[0]
    kind = first["type"]
    # The path: the message type, then field names (not pydantic's names of its validators).
    where = [str(p) for p in first["loc"]
             if isinstance(p, int) or (p.isidentifier() and p not in _TYPE_NAMES)]
    why = str(first["msg"]).removeprefix("Value error, ")
    if kind == "json_invalid":
        return f"the message is not JSON that this server reads: {why}"
    if kind == "union_tag_not_found":
        return "a message needs a 'type'"
    if kind == "union_tag_invalid":
        return f"unknown message type: one of {', '.join(sorted(TYPES))}"
    if not where:
        return "a message is a JSON object with a 'type'"
    field = ".".join(where[1:]) if len(where) > 1 else "message"
    if kind == "extra_forbidden":
        return f"unknown field {field!r} in a {where[0]!r} message"
    if kind == "missing":
        return f"a {where[0]!r} message needs {field!r}"
    return f"{field!r} in a {where[0]!r} message: {why}"


def _peek_id(text: str | bytes) -> str | int | None:
    """The ``id`` of a refused frame, when it has a valid one (else None). The standard
    library's parser reads what pydantic's refuses (a lone surrogate elsewhere in the frame)."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return None
    if not isinstance(data, dict):
        return None
    try:
        found: str | int = _ID.validate_python(data.get("id"), strict=True)
        return found
    except ValidationError:
        return None
