"""Table mechanics shared by every rule: seats in order, shuffles, drawing with reshuffles,
what may be played on what."""

from __future__ import annotations

from functools import partial
from itertools import repeat, starmap
from typing import Final

from . import events as ev
from .cards import CARD_COLOR, CARD_KINDS, CARD_RANK, CARD_TEXT, IS_WILD, Card
from .events import DREW, Event
from .randomness import GameRandom
from .state import GameState


def _build_match_table() -> tuple[tuple[bool, ...], ...]:
    table: list[tuple[bool, ...]] = []
    for top in range(CARD_KINDS):
        for color in range(4):
            table.append(
                tuple(
                    IS_WILD[c]
                    or CARD_COLOR[c] == color
                    or (not IS_WILD[top] and CARD_RANK[c] == CARD_RANK[top])
                    for c in range(CARD_KINDS)
                )
            )
    return tuple(table)


# MATCHES[top * 4 + color][card]: T-MATCH, may ``card`` be played on ``top`` in ``color``.
MATCHES: Final = _build_match_table()

# What a seat that drew a single card sees of it, built once per card kind and shared (events are
# never changed once built, see Event): most draws are of one card.
_ONE_DRAWN: Final = tuple({"cards": [CARD_TEXT[c]]} for c in range(CARD_KINDS))

# Tables play and draw the same (seat, card, cards left) again and again: those events are built
# once and shared (see turns.play and drawing.draw), but only for hands left below SHARED_BELOW
# cards (99 % of them), which bounds the caches.
SHARED_BELOW: Final = 12


def shuffle(rng: GameRandom, cards: list[Card]) -> None:
    """Shuffle in place: a uniform permutation from one random key per card."""
    # The keys are random()'s next len(cards) values (two words each), the first for the first
    # card (the sort takes each card's key in order), called from C: a lambda key cost the
    # interpreter a frame per card, 108 a deal.
    keys = starmap(rng.generator(2 * len(cards)).random, repeat((), len(cards)))
    cards.sort(key=partial(next, keys))
    rng.release()


def next_seat(state: GameState, seat: int, steps: int = 1) -> int:
    """The seat ``steps`` places on in the direction of play (H-SHUFFLESEATS: in this round's
    order), passing seats that went out (H-LAST) or were eliminated (H-ELIM)."""
    if state.simple_turns:
        return (seat + state.direction * steps) % state.players
    return _seat_after(state, seat, state.direction, steps)


def previous_seat(state: GameState, seat: int) -> int:
    """The seat whose turn came just before ``seat``'s in the direction of play."""
    return _seat_after(state, seat, -state.direction, 1)


def _seat_after(state: GameState, seat: int, direction: int, steps: int) -> int:
    out = state.out
    order = state.order
    n = state.players
    index = state.position[seat]
    for _ in range(steps):
        index = (index + direction) % n
        while out[order[index]]:
            index = (index + direction) % n
    return order[index]


def active_seats(state: GameState) -> list[int]:
    """Seats still playing this round (H-LAST takes out those who went out, H-ELIM those who
    left the match)."""
    return [s for s in range(state.players) if not state.out[s]]


def reshuffle(state: GameState, out: list[Event]) -> bool:
    """T-RESHUFFLE: the discard pile but its top becomes the draw pile. False if nothing to draw.

    While a Wild Draw Four may still be challenged the card under it stays too: C-RETURN may
    take the Wild Draw Four back and play goes on from that card."""
    pending = state.pending
    keep = 2 if pending is not None and pending.offender >= 0 else 1
    if len(state.discard) <= keep:
        return False
    pile = state.discard[:-keep]
    state.discard = state.discard[-keep:]
    shuffle(state.rng, pile)
    state.draw_pile = pile
    out.append(Event(ev.RESHUFFLED, {"draw_pile": len(pile)}))
    return True


def take_from_pile(state: GameState, out: list[Event]) -> Card | None:
    if not state.draw_pile and not reshuffle(state, out):
        return None
    return state.draw_pile.pop()


def draw_cards(
    state: GameState, seat: int, count: int, reason: str, out: list[Event]
) -> list[Card]:
    """``seat`` draws ``count`` cards (fewer if the table runs dry); the cards go to it alone."""
    drawn: list[Card] = []
    for _ in range(count):
        pile = state.draw_pile  # (a reshuffle makes a new pile)
        card = pile.pop() if pile else take_from_pile(state, out)  # a call only to reshuffle
        if card is None:
            break
        drawn.append(card)
    give_cards(state, seat, drawn, reason, out)
    return drawn


def give_cards(
    state: GameState, seat: int, drawn: list[Card], reason: str, out: list[Event]
) -> None:
    """Drawn cards join the hand; everyone sees how many, only ``seat`` sees which."""
    if len(drawn) == 1:
        give_card(state, seat, drawn[0], reason, out)
        return
    hand = state.hands[seat]
    hand.extend(drawn)
    left = len(hand)
    if left > 1:
        state.uno_called[seat] = False
        if state.precall == seat:
            state.precall = -1
    out.append(drew_event(seat, drawn, reason, left))


def give_card(state: GameState, seat: int, card: Card, reason: str, out: list[Event]) -> None:
    """``give_cards`` of a single card (most draws), without the list."""
    out.append(drew_event(seat, [card], reason, add_card(state, seat, card)))


def add_card(state: GameState, seat: int, card: Card) -> int:
    """``card`` joins ``seat``'s hand; the cards it holds now. (``give_cards`` repeats the lapse
    of the UNO call below rather than calling a helper shared with this: the call cost the
    sources 0.5 % of a game's instructions, callgrind; ``drawing.draw`` repeats all of it for
    a draw by choice, 0.9 %.)"""
    hand = state.hands[seat]
    hand.append(card)
    left = len(hand)
    if left > 1:
        state.uno_called[seat] = False
        if state.precall == seat:
            state.precall = -1
    return left


def drew_event(seat: int, drawn: list[Card], reason: str, left: int) -> Event:
    count = len(drawn)
    mine = _ONE_DRAWN[drawn[0]] if count == 1 else {"cards": [CARD_TEXT[c] for c in drawn]}
    public = {"seat": seat, "count": count, "reason": reason, "cards_left": left}
    return Event(DREW, public, {seat: mine})


def hand_texts(hand: list[Card]) -> list[str]:
    return [CARD_TEXT[c] for c in sorted(hand)]
