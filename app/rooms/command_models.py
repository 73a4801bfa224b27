"""The typed model of every command a client may send, one per message (strict types, bounded
strings and numbers, safe text): each reads its message (pydantic) and makes the command
(``command()``); the command table (``command_table.py``) pairs each with who may send it and
what applies it, and writes a command back (``CommandSpec.to_wire``) through the same model.

A model's fields are named as its command's, so one writer serves them all.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, get_origin

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, model_validator

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
from app.wire.fields import CardField, ColorField, MessageId, PersonId, PlainRules, Seat
from app.wire.text import ChatText, SafeText

from .commands import (
    REACTIONS,
    AddBot,
    Admit,
    Back,
    Ban,
    ChangeRules,
    ClientCommand,
    Deny,
    Kick,
    Leave,
    Queue,
    QueueOrder,
    React,
    Rematch,
    StartMatch,
    Unqueue,
)


class CommandModel(BaseModel):
    """Any client message: its ``id`` (repeated by the ack or error) and the last ``seq`` its
    sender had seen."""

    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)
    type: str  # each model's own literal names
    id: MessageId | None = None
    seq: Annotated[StrictInt, Field(ge=0, le=2**53)] | None = None

    def command(self) -> ClientCommand | None:
        """The room command (None: answered by the socket itself)."""
        return None


class PlayMsg(CommandModel):
    type: Literal["play"]
    card: CardField
    color: ColorField | None = None
    target: Seat | None = None
    uno: StrictBool = False
    # H-MULTI: the cards after. A tuple, as a list default would be deep-copied for every
    # message; not strict, so that a stored or forwarded list reads as one.
    more: Annotated[tuple[CardField, ...], Field(max_length=12, strict=False)] = ()

    def command(self) -> ClientCommand:
        return Play(self.card, self.color, self.target, self.uno, self.more)


class CatchMsg(CommandModel):
    type: Literal["catch"]
    target: Seat

    def command(self) -> ClientCommand:
        return Catch(self.target)


class ChooseColorMsg(CommandModel):
    type: Literal["choose_color"]
    color: ColorField

    def command(self) -> ClientCommand:
        return ChooseColor(self.color)


class GiveMsg(CommandModel):
    type: Literal["give"]
    card: CardField

    def command(self) -> ClientCommand:
        return Give(self.card)


class ChatMsg(CommandModel):
    type: Literal["chat"]
    text: ChatText

    def command(self) -> ClientCommand:
        return Chat(self.text)


class RulesMsg(CommandModel):
    type: Literal["rules"]
    preset: SafeText | None = None
    rules: PlainRules | None = None

    def command(self) -> ClientCommand:
        return ChangeRules(self.preset, dict(self.rules or {}))


class AddBotMsg(CommandModel):
    type: Literal["add_bot"]
    seat: Seat | None = None

    def command(self) -> ClientCommand:
        return AddBot(self.seat)


class ReactMsg(CommandModel):
    type: Literal["react"]
    emoji: Literal[REACTIONS]  # type: ignore[valid-type]

    def command(self) -> ClientCommand:
        return React(self.emoji)


class KickMsg(CommandModel):
    type: Literal["kick"]
    seat: Seat

    def command(self) -> ClientCommand:
        return Kick(self.seat)


class UnqueueMsg(CommandModel):
    type: Literal["unqueue"]
    spectator: PersonId | None = None

    def command(self) -> ClientCommand:
        return Unqueue(self.spectator)


class QueueOrderMsg(CommandModel):
    type: Literal["queue_order"]
    order: Annotated[list[PersonId], Field(max_length=200)]

    def command(self) -> ClientCommand:
        return QueueOrder(tuple(self.order))


class AdmitMsg(CommandModel):
    type: Literal["admit"]
    request: PersonId

    def command(self) -> ClientCommand:
        return Admit(self.request)


class DenyMsg(CommandModel):
    type: Literal["deny"]
    request: PersonId

    def command(self) -> ClientCommand:
        return Deny(self.request)


class BanMsg(CommandModel):
    type: Literal["ban"]
    seat: Seat | None = None
    spectator: PersonId | None = None

    @model_validator(mode="after")
    def _one_person(self) -> BanMsg:
        if (self.seat is None) == (self.spectator is None):
            raise ValueError("a 'ban' names one person: 'seat' or 'spectator'")
        return self

    def command(self) -> ClientCommand:
        return Ban(self.seat, self.spectator)


# Commands that are nothing but their type: one model reads them all.
SIMPLE: dict[str, ClientCommand] = {
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
    "back": Back(),
    "queue": Queue(),
}


class SimpleMsg(CommandModel):
    type: Literal[tuple(SIMPLE)]  # type: ignore[valid-type]

    def command(self) -> ClientCommand:
        return SIMPLE[self.type]


def fields_of(model: type[CommandModel]) -> list[str]:
    """The fields a model reads besides ``type``, ``id`` and ``seq``: its command's."""
    return [name for name in model.model_fields if name not in ("type", "id", "seq")]


def write(model: type[CommandModel], name: str, command: Any) -> dict[str, Any]:
    """``command`` as the message ``model`` reads (without ``id``), defaults left out."""
    values = {field: _as_read(model, field, getattr(command, field)) for field in fields_of(model)}
    built = model.model_construct(type=name, **values)
    written: dict[str, Any] = built.model_dump(mode="json", exclude={"type", "id", "seq"},
                                               exclude_defaults=True)
    return {"type": name, **written}


def _as_read(model: type[CommandModel], field: str, value: Any) -> Any:
    """A command's tuple as a list where the model reads a list (commands keep tuples)."""
    if isinstance(value, tuple) and get_origin(model.model_fields[field].annotation) is list:
        return list(value)
    return value
