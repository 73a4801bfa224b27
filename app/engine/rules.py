"""RuleSet: every toggle of RULES.md, typed and validated, and the presets of section 9."""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any, Final

from .errors import NOT_ALLOWED_BY_RULES, InvalidRules

CUSTOM_EFFECTS: Final = (
    "others_draw_1",  # every other player draws 1
    "swap_hands",  # swap hands with a chosen player (needs a target)
    "play_again",  # the player plays again
    "pass_hands",  # everyone passes their hand in the direction of play
    "discard_color",  # the player discards every card of the chosen color
    "next_draws_3",  # the next player draws 3 and loses the turn
)

# The values of each choice key and the range of each number key (RuleSet's defaults say which
# kind a key is); app/rules_schema.py copies them for the client's rules form.
CHOICES: Final[dict[str, tuple[str, ...]]] = {
    "deck": ("modern", "classic", "classic_blank"),
    "first_card": ("official", "number_only"),
    "challenge": ("official", "return", "off"),
    "scoring": ("winner_takes", "lowest_wins", "lazy"),
    "stacking": ("off", "progressive", "mixed", "deflect"),
    "silent": ("off", "twos", "wilds"),
    "uno_call": ("official", "strict", "off"),
    "seven_swap": ("choose", "next"),
}
RANGES: Final[dict[str, tuple[int, int]]] = {
    "hand_size": (5, 10),
    "uno_penalty": (0, 10),
    "false_catch_penalty": (0, 10),
    "misplay_penalty": (0, 10),
    "special_wild_points": (0, 100),
    "turn_seconds": (0, 600),
    "uno_grace_ms": (0, 5000),
    "abandon_seconds": (0, 3600),
    "idle_timeouts": (0, 10),
    "slap_seconds": (1, 30),
    "target": (1, 100000),
    "round_limit": (0, 100),
    "hand_limit": (0, 100),
    "reveal_below": (0, 20),
    "blitz_seconds": (0, 7200),
}
DEFAULT_TARGET: Final = {"winner_takes": 500, "lowest_wins": 200, "lazy": 5}


@dataclass(frozen=True, slots=True)
class CustomCard:
    """E-CUSTOM: one Wild Customizable's effect, from the fixed menu, and its label."""

    effect: str
    label: str


def _default_custom() -> tuple[CustomCard, CustomCard, CustomCard]:
    return (
        CustomCard("others_draw_1", "Everyone else draws 1"),
        CustomCard("play_again", "Play again"),
        CustomCard("next_draws_3", "Next player draws 3"),
    )


@dataclass(frozen=True, slots=True)
class RuleSet:
    """Defaults are the official rules (preset ``official``). Keys match RULES.md."""

    deck: str = "modern"
    hand_size: int = 7
    first_card: str = "official"
    draw_until_playable: bool = False
    must_play_drawn: bool = False
    challenge: str = "official"
    uno_penalty: int = 2
    false_catch_penalty: int = 0
    uno_slap: bool = False
    uno_grace_ms: int = 0
    special_wild_points: int = 50
    scoring: str = "winner_takes"
    target: int = 500
    round_limit: int = 0  # TR-TABLES: rounds that end a match, best total winning (0: none)
    lone_zero_50: bool = False
    jump_in: bool = False
    seven_zero: bool = False
    stacking: str = "off"
    reverse_deflects: bool = False
    five_exchange: bool = False
    silent: str = "off"
    color_wheel: bool = False
    blank_plus10: bool = False
    play_to_last: bool = False
    shrinking_hands: bool = False
    misplay_penalty: int = 0
    turn_seconds: int = 30
    abandon_seconds: int = 60
    idle_timeouts: int = 2  # O-IDLE: turns in a row that ran out before a bot plays the seat
    slap_seconds: int = 3
    custom_cards: tuple[CustomCard, CustomCard, CustomCard] = field(default_factory=_default_custom)
    # Section 8b: rules from online tables.
    skip_deflects: bool = False
    revenge: bool = False
    multi_play: bool = False
    bomb: bool = False
    forced_play: bool = False
    hand_limit: int = 0
    uno_call: str = "official"
    no_wild_finish: bool = False
    no_draw_finish: bool = False
    double_score: bool = False
    elimination: bool = False
    teams: bool = False
    reveal_below: int = 0
    no_hints: bool = False
    blitz_seconds: int = 0
    shuffle_seats: bool = False
    seven_swap: str = "choose"
    # Derived once, read on every play: which house rules give number cards an effect, whether
    # any timer runs, whether the victim may answer a draw card ("Answering a draw"), whether a
    # play needs the checks of H-FINISH and H-UNOCALL, whether a draw may be refused (H-FORCED,
    # H-HANDLIMIT), whether U-CATCH is on, whether anything runs after each command (a timer,
    # H-REVEAL). Not rule keys.
    plain_numbers: bool = field(init=False, repr=False, compare=False)
    timed: bool = field(init=False, repr=False, compare=False)
    answer_draws: bool = field(init=False, repr=False, compare=False)
    plain_play: bool = field(init=False, repr=False, compare=False)
    draw_limited: bool = field(init=False, repr=False, compare=False)
    catches: bool = field(init=False, repr=False, compare=False)
    watched: bool = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        plain = not (self.seven_zero or self.five_exchange or self.silent != "off")
        object.__setattr__(self, "plain_numbers", plain)
        timed = bool(self.turn_seconds or self.uno_slap or self.five_exchange)
        object.__setattr__(self, "timed", timed)
        answer = (
            self.stacking != "off" or self.reverse_deflects or self.skip_deflects or self.revenge
        )
        object.__setattr__(self, "answer_draws", answer)
        plain_play = not (self.no_wild_finish or self.no_draw_finish or self.uno_call != "official")
        object.__setattr__(self, "plain_play", plain_play)
        object.__setattr__(self, "draw_limited", self.forced_play or self.hand_limit > 0)
        object.__setattr__(self, "catches", self.uno_call != "off")
        object.__setattr__(self, "watched", timed or self.reveal_below > 0)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for f in fields(self):
            if not f.init:
                continue
            value = getattr(self, f.name)
            if f.name == "custom_cards":
                value = [{"effect": c.effect, "label": c.label} for c in value]
            out[f.name] = value
        return out

    def with_changes(self, changes: Mapping[str, Any]) -> RuleSet:
        """This RuleSet with single toggles changed; the result is validated as a whole."""
        return rules_from_dict({**self.to_dict(), **dict(changes)})


RULE_KEYS: Final = frozenset(f.name for f in fields(RuleSet) if f.init)


def _check_value(key: str, value: Any, default: Any) -> Any:
    if key == "custom_cards":
        return _parse_custom(value)
    if isinstance(default, bool):
        if not isinstance(value, bool):
            raise InvalidRules(f"rule {key!r} must be true or false, not {value!r}")
        return value
    if isinstance(default, int):
        if isinstance(value, bool) or not isinstance(value, int):
            raise InvalidRules(f"rule {key!r} must be a whole number, not {value!r}")
        low, high = RANGES[key]
        if not low <= value <= high:
            raise InvalidRules(f"rule {key!r} must be between {low} and {high}, not {value}")
        return value
    choices = CHOICES[key]
    if value not in choices:
        raise InvalidRules(f"rule {key!r} must be one of {', '.join(choices)}, not {value!r}")
    return value


def _parse_custom(value: Any) -> tuple[CustomCard, CustomCard, CustomCard]:
    if isinstance(value, tuple) and all(isinstance(c, CustomCard) for c in value):
        items: list[Any] = [{"effect": c.effect, "label": c.label} for c in value]
    elif isinstance(value, list):
        items = value
    else:
        raise InvalidRules("rule 'custom_cards' must be a list of 3 {effect, label} objects")
    if len(items) != 3:
        raise InvalidRules("rule 'custom_cards' must name exactly 3 cards")
    cards: list[CustomCard] = []
    for item in items:
        if not isinstance(item, Mapping) or set(item) - {"effect", "label"}:
            raise InvalidRules("each of 'custom_cards' must be an object with 'effect' and 'label'")
        effect = item.get("effect")
        if effect not in CUSTOM_EFFECTS:
            raise InvalidRules(
                f"custom card effect {effect!r} is not on the menu: {', '.join(CUSTOM_EFFECTS)}"
            )
        label = item.get("label", effect)
        if not isinstance(label, str) or not 1 <= len(label.strip()) <= 40:
            raise InvalidRules("a custom card label must be text of 1 to 40 characters")
        cards.append(CustomCard(str(effect), label.strip()))
    return cards[0], cards[1], cards[2]


def rules_from_dict(data: Mapping[str, Any]) -> RuleSet:
    """A validated RuleSet; an unknown key or a bad value raises InvalidRules naming it."""
    unknown = sorted(set(data) - RULE_KEYS)
    if unknown:
        raise InvalidRules(f"unknown rule {unknown[0]!r}")
    defaults = RuleSet()
    values: dict[str, Any] = {}
    for key, value in data.items():
        values[key] = _check_value(key, value, getattr(defaults, key))
    if "target" not in values:
        values["target"] = DEFAULT_TARGET[values.get("scoring", defaults.scoring)]
    if values.get("uno_call") == "off":
        values["uno_slap"] = False  # H-UNOCALL "off": no calls, so no U-CENTER either
    rules = dataclasses.replace(defaults, **values)
    _check_combinations(rules)
    return _shared(rules)


@functools.lru_cache(maxsize=256)
def _shared(rules: RuleSet) -> RuleSet:
    """The first of the rule sets equal to ``rules`` still cached: a worker's tables play a few
    presets, and each table's own RuleSet cost 1.3 KB (rule sets are immutable)."""
    return rules


def _check_combinations(rules: RuleSet) -> None:
    """Section 8b: a rule "(with H-X)" needs H-X; a combination the rule book refuses is refused
    when the rules are set, never discovered mid-round."""
    needs = (
        (
            rules.blank_plus10 and rules.deck != "classic_blank",
            "'blank_plus10' needs deck 'classic_blank' (H-PLUS10 with D-BLANK)",
        ),
        (
            rules.revenge and rules.stacking not in ("progressive", "mixed"),
            "'revenge' needs stacking 'progressive' or 'mixed' (H-REVENGE with H-STACK)",
        ),
        (rules.bomb and not rules.multi_play, "'bomb' needs 'multi_play' (H-BOMB with H-MULTI)"),
        (
            rules.seven_swap != "choose" and not rules.seven_zero,
            "'seven_swap' needs 'seven_zero' (H-SEVENNEXT with H-SEVENO)",
        ),
        (
            rules.elimination and rules.teams,
            "'elimination' and 'teams' do not go together (H-ELIM is not played with H-TEAMS)",
        ),
    )
    for refused, why in needs:
        if refused:
            raise InvalidRules(f"rule {why}", NOT_ALLOWED_BY_RULES)


PRESETS: Final[dict[str, dict[str, Any]]] = {
    "official": {},
    "house": {"jump_in": True, "stacking": "progressive", "seven_zero": True},
    "seeded": {
        "first_card": "number_only",
        "challenge": "return",
        "stacking": "deflect",
        "jump_in": True,
        "uno_penalty": 2,
        "scoring": "winner_takes",
    },
    "party": {
        "jump_in": True,
        "stacking": "progressive",
        "seven_zero": True,
        "uno_slap": True,
        "silent": "twos",
        "five_exchange": True,
    },
    "crazy": {
        "jump_in": True,
        "seven_zero": True,
        "stacking": "mixed",
        "revenge": True,
        "skip_deflects": True,
        "reverse_deflects": True,
        "multi_play": True,
        "bomb": True,
    },
    "teams": {"teams": True},
    "fast": {"turn_seconds": 10, "blitz_seconds": 300},
}
TEAM_SIZES: Final = (4, 6, 8, 10)  # H-TEAMS: players at a table of two teams


def preset(name: str, changes: Mapping[str, Any] | None = None) -> RuleSet:
    """A named preset, with single toggles changed by the host."""
    if name not in PRESETS:
        raise InvalidRules(f"unknown preset {name!r}: one of {', '.join(PRESETS)}")
    return rules_from_dict({**PRESETS[name], **dict(changes or {})})
