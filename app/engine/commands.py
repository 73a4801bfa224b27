"""Commands a seat sends to the engine: typed, immutable, parsed once from the wire."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .cards import Card, Color, card_text, color_text, parse_card, parse_color
from .errors import BadCommand


@dataclass(frozen=True, slots=True)
class Play:
    """Play a card on your turn (or jump in). ``color`` for wilds, ``target`` for a chosen seat;
    ``more``: H-MULTI, the cards played after ``card`` in the same turn, in order."""

    card: Card
    color: Color | None = None
    target: int | None = None
    uno: bool = False
    more: tuple[Card, ...] = ()


@dataclass(frozen=True, slots=True)
class Draw:
    """Draw a card (or take a pending penalty)."""


@dataclass(frozen=True, slots=True)
class Pass:
    """H-HANDLIMIT: at the hand limit with nothing playable, end the turn without drawing."""


@dataclass(frozen=True, slots=True)
class Keep:
    """Keep the card just drawn and end the turn."""


@dataclass(frozen=True, slots=True)
class CallUno:
    """U-CALL."""


@dataclass(frozen=True, slots=True)
class Catch:
    """U-CATCH: catch ``target``, who holds one card and has not called UNO."""

    target: int


@dataclass(frozen=True, slots=True)
class Challenge:
    """C-*: challenge the Wild Draw Four played on you."""


@dataclass(frozen=True, slots=True)
class Accept:
    """Accept the Wild Draw Four: draw and lose the turn."""


@dataclass(frozen=True, slots=True)
class ChooseColor:
    """Answer a pending color choice (a Wild turned as the first discard)."""

    color: Color


@dataclass(frozen=True, slots=True)
class Give:
    """Your side of a 5 exchange (H-FIVE)."""

    card: Card


@dataclass(frozen=True, slots=True)
class Slap:
    """U-CENTER."""


@dataclass(frozen=True, slots=True)
class Chat:
    """A chat line; an engine command because H-SILENT can make it cost cards."""

    text: str


@dataclass(frozen=True, slots=True)
class NextRound:
    """Deal the next round (the room lets only the host send it)."""


@dataclass(frozen=True, slots=True)
class Timeout:
    """Sent by the room's timer when the engine's deadline has passed: the engine acts for the
    waited-on seat (O-TIMER). ``seat`` is ignored; refused before the deadline."""


Command = (
    Play
    | Draw
    | Pass
    | Keep
    | CallUno
    | Catch
    | Challenge
    | Accept
    | ChooseColor
    | Give
    | Slap
    | Chat
    | NextRound
    | Timeout
)

MAX_CHAT = 300
MAX_MORE = 9  # H-MULTI: no number has more copies in any deck


def _seat(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < 10:
        raise BadCommand(f"'target' must be a seat number 0-9, not {value!r}")
    return value


def _more(value: Any) -> tuple[Card, ...]:
    if value is None:
        return ()
    if not isinstance(value, list) or len(value) > MAX_MORE:
        raise BadCommand(f"'more' must be a list of at most {MAX_MORE} card strings")
    return tuple(parse_card(c) for c in value)


def parse_command(message: Mapping[str, Any]) -> Command:
    """The engine command for a PROTOCOL.md client message (without its ``id``)."""
    kind = message.get("type")
    if kind == "play":
        color = message.get("color")
        target = message.get("target")
        uno = message.get("uno", False)
        if not isinstance(uno, bool):
            raise BadCommand("'uno' must be true or false")
        return Play(
            parse_card(message.get("card")),
            None if color is None else parse_color(color),
            None if target is None else _seat(target),
            uno,
            _more(message.get("more")),
        )
    if kind == "catch":
        return Catch(_seat(message.get("target")))
    if kind == "choose_color":
        return ChooseColor(parse_color(message.get("color")))
    if kind == "give":
        return Give(parse_card(message.get("card")))
    if kind == "chat":
        text = message.get("text")
        if not isinstance(text, str) or not text.strip():
            raise BadCommand("'text' must be a non-empty string")
        if len(text) > MAX_CHAT:
            raise BadCommand(f"chat text is limited to {MAX_CHAT} characters")
        return Chat(text.strip())
    simple = _SIMPLE.get(kind) if isinstance(kind, str) else None
    if simple is None:
        raise BadCommand(f"unknown command type {kind!r}")
    return simple


_SIMPLE: dict[str, Command] = {
    "draw": Draw(),
    "pass": Pass(),
    "keep": Keep(),
    "uno": CallUno(),
    "challenge": Challenge(),
    "accept": Accept(),
    "slap": Slap(),
    "next_round": NextRound(),
    "timeout": Timeout(),
}
# Each field-less command's wire name by its class: an instance equals another of its class,
# and comparing them ran the dataclass's interpreted ``__eq__`` (compiled engine or not), for
# the Draw in nearly every seat's legal moves.
_SIMPLE_NAMES: dict[type, str] = {type(command): name for name, command in _SIMPLE.items()}


def command_to_wire(command: Command) -> dict[str, Any]:
    """The PROTOCOL.md message for a command (used by bots and the event log)."""
    if isinstance(command, Play):
        out: dict[str, Any] = {"type": "play", "card": card_text(command.card)}
        if command.color is not None:
            out["color"] = color_text(command.color)
        if command.target is not None:
            out["target"] = command.target
        if command.uno:
            out["uno"] = True
        if command.more:
            out["more"] = [card_text(c) for c in command.more]
        return out
    if isinstance(command, Catch):
        return {"type": "catch", "target": command.target}
    if isinstance(command, ChooseColor):
        return {"type": "choose_color", "color": color_text(command.color)}
    if isinstance(command, Give):
        return {"type": "give", "card": card_text(command.card)}
    if isinstance(command, Chat):
        return {"type": "chat", "text": command.text}
    name = _SIMPLE_NAMES.get(type(command))
    if name is None:
        raise BadCommand(f"cannot encode {command!r}")
    return {"type": name}
