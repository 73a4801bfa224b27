"""O-BOTS: a pure bot policy. Given a game and a seat it picks one legal, reasonable command
(or None when the seat has nothing to do). It reads only what that seat may see: its own hand,
card counts, the discard pile. No I/O; the caller passes the RNG and adds the delay.

Every rule is played legally: several cards at once (H-MULTI) when it sheds them, a pass at the
hand limit (H-HANDLIMIT), UNO called after the play under H-UNOCALL strict (never under "off"),
no 7 swap, 5 exchange or catch aimed at a partner (H-TEAMS).
"""

from __future__ import annotations

import random
from collections import Counter

from .cards import CARD_COLOR, CARD_RANK, COLORS, DRAW2, IS_WILD, NO_COLOR, REVERSE, SKIP, W4, Card
from .cards import build_deck as _build_deck
from .commands import (
    Accept,
    CallUno,
    Catch,
    Challenge,
    ChooseColor,
    Command,
    Draw,
    Keep,
    Pass,
    Play,
)
from .game import Game
from .seating import partners
from .state import CHALLENGE, STACK, GameState
from .table import next_seat

_ACTIONS = frozenset({SKIP, REVERSE, DRAW2})


def choose_command(game: Game, seat: int, rng: random.Random) -> Command | None:
    """The bot's move for ``seat`` now, or None. Never NextRound (the host deals)."""
    legal = game.legal_commands(seat)
    if not legal or game.phase != "playing":
        return None
    state = game.state
    hand = state.hands[seat]
    if len(hand) == 1 and CallUno() in legal:  # first: H-UNOCALL strict calls after the play
        return CallUno()
    catches = [c for c in legal if isinstance(c, Catch) and not partners(state, seat, c.target)]
    if catches:  # U-CATCH: a free penalty for someone else
        return rng.choice(catches)
    pending = state.pending
    if Challenge() in legal and pending is not None and pending.kind == CHALLENGE:
        return Challenge() if challenge_pays(state, seat) else Accept()
    if any(isinstance(c, ChooseColor) for c in legal):
        return ChooseColor(best_color(hand, None, rng))
    plays = [c for c in legal if isinstance(c, Play)]
    if plays:
        pick = _best_play(state, seat, plays, rng)
        if pick is not None:
            return pick
    if Challenge() in legal:  # a stacked Wild Draw Four this bot cannot answer
        return Challenge() if challenge_pays(state, seat) else Accept()
    for fallback in (Keep(), Draw(), Pass()):
        if fallback in legal:
            return fallback
    # Whatever else the table asks of this seat (rules this policy has no opinion on yet);
    # a play aimed at a partner only when nothing else may be sent.
    rest = [c for c in legal if not isinstance(c, CallUno | Catch)]
    aimed = [
        c
        for c in rest
        if not (isinstance(c, Play) and c.target is not None and partners(state, seat, c.target))
    ]
    return rng.choice(aimed or rest) if rest else None


def best_color(hand: list[Card], without: Card | None, rng: random.Random) -> int:
    """The color the hand holds most (a tie: any of them), ignoring one copy of ``without``."""
    counts = Counter(CARD_COLOR[c] for c in hand if CARD_COLOR[c] != NO_COLOR)
    if without is not None and CARD_COLOR[without] != NO_COLOR:
        counts[CARD_COLOR[without]] -= 1
    most = max((counts[c] for c in COLORS), default=0)
    return rng.choice([c for c in COLORS if counts[c] == most])


def _best_play(state: GameState, seat: int, plays: list[Play], rng: random.Random) -> Play | None:
    hand = state.hands[seat]
    holds_color = any(CARD_COLOR[c] == state.color for c in hand)
    cards = sorted({p.card for p in plays})
    if W4 in cards and holds_color:  # W4-LEGAL: this bot does not bluff
        cards.remove(W4)
    # H-TEAMS: a card whose every play aims at a partner is played only when nothing else may
    # be sent (``choose_command``'s last resort).
    cards = [c for c in cards if _opponent_options(state, seat, plays, c)]
    if not cards:
        return None
    nxt = next_seat(state, seat)
    danger = len(state.hands[nxt]) <= 2 and not partners(state, seat, nxt)
    counts = Counter(CARD_COLOR[c] for c in hand)
    most = max((len(p.more) for p in plays), default=0)

    def score(card: Card) -> tuple[int, int, int, int]:
        wild = IS_WILD[card]
        action = CARD_RANK[card] in _ACTIONS
        several = max(len(p.more) for p in plays if p.card == card) if most else 0
        # Keep wilds for last; hit a player about to go out; shed the most cards at once, the
        # held color and high cards.
        return (
            0 if wild else 1,
            1 if action and danger else 0,
            several,
            counts[CARD_COLOR[card]] * 20 + (CARD_RANK[card] if not wild else 0),
        )

    card = max(cards, key=score)
    options = _opponent_options(state, seat, plays, card) or [p for p in plays if p.card == card]
    more = max((p.more for p in options), key=len)
    if more:
        more = _last_in_best_color(hand, card, more)
    options = [p for p in options if len(p.more) == len(more)]
    left = len(hand) - 1 - len(more)
    uno = left == 1 and state.rules.uno_call == "official"
    color = best_color(hand, card, rng) if IS_WILD[card] else None
    options = [p for p in options if p.color in (color, None)] or options
    target = None
    if all(p.target is not None for p in options):  # swap hands or a 7: the smallest hand
        target = min(
            (p.target for p in options if p.target is not None), key=lambda t: len(state.hands[t])
        )
    return Play(card, options[0].color if color is None else color, target, uno, more)


def _opponent_options(state: GameState, seat: int, plays: list[Play], card: Card) -> list[Play]:
    """The plays of ``card`` that aim at nobody, or at someone who is not a partner."""
    return [
        p
        for p in plays
        if p.card == card and (p.target is None or not partners(state, seat, p.target))
    ]


def _last_in_best_color(hand: list[Card], first: Card, more: tuple[Card, ...]) -> tuple[Card, ...]:
    """H-MULTI: any order will do after the first card; end on the color the rest of the hand
    holds most, so the next turn finds it current."""
    rest = list(hand)
    for c in (first, *more):
        rest.remove(c)
    counts = Counter(CARD_COLOR[c] for c in rest)
    ordered = sorted(more, key=lambda c: counts[CARD_COLOR[c]])
    return tuple(ordered)


def challenge_pays(state: GameState, seat: int) -> bool:
    """C-*: challenge when P(the offender held the previous color) makes it worth the risk.

    Guilty saves ``amount`` cards; innocent costs 2 more: challenge when P > 2 / (amount + 2).
    P comes from the cards this seat has not seen (deck minus own hand minus discards).
    """
    pending = state.pending
    if pending is None or pending.kind not in (CHALLENGE, STACK) or pending.offender < 0:
        return False
    unseen = Counter(_build_deck(state.rules.deck))
    unseen.subtract(state.hands[seat])
    unseen.subtract(state.discard)
    total = sum(max(0, n) for n in unseen.values())
    of_color = sum(max(0, n) for c, n in unseen.items() if CARD_COLOR[c] == pending.prev_color)
    if total <= 0 or pending.prev_color == NO_COLOR:
        return False
    held = len(state.hands[pending.offender])
    p_guilty = 1 - (1 - of_color / total) ** held
    return p_guilty > 2 / (pending.amount + 2)
