"""Every command a client may send to a room, declared once: its wire name, its typed model, who
may send it, and what applies it (the engine, or a pure room handler). Everything else is read
from here: the edge's parser (app/api/messages.py builds its union from ``COMMANDS.models``),
the wire between workers (``COMMANDS.to_wire`` / ``from_wire``), the actor's permission check
(``CommandSpec.permit``) and its dispatch. How a command's record replays follows from what
applies it: an engine command is recorded as its message and replayed through the engine, a
room handler's outcome carries a typed room line that replays as nothing
(app/store/records.py).

Adding a command: its dataclass (engine: app/engine/commands.py; room: commands.py), its model
(command_models.py), a pure handler returning a ``Decision``, and one entry below; the test of
this table (tests/rooms/test_command_table.py) asks for an example of it and fails until the
command parses, forwards, records and replays.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from enum import Flag, auto
from typing import Any

from app.engine import commands as engine
from app.engine.errors import BadCommand

from . import approval, audience, bans, chat, host, idle, queue, seating
from .command_models import (
    SIMPLE,
    AddBotMsg,
    AdmitMsg,
    BanMsg,
    CatchMsg,
    ChatMsg,
    ChooseColorMsg,
    CommandModel,
    DenyMsg,
    GiveMsg,
    KickMsg,
    PlayMsg,
    QueueOrderMsg,
    ReactMsg,
    RulesMsg,
    SimpleMsg,
    UnqueueMsg,
    write,
)
from .commands import (
    AddBot,
    Admit,
    Ban,
    ChangeRules,
    ClientCommand,
    Deny,
    Kick,
    QueueOrder,
    React,
    Unqueue,
)
from .errors import BAD_MESSAGE, FORBIDDEN, RoomError
from .host import StartPlan
from .meta import RoomMeta
from .people import Person
from .state import Context, Notice, Outcome, RoomState, ToEngine


class Sender(Flag):
    """Who a person is to the room, for what they may send."""

    PLAYER = auto()  # in a seat
    HOST = auto()  # in the host's seat
    SPECTATOR = auto()  # watching (named or anonymous)
    NAMED = auto()  # watching with a token of their own (O-QUEUE)
    WAITING = auto()  # waiting for the host to let them in (O-APPROVAL): may send nothing
    ANYONE = PLAYER | HOST | SPECTATOR | NAMED


# Made once: a Flag's ``|`` and ``&`` are Python calls (three each), and every command asks.
_HOST_PLAYER = Sender.PLAYER | Sender.HOST
_NAMED_SPECTATOR = Sender.SPECTATOR | Sender.NAMED


def sender_of(meta: RoomMeta, person: Person) -> Sender:
    if person.request is not None:
        return Sender.WAITING
    if person.seat is not None:
        return _HOST_PLAYER if meta.host == person.seat else Sender.PLAYER
    return _NAMED_SPECTATOR if person.spectator is not None else Sender.SPECTATOR


Decision = Outcome | ToEngine | Notice | StartPlan
Handler = Callable[[RoomState, Person, Any, Context], Decision]


class Engine:
    """Applied by the match's engine (``Game.apply``) for the sender's seat."""

    def __repr__(self) -> str:
        return "ENGINE"


ENGINE = Engine()


@dataclass(frozen=True, slots=True)
class CommandSpec:
    name: str
    model: type[CommandModel]
    command: type[Any]
    senders: Sender
    applies: Engine | Handler
    room_rate: bool = False  # counted against the room's reactions a second

    def permit(self, sender: Sender) -> None:
        """Refuse (``forbidden``) a sender this command is not for."""
        if sender._value_ & self.senders._value_:  # the flags' ints: no Flag made to test
            return
        if sender == Sender.WAITING:
            raise RoomError(FORBIDDEN, "wait for the host to let you in")
        if self.senders == Sender.HOST:
            raise RoomError(FORBIDDEN, f"only the host may send {self.name!r}")
        if sender & Sender.SPECTATOR:
            raise RoomError(FORBIDDEN, f"spectators may not send {self.name!r}: they may "
                            f"{', '.join(COMMANDS.names_for(sender))}")
        raise RoomError(FORBIDDEN, f"{self.name!r} is for spectators, not players")

    def to_wire(self, command: Any) -> dict[str, Any]:
        return write(self.model, self.name, command)


class CommandTable:
    def __init__(self, specs: Iterable[CommandSpec]) -> None:
        self.specs = tuple(specs)
        self._by_type = {spec.command: spec for spec in self.specs}
        self._by_name = {spec.name: spec for spec in self.specs}
        assert len(self._by_type) == len(self._by_name) == len(self.specs), "declared twice"

    def models(self) -> tuple[type[CommandModel], ...]:
        """The edge's models, each once (one model may read several commands)."""
        return tuple(dict.fromkeys(spec.model for spec in self.specs))

    def spec_of(self, command: object) -> CommandSpec:
        spec = self._by_type.get(type(command))
        if spec is None:
            raise RoomError(BAD_MESSAGE, f"{type(command).__name__} is not a client command")
        return spec

    def names_for(self, sender: Sender) -> list[str]:
        return [spec.name for spec in self.specs if spec.senders & sender]

    def to_wire(self, command: ClientCommand) -> dict[str, Any]:
        """``command`` as its PROTOCOL.md message (without ``id``)."""
        return self.spec_of(command).to_wire(command)

    def from_wire(self, message: dict[str, Any]) -> ClientCommand:
        """The command ``to_wire`` gave, read by its model as at the edge."""
        spec = self._by_name.get(message.get("type"))  # type: ignore[arg-type]
        if spec is None:
            raise BadCommand(f"unknown command type {message.get('type')!r}")
        command = spec.model.model_validate(message).command()
        assert command is not None
        return command


def _simple(name: str, senders: Sender, applies: Engine | Handler) -> CommandSpec:
    return CommandSpec(name, SimpleMsg, type(SIMPLE[name]), senders, applies)


P, H, N, ALL = Sender.PLAYER, Sender.HOST, Sender.NAMED, Sender.ANYONE
COMMANDS = CommandTable([
    CommandSpec("play", PlayMsg, engine.Play, P, ENGINE),
    _simple("draw", P, ENGINE),
    _simple("pass", P, ENGINE),
    _simple("keep", P, ENGINE),
    _simple("uno", P, ENGINE),
    CommandSpec("catch", CatchMsg, engine.Catch, P, ENGINE),
    _simple("challenge", P, ENGINE),
    _simple("accept", P, ENGINE),
    CommandSpec("choose_color", ChooseColorMsg, engine.ChooseColor, P, ENGINE),
    CommandSpec("give", GiveMsg, engine.Give, P, ENGINE),
    _simple("slap", P, ENGINE),
    CommandSpec("chat", ChatMsg, engine.Chat, ALL, chat.said),
    CommandSpec("react", ReactMsg, React, ALL, audience.react, room_rate=True),
    _simple("leave", P, seating.leave_seat),
    _simple("back", P, idle.back),
    _simple("start", H, host.start),
    _simple("next_round", H, ENGINE),
    _simple("rematch", H, host.rematch),
    CommandSpec("rules", RulesMsg, ChangeRules, H, host.change_rules),
    CommandSpec("add_bot", AddBotMsg, AddBot, H, host.add_bot),
    CommandSpec("kick", KickMsg, Kick, H, host.kick),
    _simple("queue", N, queue.join_queue),
    CommandSpec("unqueue", UnqueueMsg, Unqueue, N | H, queue.leave_queue),
    CommandSpec("queue_order", QueueOrderMsg, QueueOrder, H, queue.reorder),
    CommandSpec("admit", AdmitMsg, Admit, H, approval.admit),
    CommandSpec("deny", DenyMsg, Deny, H, approval.deny),
    CommandSpec("ban", BanMsg, Ban, H, bans.ban),
])
