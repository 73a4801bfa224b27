"""Card effects: E-SKIP, E-REVERSE, E-DRAW2, E-W4, E-SHUFFLE, E-CUSTOM, E-LASTCARD, E-TWO and
the house effects H-STACK, H-DEFLECT, H-REVDEFLECT, H-SEVENO, H-FIVE, H-PLUS10, H-SILENT;
going out: W-OUT, H-LAST, H-SEVEN-ROUNDS."""

from __future__ import annotations

from typing import Final

from . import events as ev
from .cards import (
    BLANK,
    CARD_COLOR,
    CARD_RANK,
    CARD_TEXT,
    CUSTOM1,
    CUSTOM2,
    CUSTOM3,
    DRAW2,
    IS_WILD,
    REVERSE,
    SHUFFLE,
    SKIP,
    WILD4,
    Card,
    Color,
)
from .commands import Play
from .events import Event
from .rules import RuleSet
from .scoring import end_round
from .seating import MAX_PLAYERS
from .state import CHALLENGE, EXCHANGE, STACK, GameState, Pending
from .table import active_seats, draw_cards, next_seat, shuffle

_CUSTOM_INDEX: Final = {CUSTOM1: 0, CUSTOM2: 1, CUSTOM3: 2}

# Built once and shared, as events are never changed once built (see Event).
_SKIPPED: Final = tuple(Event(ev.SKIPPED, {"seat": seat}) for seat in range(MAX_PLAYERS))
_REVERSED_CW: Final = Event(ev.REVERSED, {"direction": 1})
_REVERSED_CCW: Final = Event(ev.REVERSED, {"direction": -1})

# A Wild Draw Four's challenge, _CHALLENGES[victim][offender][color before it] (400), built once
# and shared, as nothing changes a challenge pending once built (see Pending): building one cost
# CPython a class call, a frame and two empty lists.
_CHALLENGES: Final = tuple(
    tuple(
        tuple(
            Pending(CHALLENGE, victim, offender=offender, prev_color=color, amount=4)
            for color in range(4)
        )
        for offender in range(MAX_PLAYERS)
    )
    for victim in range(MAX_PLAYERS)
)


def custom_effect_of(state: GameState, card: Card) -> str:
    index = _CUSTOM_INDEX.get(CARD_RANK[card])
    return state.rules.custom_cards[index].effect if index is not None else ""


def apply_effect(
    state: GameState,
    seat: int,
    card: Card,
    effect: str,
    prev_color: Color,
    command: Play,
    stack: Pending | None,
    out: list[Event],
) -> None:
    """Everything the played card does after it lands; sets whose turn it is."""
    rules = state.rules
    rank = CARD_RANK[card]
    went_out = not state.hands[seat]
    if rules.silent != "off":
        _start_silence(state, seat, card)
    if stack is not None and rank == REVERSE and rules.reverse_deflects:
        # H-REVDEFLECT: the pending draw goes back to the one who played it.
        state.direction = -state.direction
        out.append(_REVERSED_CW if state.direction == 1 else _REVERSED_CCW)
        _pass_stack(state, seat, stack.amount, -1, -1, went_out, out)
        return
    if stack is not None and rank == SKIP and rules.skip_deflects:
        # H-SKIPDEFLECT: the whole amount, unchanged, to the next player after the deflector.
        _pass_stack(state, seat, stack.amount, -1, -1, went_out, out)
        return
    if rank == SKIP:
        if state.simple_turns:  # next_seat's commonest case, inline: two calls less
            skipped = (seat + state.direction) % state.players
            state.turn = (skipped + state.direction) % state.players
        else:
            skipped = next_seat(state, seat)
            state.turn = next_seat(state, skipped)
        out.append(_SKIPPED[skipped])
    elif rank == REVERSE:
        state.direction = -state.direction
        out.append(_REVERSED_CW if state.direction == 1 else _REVERSED_CCW)
        # E-REVERSE / E-TWO: with two players it acts as a Skip.
        active = state.players if state.simple_turns else len(active_seats(state))
        state.turn = seat if active == 2 else next_seat(state, seat)
    elif rank == DRAW2:
        if rules.answer_draws:
            _pass_stack(state, seat, stacked(rules, stack, 2), -1, -1, went_out, out)
        elif state.simple_turns:  # next_seat's commonest case, inline: two calls less
            victim = (seat + state.direction) % state.players
            draw_cards(state, victim, 2, "draw2", out)
            state.turn = (victim + state.direction) % state.players
        else:
            victim = next_seat(state, seat)
            draw_cards(state, victim, 2, "draw2", out)
            state.turn = next_seat(state, victim)
    elif rank == WILD4:
        challengeable = rules.challenge != "off" and not went_out
        if rules.answer_draws:
            offender = seat if challengeable else -1
            _pass_stack(state, seat, stacked(rules, stack, 4), offender, prev_color, went_out, out)
        elif challengeable:
            victim = next_seat(state, seat)
            state.turn = victim
            if 0 <= prev_color < 4:
                state.pending = _CHALLENGES[victim][seat][prev_color]
            else:
                state.pending = Pending(
                    CHALLENGE, victim, offender=seat, prev_color=prev_color, amount=4
                )
        else:  # C-OFF, or E-LASTCARD: a Wild Draw Four that ends the round is not challenged
            victim = next_seat(state, seat)
            draw_cards(state, victim, 4, "wild_draw4", out)
            state.turn = next_seat(state, victim)
    elif rank == SHUFFLE:
        _shuffle_hands(state, seat, out)
        state.turn = next_seat(state, seat)
    elif rank == BLANK and rules.blank_plus10:
        victim = next_seat(state, seat)
        draw_cards(state, victim, 10, "plus10", out)
        state.turn = next_seat(state, victim)
    elif effect:
        _custom_effect(state, seat, effect, command, out)
    else:
        state.turn = next_seat(state, seat)
        if went_out:
            return
        if rank == 7 and rules.seven_zero:
            # H-SEVENNEXT: "next" swaps with the next player, "choose" with the target.
            target = state.turn if rules.seven_swap == "next" else command.target
            if target is not None:
                _swap(state, seat, target, out)
        elif rank == 0 and rules.seven_zero:
            _pass_hands(state, seat, out)
        elif rank == 5 and rules.five_exchange and command.target is not None:
            state.pending = Pending(EXCHANGE, seat, target=command.target)
            out.append(Event(ev.EXCHANGE_STARTED, {"seat": seat, "target": command.target}))


def stacked(rules: RuleSet, stack: Pending | None, value: int) -> int:
    """The draw now pending: H-STACK adds up (H-REVENGE: an answer adds twice its value);
    H-DEFLECT, H-REVDEFLECT and H-SKIPDEFLECT alone do not."""
    if stack is None or rules.stacking not in ("progressive", "mixed"):
        return value
    return stack.amount + (2 * value if rules.revenge else value)


def _pass_stack(
    state: GameState,
    seat: int,
    amount: int,
    offender: int,
    prev_color: Color,
    went_out: bool,
    out: list[Event],
) -> None:
    """The next player now faces ``amount`` cards: answer, challenge (a Wild Draw Four), or
    draw them all. E-LASTCARD: when the player went out and the round ends, they draw now."""
    victim = next_seat(state, seat)
    state.turn = victim
    if went_out and not (state.rules.play_to_last or state.rules.shrinking_hands):
        draw_cards(state, victim, amount, "stack", out)
        return
    state.pending = Pending(STACK, victim, offender=offender, prev_color=prev_color, amount=amount)


def _start_silence(state: GameState, seat: int, card: Card) -> None:
    """H-SILENT: a 2 closes chat until that player's turn comes back; a Wild until the color
    changes."""
    mode = state.rules.silent
    if mode == "twos" and CARD_RANK[card] == 2 and not IS_WILD[card]:
        state.silence_by, state.silence_color = seat, -1
        state.silence_since = state.version
    elif mode == "wilds" and IS_WILD[card]:
        state.silence_by, state.silence_color = -1, state.color
        state.silence_since = state.version


def _shuffle_hands(state: GameState, seat: int, out: list[Event]) -> None:
    """E-SHUFFLE: all hands collected, shuffled, dealt one at a time from the next player."""
    pool = [c for h in state.hands for c in h]
    shuffle(state.rng, pool)
    hands: list[list[Card]] = [[] for _ in range(state.players)]
    receiver = next_seat(state, seat)
    for c in pool:
        hands[receiver].append(c)
        receiver = next_seat(state, receiver)
    state.hands = hands
    hands_moved(state, ev.HANDS_SHUFFLED, {"seat": seat}, out)


def hands_moved(state: GameState, kind: str, public: dict[str, object], out: list[Event]) -> None:
    """After hands change owners nobody has called UNO on their new hand and no catch stands."""
    state.uno_called = [False] * state.players
    state.catchable.clear()
    state.catch_open_ms.clear()
    private = {s: {"hand": [CARD_TEXT[c] for c in sorted(h)]} for s, h in enumerate(state.hands)}
    out.append(Event(kind, {**public, "hand_counts": [len(h) for h in state.hands]}, private))


def _swap(state: GameState, seat: int, target: int, out: list[Event]) -> None:
    hands = state.hands
    hands[seat], hands[target] = hands[target], hands[seat]
    hands_moved(state, ev.HANDS_SWAPPED, {"seat": seat, "target": target}, out)


def _pass_hands(state: GameState, seat: int, out: list[Event]) -> None:
    """Every hand still in the round passes to the next player in the direction of play."""
    hands = state.hands
    moved = list(hands)
    for s in active_seats(state):
        moved[next_seat(state, s)] = hands[s]
    state.hands = moved
    hands_moved(state, ev.HANDS_PASSED, {"seat": seat}, out)


def _custom_effect(
    state: GameState, seat: int, effect: str, command: Play, out: list[Event]
) -> None:
    """E-CUSTOM. Played as the last card it still wins: draws apply, hand moves do not."""
    went_out = not state.hands[seat]
    out.append(Event(ev.CUSTOM_EFFECT, {"seat": seat, "effect": effect}))
    nxt = next_seat(state, seat)
    state.turn = nxt
    if effect == "others_draw_1":
        for other in active_seats(state):
            if other != seat:
                draw_cards(state, other, 1, "custom", out)
    elif effect == "next_draws_3":
        draw_cards(state, nxt, 3, "custom", out)
        state.turn = next_seat(state, nxt)
    elif effect == "play_again":
        state.turn = seat
    elif effect == "discard_color":
        hand = state.hands[seat]
        dropped = [c for c in hand if CARD_COLOR[c] == state.color]
        if dropped:
            state.hands[seat] = [c for c in hand if CARD_COLOR[c] != state.color]
            top = state.discard.pop()
            state.discard.extend(dropped)
            state.discard.append(top)
            out.append(
                Event(ev.DISCARDED, {"seat": seat, "cards": [CARD_TEXT[c] for c in dropped]})
            )
    elif went_out:
        return
    elif effect == "swap_hands" and command.target is not None:
        _swap(state, seat, command.target, out)
    elif effect == "pass_hands":
        _pass_hands(state, seat, out)


def went_out(state: GameState, seat: int, out: list[Event]) -> bool:
    """``seat`` emptied its hand (after E-LASTCARD). True when the round ended.

    H-SEVEN-ROUNDS: refills of 6, 5, ... cards first; H-LAST: the round goes on without them."""
    rules = state.rules
    if CARD_RANK[state.discard[-1]] == SHUFFLE and state.hands[seat]:
        return False  # E-SHUFFLE dealt them cards again
    if rules.shrinking_hands:
        refill = rules.hand_size - 1 - state.refills[seat]
        if refill > 0:
            state.refills[seat] += 1
            out.append(Event(ev.REFILLED, {"seat": seat, "count": refill}))
            draw_cards(state, seat, refill, "refill", out)
            return False
    if rules.play_to_last and len(active_seats(state)) > 2:
        state.out[seat] = True
        state.simple_turns = False
        state.places.append(seat)
        out.append(Event(ev.WENT_OUT, {"seat": seat, "place": len(state.places)}))
        _leave_round(state, seat)
        return False
    state.places.append(seat)
    end_round(state, [state.places[0]], out)
    return True


def _leave_round(state: GameState, seat: int) -> None:
    """Nothing may wait on a seat that went out: its turn or decision passes on."""
    state.catchable.pop(seat, None)
    pending = state.pending
    if pending is not None and pending.kind == EXCHANGE and seat in (pending.seat, pending.target):
        state.pending = None
    if state.turn == seat:
        state.turn = next_seat(state, seat)
