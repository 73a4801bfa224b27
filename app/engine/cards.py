"""Cards as small integers, with lookup tables; card strings exist only at the edge (PROTOCOL.md).

A card value names a kind of card (``R7``); copies of a kind share the value. Colored kinds are
``color * 13 + rank`` (0..51); wild kinds follow (52..58). Lookups are tuples indexed by card, which
keeps the hot paths of the engine (legal plays, scoring) to a few index operations.
"""

from __future__ import annotations

import functools
from typing import Final

from .errors import BadCommand

Card = int
Color = int

RED: Final = 0
YELLOW: Final = 1
GREEN: Final = 2
BLUE: Final = 3
NO_COLOR: Final = 4
# Typed as variable-length tuples: the compiled engine then keeps them as tuple objects.
COLORS: Final[tuple[Color, ...]] = (RED, YELLOW, GREEN, BLUE)
COLOR_LETTERS: Final[tuple[str, ...]] = ("R", "Y", "G", "B")

# Ranks of colored cards; wild kinds have their own rank so that "same symbol" never matches them.
SKIP: Final = 10
REVERSE: Final = 11
DRAW2: Final = 12
WILD: Final = 13
WILD4: Final = 14
SHUFFLE: Final = 15
CUSTOM1: Final = 16
CUSTOM2: Final = 17
CUSTOM3: Final = 18
BLANK: Final = 19

W: Final = 52
W4: Final = 53
WS: Final = 54
WC1: Final = 55
WC2: Final = 56
WC3: Final = 57
WB: Final = 58
CARD_KINDS: Final = 59

_RANK_TEXT = ("0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "S", "R", "+2")
_WILD_TEXT = {W: "W", W4: "W+4", WS: "WS", WC1: "WC1", WC2: "WC2", WC3: "WC3", WB: "WB"}
_WILD_RANK = {W: WILD, W4: WILD4, WS: SHUFFLE, WC1: CUSTOM1, WC2: CUSTOM2, WC3: CUSTOM3, WB: BLANK}


def colored(color: Color, rank: int) -> Card:
    return color * 13 + rank


def _build_tables() -> tuple[tuple[str, ...], tuple[int, ...], tuple[int, ...]]:
    text: list[str] = []
    color: list[int] = []
    rank: list[int] = []
    for c in COLORS:
        for r in range(13):
            text.append(COLOR_LETTERS[c] + _RANK_TEXT[r])
            color.append(c)
            rank.append(r)
    for card in range(W, CARD_KINDS):
        text.append(_WILD_TEXT[card])
        color.append(NO_COLOR)
        rank.append(_WILD_RANK[card])
    return tuple(text), tuple(color), tuple(rank)


_TABLES = _build_tables()
CARD_TEXT: Final[tuple[str, ...]] = _TABLES[0]
CARD_COLOR: Final[tuple[Color, ...]] = _TABLES[1]
CARD_RANK: Final[tuple[int, ...]] = _TABLES[2]
_BY_TEXT: Final = {t: i for i, t in enumerate(CARD_TEXT)}
IS_WILD: Final[tuple[bool, ...]] = tuple(c >= W for c in range(CARD_KINDS))
IS_NUMBER: Final[tuple[bool, ...]] = tuple(CARD_RANK[c] <= 9 for c in range(CARD_KINDS))


def parse_card(text: object) -> Card:
    """The card named by a PROTOCOL.md card string; a clear error for anything else."""
    if isinstance(text, str):
        card = _BY_TEXT.get(text.strip().upper())
        if card is not None:
            return card
    raise BadCommand(f"unknown card {text!r}: expected a card string such as 'R7', 'G+2' or 'W+4'")


def parse_color(text: object) -> Color:
    if isinstance(text, str) and text.strip().upper() in COLOR_LETTERS:
        return COLOR_LETTERS.index(text.strip().upper())
    raise BadCommand(f"unknown color {text!r}: expected one of R, Y, G, B")


def card_text(card: Card) -> str:
    return CARD_TEXT[card]


def color_text(color: Color) -> str | None:
    return COLOR_LETTERS[color] if color != NO_COLOR else None


def build_deck(deck: str) -> list[Card]:
    """D-108 ``classic``, D-112 ``modern`` (adds Shuffle Hands and 3 Customizable), D-BLANK."""
    return list(_deck(deck))


@functools.cache
def _deck(deck: str) -> tuple[Card, ...]:
    cards: list[Card] = []
    for c in COLORS:
        cards.append(colored(c, 0))
        for r in range(1, 13):
            cards += [colored(c, r)] * 2
    cards += [W] * 4 + [W4] * 4
    if deck == "modern":
        cards += [WS, WC1, WC2, WC3]
    elif deck == "classic_blank":
        cards += [WB] * 4
    return tuple(cards)
