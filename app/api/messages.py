"""The socket edge: every client frame is parsed here, once, by one model per message type (a
discriminated union on ``type``, strict types, bounded strings and numbers, safe text), before
anything else sees it. What comes out is typed: ``Parsed`` holds the frame's ``id``, the ``seq``
its sender had seen, and the room command (None: ``sync`` or ``ping``). The models are the
command table's (app/rooms/command_table.py), plus the two the socket answers itself.

    parsed = parse_frame('{"type": "play", "card": "R7", "id": 3}')
    parsed.command      # Play(card=..., color=None, target=None, uno=False)
    parse_frame("[")    # BadFrame("the message is not JSON ...", id=None)

JSON is read by pydantic's parser: it refuses lone surrogates and nesting deeper than 200.
"""

from __future__ import annotations

import json
import math
import operator
from dataclasses import dataclass
from functools import reduce
from typing import Annotated, Any, Literal

from pydantic import Field, TypeAdapter, ValidationError

from app.rooms.command_models import CommandModel
from app.rooms.command_table import COMMANDS
from app.rooms.commands import ClientCommand
from app.wire.fields import BAD_ID
from app.wire.text import unsafe_character


class SocketMsg(CommandModel):
    """Answered by the socket itself: ``sync`` (a fresh state) and ``ping``."""

    type: Literal["sync", "ping"]


_MODELS = (*COMMANDS.models(), SocketMsg)
# One union over every model, discriminated by ``type``: pydantic reads a frame in one pass.
# (Built from the table at import: a type checker sees it as Any.)
_ANY_MODEL: Any = reduce(operator.or_, _MODELS)
_ADAPTER: TypeAdapter[CommandModel] = TypeAdapter(
    Annotated[_ANY_MODEL, Field(discriminator="type")])
TYPES = frozenset([spec.name for spec in COMMANDS.specs] + ["sync", "ping"])


@dataclass(frozen=True, slots=True)
class Parsed:
    type: str
    id: str | int | None
    seq: int | None
    command: ClientCommand | None  # None: ``sync`` or ``ping``


class BadFrame(Exception):
    """A frame the edge refuses (``bad_message``); ``id`` is its id if one could be read."""

    def __init__(self, message: str, mid: str | int | float | None) -> None:
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
    if field == "id":
        return BAD_ID
    return f"{field!r} in a {where[0]!r} message: {why}"


def _peek_id(text: str | bytes) -> str | int | float | None:
    """The ``id`` of a refused frame as the client sent it, so that it can match the refusal:
    any number, or any string safe to send back (a frame is at most 4 KB); else None.
    The standard library's parser reads what pydantic's refuses (a lone surrogate elsewhere in
    the frame)."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return None
    if not isinstance(data, dict):
        return None
    found = data.get("id")
    if isinstance(found, str) and unsafe_character(found) is None:
        return found
    if isinstance(found, int | float) and not isinstance(found, bool):
        return found if math.isfinite(found) else None
    return None
