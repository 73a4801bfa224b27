"""A turn's play: T-MATCH, T-ONE, H-JUMPIN, H-MISPLAY, H-FINISH, H-UNOCALL's calls with a play;
answering a pending stack (H-STACK, H-DEFLECT, H-REVDEFLECT, H-SKIPDEFLECT). Card effects live
in ``effects``, draws in ``drawing``, several cards at once (H-MULTI) in ``multiplay``."""

from __future__ import annotations

from typing import Final

from . import events as ev
from .cards import (
    CARD_COLOR,
    CARD_KINDS,
    CARD_RANK,
    CARD_TEXT,
    COLOR_LETTERS,
    DRAW2,
    IS_WILD,
    REVERSE,
    SKIP,
    WILD,
    WILD4,
    Card,
    W,
)
from .commands import Play
from .effects import apply_effect, custom_effect_of, went_out
from .errors import (
    BAD_TARGET,
    DECISION_PENDING,
    ILLEGAL_PLAY,
    NEED_COLOR,
    NOT_ALLOWED_BY_RULES,
    NOT_IN_HAND,
    NOT_YOUR_TURN,
    TOO_LATE,
    RuleError,
)
from .events import PLAYED, TURN, Event
from .house import exchange_waiting, start_slap
from .rules import RuleSet
from .seating import MAX_PLAYERS
from .state import CHALLENGE, EXCHANGE, PLAY_DRAWN, STACK, GameState, Pending
from .table import MATCHES, SHARED_BELOW, draw_cards, next_seat

# The turn announced after most commands, a seat's with nothing pending, and after a draw, the
# drawer's with the drawn card to play or keep: built once per seat and shared, as events are
# never changed once built (see Event).
PLAIN_TURNS: Final = tuple(Event(TURN, {"seat": seat}) for seat in range(MAX_PLAYERS))
DRAWN_TURNS: Final = tuple(
    Event(TURN, {"seat": seat, "pending": {"kind": PLAY_DRAWN, "seat": seat}})
    for seat in range(MAX_PLAYERS)
)
# And a Wild Draw Four's victim's, to challenge or accept it: per victim and offender.
CHALLENGE_TURNS: Final = tuple(
    tuple(
        Event(
            TURN,
            {
                "seat": seat,
                "pending": {"kind": CHALLENGE, "seat": seat, "amount": 4, "offender": offender},
            },
        )
        for offender in range(MAX_PLAYERS)
    )
    for seat in range(MAX_PLAYERS)
)

# Tables play the same (seat, card, color, cards left) again and again: each such "played"
# event is built once and shared, as events are never changed once built. Only for hands left
# below SHARED_BELOW cards (99 % of plays), which bounds the cache: at most 9,600 events, 2.9 MB
# (a color goes with its card but for the 7 wild kinds). Lists rather than a dict, no hashing:
# _PLAYED[seat][card][color][cards left], a list of slots per seat, card and color 0-3 (28,320
# slots in all), indexed step by step rather than by a computed number (no arithmetic).
_PLAYED: Final[list[list[list[list[Event | None]]]]] = [
    [[[None] * SHARED_BELOW for _ in range(4)] for _ in range(CARD_KINDS)]
    for _ in range(MAX_PLAYERS)
]


def _played(seat: int, card: Card, color: int, left: int) -> Event:
    public = {
        "seat": seat,
        "card": CARD_TEXT[card],
        "color": COLOR_LETTERS[color],
        "cards_left": left,
    }
    return Event(PLAYED, public)


# H-COLORWHEEL: red > blue > green > yellow > red, clockwise.
COLOR_WHEEL: Final[tuple[int, ...]] = (0, 3, 2, 1)


def begin_turn_action(state: GameState, seat: int) -> None:
    """The waited-on seat acts: U-CATCH windows that this seat's action closes are closed."""
    catchable = state.catchable
    if catchable:
        # No comprehension: CPython 3.11 would make ``seat`` a cell on every call.
        closed = []
        for target, closer in catchable.items():
            if closer == seat:
                closed.append(target)
        for target in closed:
            del catchable[target]
            state.catch_open_ms.pop(target, None)


def check_turn(state: GameState, seat: int) -> Pending | None:
    """The pending decision ``seat`` may answer with a play or a draw (None: a plain turn)."""
    pending = state.pending
    if pending is not None:
        if pending.seat != seat:
            raise RuleError(NOT_YOUR_TURN, f"the table is waiting for seat {pending.seat}")
        if pending.kind not in (PLAY_DRAWN, STACK):
            raise RuleError(DECISION_PENDING, f"answer the pending {pending.kind} first")
        return pending
    if state.turn != seat:
        raise RuleError(NOT_YOUR_TURN, f"it is seat {state.turn}'s turn")
    return None


def can_jump_in(state: GameState, seat: int, card: Card) -> bool:
    """H-JUMPIN: an identical card (a Wild on a Wild; never Wild Draw Four), out of turn, on a
    played card, while nothing but a drawn card or a stack is pending."""
    if not state.rules.jump_in or not state.jumpable:
        return False
    top = state.discard[-1]
    if card != top or (CARD_RANK[card] >= WILD and card != W) or state.out[seat]:
        return False
    pending = state.pending
    return pending is None or pending.kind in (PLAY_DRAWN, STACK)


def _missed_jump_in(state: GameState, seat: int, card: Card) -> bool:
    """A jump-in on the card just covered: of two racing commands this one came second."""
    discard = state.discard
    return (
        state.rules.jump_in
        and len(discard) >= 2
        and card == discard[-2]
        and card in state.hands[seat]
    )


def finish_barred(rules: RuleSet, hand: list[Card], card: Card) -> bool:
    """H-FINISH: may ``card`` not be played as the hand's last card?"""
    if len(hand) != 1:
        return False
    if rules.no_wild_finish and IS_WILD[card]:
        return True
    return rules.no_draw_finish and CARD_RANK[card] in (DRAW2, WILD4)


def stack_answer(state: GameState, pending: Pending, card: Card) -> bool:
    """May ``card`` answer the pending draw (H-STACK, H-DEFLECT, H-REVDEFLECT, H-SKIPDEFLECT)?"""
    rank = CARD_RANK[card]
    rules = state.rules
    if rank == REVERSE and rules.reverse_deflects:
        return CARD_COLOR[card] == state.color
    if rank == SKIP and rules.skip_deflects:
        return CARD_COLOR[card] == state.color
    top_rank = CARD_RANK[state.discard[-1]]
    mode = rules.stacking
    if mode == "mixed":
        return rank in (DRAW2, CARD_RANK[53])
    if mode == "progressive":
        return rank == top_rank and rank in (DRAW2, CARD_RANK[53])
    if mode == "deflect" and rank == DRAW2:
        # A Draw Two of any color on a Draw Two; on a Wild Draw Four only the chosen color.
        return top_rank != CARD_RANK[53] or CARD_COLOR[card] == state.color
    return False


def play(state: GameState, seat: int, command: Play, out: list[Event]) -> None:
    card = command.card
    hand = state.hands[seat]
    pending: Pending | None = state.pending
    rules = state.rules
    jump = False
    if pending is not None or state.turn != seat:
        if rules.jump_in and can_jump_in(state, seat, card):
            jump = True
        elif pending is None or pending.seat != seat or pending.kind not in (PLAY_DRAWN, STACK):
            refuse_turn(state, seat, card)
    try:
        index = hand.index(card)  # one scan finds it and, below, removes it
    except ValueError:
        raise RuleError(NOT_IN_HAND, f"you hold no {CARD_TEXT[card]}") from None
    if not rules.plain_play and limits_refuse(state, seat, command, jump, out):
        return  # H-MISPLAY: the attempt cost cards instead of being refused
    if jump:
        pass
    elif pending is None:
        if not MATCHES[state.discard[-1] * 4 + state.color][card]:
            misplay(state, seat, card, pending, out)  # raises, or H-MISPLAY costs cards
            return
    elif (pending.kind != PLAY_DRAWN or card != pending.card) and misplay(
        state, seat, card, pending, out
    ):
        return  # H-MISPLAY: the attempt cost cards instead of being refused
    color = command.color
    rank = CARD_RANK[card]
    effect = ""
    if rank >= WILD:
        if rules.color_wheel:
            step = 1 if state.direction == 1 else -1
            color = COLOR_WHEEL[(COLOR_WHEEL.index(state.color) + step) % 4]
        elif color is None:
            raise RuleError(NEED_COLOR, "choose a color for the wild")
        effect = custom_effect_of(state, card)
    else:
        color = CARD_COLOR[card]
    if (effect or not rules.plain_numbers) and len(hand) > 1:
        check_target(state, seat, card, effect, command.target)
    if jump:
        out.append(Event(ev.JUMPED_IN, {"seat": seat, "card": CARD_TEXT[card]}))
    if state.catchable:
        begin_turn_action(state, seat)
    if pending is not None:  # (not unconditional: mypy would take state.pending as None below)
        state.pending = None
    prev_color = state.color
    del hand[index]  # nothing above changed the hand (a misplay that draws returned)
    state.discard.append(card)
    state.color = color
    state.jumpable = True
    left = len(hand)
    if left == 1:
        precalled = state.precall == seat
        called = command.uno or precalled
        state.uno_called[seat] = called or state.uno_called[seat]
    else:
        precalled = called = False
        state.uno_called[seat] = False
    state.precall = -1
    if left < SHARED_BELOW:
        # Indexed by color as COLOR_LETTERS is (a negative color names the same letter as its
        # slot's; a wild named with a color above 3 fails on both).
        shared = _PLAYED[seat][card][color]
        played = shared[left]
        if played is None:
            played = shared[left] = _played(seat, card, color, left)
    else:
        played = _played(seat, card, color, left)
    out.append(played)
    if called and not precalled:  # a call made before was announced then
        out.append(Event(ev.UNO_CALLED, {"seat": seat}))
    if rank <= 9 and rules.plain_numbers:
        if state.simple_turns:
            state.turn = (seat + state.direction) % state.players
        else:
            state.turn = next_seat(state, seat)
    else:
        stack = pending if pending is not None and pending.kind == STACK else None
        apply_effect(state, seat, card, effect, prev_color, command, stack, out)
        hand = state.hands[seat]  # effects may move hands
    if not hand and went_out(state, seat, out):
        return
    # The end of ``finish_play``, inlined on this hot path.
    if jump and state.catchable:
        # Play goes on from the jumper: open windows now close when the new waited seat acts.
        state.catchable = dict.fromkeys(state.catchable, waited_seat(state))
    if called and rules.uno_slap:
        start_slap(state, seat, out)
    if len(hand) == 1 and not state.uno_called[seat] and rules.catches:  # (hand: after the effects)
        state.catchable[seat] = waited_seat(state)
        if rules.uno_grace_ms:
            state.catch_open_ms[seat] = state.now_ms + rules.uno_grace_ms
    if state.pending is None:  # announce_turn's commonest case, inlined on this hot path
        state.turns_started += 1
        out.append(PLAIN_TURNS[state.turn])
    else:
        announce_turn(state, out)


def limits_refuse(state: GameState, seat: int, command: Play, jump: bool, out: list[Event]) -> bool:
    """H-UNOCALL (a call with the play) and H-FINISH (a last card that may not finish): raises,
    or returns True when H-MISPLAY made the attempt cost cards."""
    rules = state.rules
    check_call_with_play(rules, command.uno)
    card = command.card
    if not finish_barred(rules, state.hands[seat], card):
        return False
    if jump:
        raise RuleError(ILLEGAL_PLAY, f"H-FINISH: {CARD_TEXT[card]} may not be your last card")
    return misplay(state, seat, card, state.pending, out)


def check_call_with_play(rules: RuleSet, uno: bool) -> None:
    """H-UNOCALL: a call with the play counts only under the official rule."""
    if uno and rules.uno_call != "official":
        raise RuleError(
            NOT_ALLOWED_BY_RULES,
            "UNO calls are off" if rules.uno_call == "off" else "call UNO after the play",
        )


def finish_play(state: GameState, seat: int, called: bool, jump: bool, out: list[Event]) -> None:
    """After a play that did not end the round: catch windows, U-CENTER, the next turn."""
    if jump and state.catchable:
        # Play goes on from the jumper: open windows now close when the new waited seat acts.
        state.catchable = dict.fromkeys(state.catchable, waited_seat(state))
    rules = state.rules
    if called and rules.uno_slap:
        start_slap(state, seat, out)
    if len(state.hands[seat]) == 1 and not state.uno_called[seat] and rules.catches:
        state.catchable[seat] = waited_seat(state)
        if rules.uno_grace_ms:
            state.catch_open_ms[seat] = state.now_ms + rules.uno_grace_ms
    announce_turn(state, out)


def refuse_turn(state: GameState, seat: int, card: Card) -> None:
    """Not this seat's turn, nor a decision it may answer with a card: refuse the play."""
    try:
        check_turn(state, seat)
    except RuleError as error:
        if error.code == NOT_YOUR_TURN and _missed_jump_in(state, seat, card):
            raise RuleError(TOO_LATE, "too late: another card reached the table first") from None
        raise


def misplay(
    state: GameState, seat: int, card: Card, pending: Pending | None, out: list[Event]
) -> bool:
    """False when ``card`` may be played; else refuses it, or (H-MISPLAY) makes the attempt cost
    cards instead and returns True."""
    rules = state.rules
    if not rules.plain_play and finish_barred(rules, state.hands[seat], card):
        ok = False
        why = f"H-FINISH: {CARD_TEXT[card]} may not be your last card"
    elif pending is None:
        ok = MATCHES[state.discard[-1] * 4 + state.color][card]
        why = f"{CARD_TEXT[card]} does not match {CARD_TEXT[state.discard[-1]]}"
    elif pending.kind == PLAY_DRAWN:
        ok = card == pending.card
        why = "after drawing you may play only the card you drew"
    else:
        ok = stack_answer(state, pending, card)
        why = f"{CARD_TEXT[card]} cannot answer the pending draw: draw the cards instead"
    if ok:
        return False
    penalty = rules.misplay_penalty
    if not penalty:
        raise RuleError(ILLEGAL_PLAY, why)
    out.append(Event(ev.MISPLAY, {"seat": seat, "card": CARD_TEXT[card]}))
    draw_cards(state, seat, penalty, "misplay", out)
    return True


def check_target(state: GameState, seat: int, card: Card, effect: str, target: int | None) -> None:
    rank = CARD_RANK[card]
    rules = state.rules
    needed = effect == "swap_hands" or (
        rank == 7 and rules.seven_zero and rules.seven_swap == "choose"
    )
    optional = rank == 5 and rules.five_exchange
    if not needed and not (optional and target is not None):
        return
    if target is None or not 0 <= target < state.players or target == seat or state.out[target]:
        raise RuleError(BAD_TARGET, "choose another player still in the round as the target")
    if optional and not state.hands[target]:
        raise RuleError(BAD_TARGET, "that player has no card to exchange")


def waited_seat(state: GameState) -> int:
    """The seat whose next action begins its turn (and closes U-CATCH windows)."""
    pending = state.pending
    return pending.seat if pending is not None else state.turn


def announce_turn(state: GameState, out: list[Event]) -> None:
    """Whose turn it is now, and what the table waits for (a new wait re-arms the timer)."""
    state.turns_started += 1
    pending = state.pending
    if pending is None:
        out.append(PLAIN_TURNS[state.turn])
    elif pending.kind == PLAY_DRAWN and pending.seat == state.turn:
        out.append(DRAWN_TURNS[state.turn])
    elif (
        pending.kind == CHALLENGE
        and pending.amount == 4
        and pending.seat == state.turn
        and pending.offender >= 0
    ):
        out.append(CHALLENGE_TURNS[state.turn][pending.offender])
    else:
        out.append(Event(TURN, {"seat": state.turn, "pending": public_pending(pending)}))


def public_pending(pending: Pending) -> dict[str, object]:
    """A pending decision as everyone may see it (a drawn card stays the drawer's secret)."""
    out: dict[str, object] = {"kind": pending.kind, "seat": pending.seat}
    if pending.kind in (CHALLENGE, STACK):
        out["amount"] = pending.amount
        out["offender"] = pending.offender
    elif pending.kind == EXCHANGE:
        out["target"] = pending.target
        out["waiting"] = exchange_waiting(pending)
    return out
