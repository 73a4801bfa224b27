"""Setting up a match and each round: S-DEALER, S-DEAL, S-FIRST, S-FIRST-NUMBER, S-START."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from . import events as ev
from .cards import (
    CARD_COLOR,
    CARD_RANK,
    CARD_TEXT,
    COLOR_LETTERS,
    DRAW2,
    IS_NUMBER,
    IS_WILD,
    NO_COLOR,
    REVERSE,
    SKIP,
    W4,
    Card,
    build_deck,
    parse_card,
)
from .errors import InvalidRules
from .events import Event
from .randomness import GameRandom
from .rules import RuleSet
from .seating import check_players, new_order
from .state import CHOOSE_COLOR, GameState, Pending, seat_order_changed
from .table import draw_cards, next_seat, shuffle
from .turns import announce_turn


@dataclass(frozen=True, slots=True)
class RiggedDeal:
    """A first round dealt exactly so (tests only): hands by seat, the first discard turned, the
    draw pile top first. The deck's other cards go under the draw pile, shuffled."""

    dealer: int
    hands: tuple[tuple[Card, ...], ...]
    discard: Card
    draw_pile: tuple[Card, ...]

    @staticmethod
    def parse(data: dict[str, object], players: int, deck: str) -> RiggedDeal:
        hands_raw = data.get("hands")
        if not isinstance(hands_raw, list) or len(hands_raw) != players:
            raise InvalidRules(f"'deal.hands' must list one hand for each of the {players} seats")
        hands = tuple(tuple(parse_card(c) for c in _list(h, "hand")) for h in hands_raw)
        pile = tuple(parse_card(c) for c in _list(data.get("draw_pile", []), "draw_pile"))
        dealer = data.get("dealer", 0)
        if not isinstance(dealer, int) or not 0 <= dealer < players:
            raise InvalidRules(f"'deal.dealer' must be a seat 0-{players - 1}")
        deal = RiggedDeal(dealer, hands, parse_card(data.get("discard")), pile)
        named = Counter([c for h in hands for c in h] + [deal.discard, *pile])
        available = Counter(build_deck(deck))
        for card, count in named.items():
            if count > available[card]:
                raise InvalidRules(
                    f"the deal names {count} x {CARD_TEXT[card]} but the deck holds "
                    f"{available[card]}"
                )
        return deal


def _list(value: object, name: str) -> Sequence[object]:
    if not isinstance(value, list):
        raise InvalidRules(f"'deal.{name}' must be a list of card strings")
    return value


def new_match(
    players: int, rules: RuleSet, seed: int, deal: RiggedDeal | None = None, now_ms: int = 0
) -> tuple[GameState, list[Event]]:
    check_players(players, rules)
    rng = GameRandom(seed)
    state = GameState(rules=rules, players=players, rng=rng, now_ms=now_ms)
    state.order = list(range(players))
    state.position = list(range(players))
    state.scores = [0] * players
    state.round_wins = [0] * players
    state.dealer = deal.dealer if deal else rng.below(players)  # the deal's shuffle follows
    out: list[Event] = []
    start_round(state, out, deal)
    return state, out


def start_round(state: GameState, out: list[Event], deal: RiggedDeal | None = None) -> None:
    """Deal a round: S-DEAL, then the first discard (S-FIRST) and the first player (S-START)."""
    rules = state.rules
    n = state.players
    state.round_no += 1
    state.direction = 1
    state.pending = None
    state.precall = -1
    state.catchable = {}
    state.catch_open_ms = {}
    state.uno_called = [False] * n
    state.last_round = None
    state.slap = None
    state.jumpable = False
    state.out = [False] * n
    state.places = []
    state.refills = [0] * n
    state.positions = {}
    state.silence_by = state.silence_color = state.silence_since = -1
    if rules.shuffle_seats or state.eliminated:
        state.out = [s in state.eliminated for s in range(n)]  # H-ELIM: they left the match
        if rules.shuffle_seats:
            state.order = new_order(state)
        seat_order_changed(state)
        while state.out[state.dealer]:  # the deal passes on past seats that left the match
            state.dealer = (state.dealer + 1) % n
    else:
        state.simple_turns = True  # H-LAST may have taken seats out last round
    if deal is None:
        pile = build_deck(rules.deck)
        shuffle(state.rng, pile)
        # One card at a time from the top of the pile (its end), from the dealer's left.
        first = next_seat(state, state.dealer)
        if state.simple_turns:
            dealt = rules.hand_size * n
            cards = pile[-dealt:][::-1]
            del pile[-dealt:]
            hands = [cards[(s - first) % n :: n] for s in range(n)]
        else:
            hands = _deal_in_order(state, pile, first)
        turned = pile.pop()
    else:
        hands = [list(h) for h in deal.hands]
        remaining = Counter(build_deck(rules.deck))
        remaining.subtract(Counter([c for h in hands for c in h] + [deal.discard, *deal.draw_pile]))
        rest = list(remaining.elements())
        shuffle(state.rng, rest)
        pile = rest + list(reversed(deal.draw_pile))
        turned = deal.discard
    state.hands = hands
    state.draw_pile = pile
    state.discard = []
    public: dict[str, object] = {
        "round": state.round_no,
        "dealer": state.dealer,
        "hand_counts": [len(h) for h in hands],
    }
    if rules.shuffle_seats:
        public["order"] = list(state.order)
    if rules.blitz_seconds:  # H-BLITZ: the round's clock starts with the deal
        state.clock_ends_ms = state.now_ms + rules.blitz_seconds * 1000
        public["clock_ends_ms"] = state.clock_ends_ms
    if state.eliminated:
        public["eliminated"] = list(state.eliminated)
    out.append(
        Event(
            ev.ROUND_STARTED,
            public,
            {seat: {"hand": [CARD_TEXT[c] for c in sorted(h)]} for seat, h in enumerate(hands)},
        )
    )
    _turn_first_card(state, turned, out)


def _deal_in_order(state: GameState, pile: list[Card], first: int) -> list[list[Card]]:
    """S-DEAL in this round's order of play, to the seats still in the match."""
    seats = [first]
    seat = next_seat(state, first)
    while seat != first:
        seats.append(seat)
        seat = next_seat(state, seat)
    hands: list[list[Card]] = [[] for _ in range(state.players)]
    for _ in range(state.rules.hand_size):
        for s in seats:
            hands[s].append(pile.pop())
    return hands


def _turn_first_card(state: GameState, card: Card, out: list[Event]) -> None:
    pile = state.draw_pile
    returned: list[str] = []
    if state.rules.first_card == "number_only":
        while not IS_NUMBER[card]:
            returned.append(CARD_TEXT[card])
            pile.insert(0, card)
            shuffle(state.rng, pile)
            card = pile.pop()
    else:
        while card == W4:  # S-FIRST: returned to the pile, reshuffled, a new card turned
            returned.append(CARD_TEXT[card])
            pile.append(card)
            shuffle(state.rng, pile)
            card = pile.pop()
    state.discard.append(card)
    left = next_seat(state, state.dealer)
    if state.next_first >= 0:  # H-LAZY: the last round's winner starts
        left = state.next_first
        state.next_first = -1
    state.turn = left
    state.color = CARD_COLOR[card]
    effect = "none"
    if state.rules.first_card == "official":
        rank = CARD_RANK[card]
        if IS_WILD[card]:
            effect = "choose_color"
            state.color = NO_COLOR
            state.pending = Pending(CHOOSE_COLOR, left)
        elif rank == DRAW2:
            effect = "draw2"
        elif rank == SKIP:
            effect = "skip"
            state.turn = next_seat(state, left)
        elif rank == REVERSE:
            effect = "reverse"
            state.direction = -1
            state.turn = state.dealer
    out.append(
        Event(
            ev.FIRST_CARD,
            {
                "card": CARD_TEXT[card],
                "color": COLOR_LETTERS[state.color] if state.color != NO_COLOR else None,
                "returned": returned,
                "effect": effect,
            },
        )
    )
    if effect == "draw2":
        draw_cards(state, left, 2, "draw2", out)
        state.turn = next_seat(state, left)
    announce_turn(state, out)
