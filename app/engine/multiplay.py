"""H-MULTI: several number cards of one number in one turn; H-BOMB: three or more at once make
every other player still in the round draw 1."""

from __future__ import annotations

from . import events as ev
from .cards import CARD_COLOR, CARD_RANK, CARD_TEXT, COLOR_LETTERS, IS_NUMBER, Card
from .commands import Play
from .effects import apply_effect, went_out
from .errors import ILLEGAL_PLAY, NOT_ALLOWED_BY_RULES, NOT_IN_HAND, RuleError
from .events import PLAYED, Event
from .state import GameState
from .table import MATCHES, draw_cards, next_seat
from .turns import (
    begin_turn_action,
    check_call_with_play,
    check_target,
    check_turn,
    finish_play,
    misplay,
)

BOMB_CARDS = 3


def followers(hand: list[Card], first: Card) -> list[Card]:
    """The cards that may follow ``first`` in one play (H-MULTI): the hand's other number cards
    of the same number (one copy of ``first`` aside)."""
    if not IS_NUMBER[first]:
        return []
    rank = CARD_RANK[first]
    rest = [c for c in hand if IS_NUMBER[c] and CARD_RANK[c] == rank]
    rest.remove(first)
    return sorted(rest)


def play_several(state: GameState, seat: int, command: Play, out: list[Event]) -> None:
    """One turn: the first card must be playable, the rest follow in the order given, the last
    one's color is the current color. A 7 or 0 (H-SEVENO), a 5 (H-FIVE), a 2 (H-SILENT) acts
    once; UNO calls and catches look at the hand after the whole play."""
    rules = state.rules
    if not rules.multi_play:
        raise RuleError(NOT_ALLOWED_BY_RULES, "one card per turn (T-ONE): H-MULTI is off")
    # Not on a drawn card nor on a pending draw; and no multi-card jump-ins (not_your_turn).
    if (state.pending is not None or state.turn != seat) and check_turn(state, seat) is not None:
        raise RuleError(ILLEGAL_PLAY, "several cards only on a plain turn of your own")
    cards = (command.card, *command.more)
    hand = state.hands[seat]
    for card in set(cards):
        if hand.count(card) < cards.count(card):
            raise RuleError(NOT_IN_HAND, f"you do not hold that many {CARD_TEXT[card]}")
    first = command.card
    rank = CARD_RANK[first]
    if not all(IS_NUMBER[c] and CARD_RANK[c] == rank for c in cards):
        raise RuleError(ILLEGAL_PLAY, "H-MULTI: several cards must all be numbers of one number")
    if not rules.plain_play:
        check_call_with_play(rules, command.uno)
    if not MATCHES[state.discard[-1] * 4 + state.color][first]:
        misplay(state, seat, first, None, out)  # raises, or H-MISPLAY costs cards
        return
    last = cards[-1]
    if not rules.plain_numbers and len(hand) > len(cards):
        check_target(state, seat, last, "", command.target)
    if state.catchable:
        begin_turn_action(state, seat)
    prev_color = state.color
    for card in cards:
        hand.remove(card)
        state.discard.append(card)
    color = CARD_COLOR[last]
    state.color = color
    state.jumpable = True
    left = len(hand)
    precalled = called = False
    if left == 1:
        precalled = state.precall == seat
        called = command.uno or precalled
        state.uno_called[seat] = called or state.uno_called[seat]
    else:
        state.uno_called[seat] = False
    state.precall = -1
    public = {
        "seat": seat,
        "card": CARD_TEXT[first],
        "more": [CARD_TEXT[c] for c in command.more],
        "color": COLOR_LETTERS[color],
        "cards_left": left,
    }
    out.append(Event(PLAYED, public))
    if called and not precalled:
        out.append(Event(ev.UNO_CALLED, {"seat": seat}))
    if rules.bomb and len(cards) >= BOMB_CARDS:
        _bomb(state, seat, len(cards), out)
    if rules.plain_numbers:
        state.turn = next_seat(state, seat)
    else:
        apply_effect(state, seat, last, "", prev_color, command, None, out)
        hand = state.hands[seat]  # a 7 or a 0 moves hands
    if not hand and went_out(state, seat, out):
        return
    finish_play(state, seat, called, False, out)


def _bomb(state: GameState, seat: int, count: int, out: list[Event]) -> None:
    """H-BOMB: every other player still in the round draws 1, from the next player on; it costs
    nobody a turn, and played as the last cards the draws still happen (as E-LASTCARD)."""
    out.append(Event(ev.BOMB, {"seat": seat, "count": count}))
    victim = next_seat(state, seat)
    while victim != seat:
        draw_cards(state, victim, 1, "bomb", out)
        victim = next_seat(state, victim)
