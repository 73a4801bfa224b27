"""O-BOTS: a pure bot policy. Given a game and a seat it picks one legal, reasonable command
(or None when the seat has nothing to do). It reads only what that seat may see: its own hand,
card counts, the discard pile. No I/O; the caller passes the RNG and adds the delay.
"""

from __future__ import annotations

import random
from collections import Counter

from .cards import CARD_COLOR, CARD_RANK, COLORS, DRAW2, IS_WILD, NO_COLOR, REVERSE, SKIP, W4, Card
from .cards import build_deck as _build_deck
from .commands import Accept, CallUno, Catch, Challenge, ChooseColor, Command, Draw, Keep, Play
from .game import Game
from .state import CHALLENGE, GameState
from .table import next_seat

_ACTIONS = frozenset({SKIP, REVERSE, DRAW2})


def choose_command(game: Game, seat: int, rng: random.Random) -> Command | None:
    """The bot's move for ``seat`` now, or None. Never NextRound (the host deals)."""
    legal = game.legal_commands(seat)
    if not legal or game.phase != "playing":
        return None
    state = game.state
    hand = state.hands[seat]
    catches = [c for c in legal if isinstance(c, Catch)]
    if catches:  # U-CATCH: a free penalty for someone else
        return rng.choice(catches)
    if len(hand) == 1 and CallUno() in legal:
        return CallUno()
    if Challenge() in legal:
        return Challenge() if challenge_pays(state, seat) else Accept()
    if any(isinstance(c, ChooseColor) for c in legal):
        return ChooseColor(best_color(hand, None, rng))
    plays = [c for c in legal if isinstance(c, Play)]
    if plays:
        pick = _best_play(state, seat, plays, rng)
        if pick is not None:
            return pick
    if Keep() in legal:
        return Keep()
    if Draw() in legal:
        return Draw()
    # Whatever else the table asks of this seat (rules this policy has no opinion on yet).
    rest = [c for c in legal if not isinstance(c, CallUno)]
    return rng.choice(rest) if rest else None


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
    if not cards:
        return None
    nxt = next_seat(state, seat)
    danger = len(state.hands[nxt]) <= 2
    counts = Counter(CARD_COLOR[c] for c in hand)

    def score(card: Card) -> tuple[int, int, int]:
        wild = IS_WILD[card]
        action = CARD_RANK[card] in _ACTIONS
        # Keep wilds for last; hit a player about to go out; shed the held color and high cards.
        return (
            0 if wild else 1,
            1 if action and danger else 0,
            counts[CARD_COLOR[card]] * 20 + (CARD_RANK[card] if not wild else 0),
        )

    card = max(cards, key=score)
    uno = len(hand) == 2
    options = [p for p in plays if p.card == card]
    color = best_color(hand, card, rng) if IS_WILD[card] else None
    options = [p for p in options if p.color in (color, None)] or options
    target = None
    if all(p.target is not None for p in options):  # swap hands or a 7: the smallest hand
        target = min(
            (p.target for p in options if p.target is not None), key=lambda t: len(state.hands[t])
        )
    return Play(card, options[0].color if color is None else color, target, uno)


def challenge_pays(state: GameState, seat: int) -> bool:
    """C-*: challenge when P(the offender held the previous color) makes it worth the risk.

    Guilty saves ``amount`` cards; innocent costs 2 more: challenge when P > 2 / (amount + 2).
    P comes from the cards this seat has not seen (deck minus own hand minus discards).
    """
    pending = state.pending
    if pending is None or pending.kind != CHALLENGE:
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
