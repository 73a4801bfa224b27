"""The rules engine: pure, synchronous, deterministic. See ``game.Game`` for the API."""

from . import game as _game
from .cards import Card, card_text, parse_card, parse_color
from .commands import Command, command_to_wire, parse_command
from .errors import BadCommand, EngineError, InvalidRules, RuleError
from .events import Event
from .game import Game
from .rules import PRESETS, RuleSet, preset, rules_from_dict
from .seating import MAX_PLAYERS
from .setup import RiggedDeal

# True when this is the mypyc build (see ``_build``): C extensions of the same sources.
COMPILED: bool = not _game.__file__.endswith(".py")

__all__ = [
    "COMPILED",
    "MAX_PLAYERS",
    "PRESETS",
    "BadCommand",
    "Card",
    "Command",
    "EngineError",
    "Event",
    "Game",
    "InvalidRules",
    "RiggedDeal",
    "RuleError",
    "RuleSet",
    "card_text",
    "command_to_wire",
    "parse_card",
    "parse_color",
    "parse_command",
    "preset",
    "rules_from_dict",
]
