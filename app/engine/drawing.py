"""Drawing instead of playing: T-DRAW, H-DRAW-UNTIL, H-FORCE-DRAWN (keep refused), taking a
pending stack, H-FORCED (no draw by choice while holding a playable card) and H-HANDLIMIT (no
draw by choice at the limit: with nothing playable the player passes)."""

from __future__ import annotations

from typing import Final

from . import events as ev
from .blocked import check_blocked
from .cards import CARD_KINDS, Card
from .errors import (
    DECISION_PENDING,
    ILLEGAL_PLAY,
    MUST_PLAY,
    NOT_ALLOWED_BY_RULES,
    NOTHING_TO_DO,
    RuleError,
)
from .events import Event
from .seating import MAX_PLAYERS
from .state import PLAY_DRAWN, GameState, Pending
from .table import (
    MATCHES,
    SHARED_BELOW,
    draw_cards,
    drew_event,
    give_cards,
    next_seat,
    take_from_pile,
)
from .turns import (
    DRAWN_TURNS,
    PLAIN_TURNS,
    announce_turn,
    begin_turn_action,
    check_turn,
    finish_barred,
)

# A draw by choice of one card, shared like a play (see turns._PLAYED): _DREW_ONE[seat][card]
# [cards left], a list of slots per seat and card (7,080 slots in all); at most 6,490 events,
# 3.5 MB.
_DREW_ONE: Final[list[list[list[Event | None]]]] = [
    [[None] * SHARED_BELOW for _ in range(CARD_KINDS)] for _ in range(MAX_PLAYERS)
]

# The playable drawn card the table then waits on, per seat and card (590): built once and
# shared, as a play_drawn pending is never changed once built (only an exchange's and a slap's
# are). Building one cost CPython a class call, a frame and two empty lists, on ~7 draws a game.
_PLAY_DRAWN: Final = tuple(
    Pending(PLAY_DRAWN, seat, card=card)
    for seat in range(MAX_PLAYERS)
    for card in range(CARD_KINDS)
)


def draw(state: GameState, seat: int, out: list[Event], reason: str = "draw") -> None:
    """T-DRAW (and H-DRAW-UNTIL): a playable drawn card may be played, else the turn ends.
    With a stack pending, drawing takes the whole stack and loses the turn."""
    pending = state.pending
    if pending is not None or state.turn != seat:
        pending = check_turn(state, seat)
        if pending is not None and pending.kind == PLAY_DRAWN:
            raise RuleError(DECISION_PENDING, "you already drew: play that card or keep it")
    if state.rules.draw_limited and pending is None and reason == "draw":
        _check_draw_allowed(state, seat)
    if state.catchable:
        begin_turn_action(state, seat)
    state.precall = -1
    if pending is not None:  # a stack: take it all
        take_stack(state, pending, out)
        return
    mask = MATCHES[state.discard[-1] * 4 + state.color]
    pile = state.draw_pile
    card = pile.pop() if pile else take_from_pile(state, out)
    if card is None or (not mask[card] and state.rules.draw_until_playable):
        drawn: list[Card] = []
        if card is not None:
            drawn.append(card)
            # H-HANDLIMIT: drawing until playable stops at the limit too.
            rules = state.rules
            cap = rules.hand_limit - len(state.hands[seat]) if rules.hand_limit else 1 << 30
            while len(drawn) < cap:
                card = take_from_pile(state, out)
                if card is None:
                    break
                drawn.append(card)
                if mask[card]:
                    break
        give_cards(state, seat, drawn, reason, out)
        card = drawn[-1] if drawn else None
    else:  # one card, the common case
        # table.add_card, inline on this hot path (precall was cleared above).
        hand = state.hands[seat]
        hand.append(card)
        left = len(hand)
        if left > 1:
            state.uno_called[seat] = False
        if reason == "draw" and left < SHARED_BELOW:
            shared = _DREW_ONE[seat][card]
            event = shared[left]
            if event is None:
                event = shared[left] = drew_event(seat, [card], reason, left)
        else:
            event = drew_event(seat, [card], reason, left)
        out.append(event)
    # announce_turn, inlined on this hot path: nothing but the drawn card can be pending.
    state.turns_started += 1
    if card is not None and mask[card]:
        state.pending = _PLAY_DRAWN[seat * CARD_KINDS + card]
        out.append(DRAWN_TURNS[seat])
        return
    if state.simple_turns:
        state.turn = (seat + state.direction) % state.players
    else:
        state.turn = next_seat(state, seat)
    out.append(PLAIN_TURNS[state.turn])


def holds_playable(state: GameState, seat: int) -> bool:
    """Does ``seat`` hold a card it may play on its turn now (T-MATCH, H-FINISH)?"""
    mask = MATCHES[state.discard[-1] * 4 + state.color]
    hand = state.hands[seat]
    rules = state.rules
    return any(mask[c] and not finish_barred(rules, hand, c) for c in hand)


def at_hand_limit(state: GameState, seat: int) -> bool:
    limit = state.rules.hand_limit
    return limit > 0 and len(state.hands[seat]) >= limit


def _check_draw_allowed(state: GameState, seat: int) -> None:
    """H-FORCED and H-HANDLIMIT refuse a draw by choice (a stack or a timeout is no choice)."""
    playable = holds_playable(state, seat)
    if playable and (state.rules.forced_play or at_hand_limit(state, seat)):
        raise RuleError(MUST_PLAY, "you hold a playable card: play it")
    if at_hand_limit(state, seat):
        raise RuleError(
            NOT_ALLOWED_BY_RULES,
            f"H-HANDLIMIT: you hold {state.rules.hand_limit} cards or more: pass instead",
        )


def pass_turn(state: GameState, seat: int, out: list[Event]) -> None:
    """H-HANDLIMIT: at the limit with nothing playable, the player passes."""
    if not state.rules.hand_limit:
        raise RuleError(NOT_ALLOWED_BY_RULES, "passing is part of H-HANDLIMIT only")
    pending = check_turn(state, seat)
    if pending is not None:
        raise RuleError(DECISION_PENDING, f"answer the pending {pending.kind}: no pass now")
    if not at_hand_limit(state, seat):
        raise RuleError(NOT_ALLOWED_BY_RULES, "below the hand limit you draw instead of passing")
    if holds_playable(state, seat):
        raise RuleError(MUST_PLAY, "you hold a playable card: play it")
    skip_turn(state, seat, out)


def skip_turn(state: GameState, seat: int, out: list[Event]) -> None:
    """The turn passes without a card played or drawn (also O-TIMER at the hand limit)."""
    if state.catchable:
        begin_turn_action(state, seat)
    state.precall = -1
    out.append(Event(ev.PASSED, {"seat": seat}))
    state.turn = next_seat(state, seat)
    announce_turn(state, out)
    state.passed_turn = state.turns_started
    check_blocked(state, out, passed=True)  # a table of passes may go round in circles


def take_stack(state: GameState, pending: Pending, out: list[Event]) -> None:
    seat = pending.seat
    state.pending = None
    draw_cards(state, seat, pending.amount, "stack", out)
    state.turn = next_seat(state, seat)
    announce_turn(state, out)


def keep(state: GameState, seat: int, out: list[Event]) -> None:
    pending = state.pending
    if pending is None or pending.kind != PLAY_DRAWN or pending.seat != seat:
        raise RuleError(NOTHING_TO_DO, "there is no drawn card to keep")
    if state.rules.must_play_drawn:
        raise RuleError(ILLEGAL_PLAY, "H-FORCE-DRAWN: a playable drawn card must be played")
    state.pending = None
    out.append(Event(ev.KEPT, {"seat": seat}))
    state.turn = next_seat(state, seat)
    announce_turn(state, out)
