"""A turn: T-MATCH, T-DRAW, T-ONE and every card effect (E-*), including the end of a round."""

from __future__ import annotations

from typing import Final

from . import events as ev
from .cards import (
    CARD_COLOR,
    CARD_RANK,
    CARD_TEXT,
    COLOR_LETTERS,
    CUSTOM1,
    CUSTOM2,
    CUSTOM3,
    DRAW2,
    REVERSE,
    SHUFFLE,
    SKIP,
    WILD,
    WILD4,
    Card,
    Color,
)
from .commands import Play
from .errors import (
    BAD_TARGET,
    DECISION_PENDING,
    ILLEGAL_PLAY,
    NEED_COLOR,
    NOT_IN_HAND,
    NOT_YOUR_TURN,
    NOTHING_TO_DO,
    RuleError,
)
from .events import Event
from .scoring import end_round
from .state import CHALLENGE, PLAY_DRAWN, GameState, Pending
from .table import MATCHES, draw_cards, give_cards, next_seat, shuffle, take_from_pile

_CUSTOM_INDEX: Final = {CUSTOM1: 0, CUSTOM2: 1, CUSTOM3: 2}


def begin_turn_action(state: GameState, seat: int) -> None:
    """The waited-on seat acts: U-CATCH windows that this seat's action closes are closed."""
    if state.catchable:
        for target in [t for t, closer in state.catchable.items() if closer == seat]:
            del state.catchable[target]
            state.catch_open_ms.pop(target, None)


def check_turn(state: GameState, seat: int) -> Pending | None:
    pending = state.pending
    if pending is not None:
        if pending.seat != seat:
            raise RuleError(NOT_YOUR_TURN, f"the table is waiting for seat {pending.seat}")
        if pending.kind != PLAY_DRAWN:
            raise RuleError(DECISION_PENDING, f"answer the pending {pending.kind} first")
        return pending
    if state.turn != seat:
        raise RuleError(NOT_YOUR_TURN, f"it is seat {state.turn}'s turn")
    return None


def play(state: GameState, seat: int, command: Play, out: list[Event]) -> None:
    pending = state.pending
    if pending is not None or state.turn != seat:
        pending = check_turn(state, seat)
    card = command.card
    hand = state.hands[seat]
    if pending is not None and card != pending.card:
        raise RuleError(ILLEGAL_PLAY, "after drawing you may play only the card you drew")
    if card not in hand:
        raise RuleError(NOT_IN_HAND, f"you hold no {CARD_TEXT[card]}")
    discard = state.discard
    if not MATCHES[discard[-1] * 4 + state.color][card]:
        raise RuleError(ILLEGAL_PLAY, f"{CARD_TEXT[card]} does not match {CARD_TEXT[discard[-1]]}")
    color = command.color
    rank = CARD_RANK[card]
    effect = ""
    if rank >= WILD:
        if color is None:
            raise RuleError(NEED_COLOR, "choose a color for the wild")
        custom = _CUSTOM_INDEX.get(rank)
        if custom is not None:
            effect = state.rules.custom_cards[custom].effect
            if effect == "swap_hands" and len(hand) > 1:
                _check_target(state, seat, command.target)
    else:
        color = CARD_COLOR[card]
    if state.catchable:
        begin_turn_action(state, seat)
    state.pending = None
    prev_color = state.color
    hand.remove(card)
    discard.append(card)
    state.color = color
    left = len(hand)
    called = command.uno or state.precall == seat
    state.precall = -1
    state.uno_called[seat] = left == 1 and (called or state.uno_called[seat])
    public = {"seat": seat, "card": CARD_TEXT[card], "color": COLOR_LETTERS[color]}
    public["cards_left"] = left
    out.append(Event(ev.PLAYED, public))
    if left == 1 and called:
        out.append(Event(ev.UNO_CALLED, {"seat": seat}))
    if rank <= 9:
        state.turn = next_seat(state, seat)
    else:
        _apply_effect(state, seat, rank, effect, prev_color, command, out)
    left = len(state.hands[seat])
    if left == 0 and rank != SHUFFLE:
        end_round(state, seat, out)
        return
    if left == 1 and not state.uno_called[seat]:
        state.catchable[seat] = waited_seat(state)
        state.catch_open_ms[seat] = state.now_ms + state.rules.uno_grace_ms
    announce_turn(state, out)


def _check_target(state: GameState, seat: int, target: int | None) -> None:
    if target is None or not 0 <= target < state.players or target == seat:
        raise RuleError(BAD_TARGET, "choose another player as the target")


def _apply_effect(
    state: GameState,
    seat: int,
    rank: int,
    effect: str,
    prev_color: Color,
    command: Play,
    out: list[Event],
) -> None:
    went_out = not state.hands[seat]
    if rank == SKIP:
        skipped = next_seat(state, seat)
        out.append(Event(ev.SKIPPED, {"seat": skipped}))
        state.turn = next_seat(state, skipped)
    elif rank == REVERSE:
        state.direction = -state.direction
        out.append(Event(ev.REVERSED, {"direction": state.direction}))
        # E-REVERSE / E-TWO: with two players it acts as a Skip.
        state.turn = seat if state.players == 2 else next_seat(state, seat)
    elif rank == DRAW2:
        victim = next_seat(state, seat)
        draw_cards(state, victim, 2, "draw2", out)
        state.turn = next_seat(state, victim)
    elif rank == WILD4:
        victim = next_seat(state, seat)
        if went_out or state.rules.challenge == "off":  # E-LASTCARD: no challenge
            draw_cards(state, victim, 4, "wild_draw4", out)
            state.turn = next_seat(state, victim)
        else:
            state.turn = victim
            state.pending = Pending(
                CHALLENGE, victim, offender=seat, prev_color=prev_color, amount=4
            )
    elif rank == SHUFFLE:
        _shuffle_hands(state, seat, out)
        state.turn = next_seat(state, seat)
    elif effect:
        _custom_effect(state, seat, effect, command, out)
    else:
        state.turn = next_seat(state, seat)


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
    _hands_moved(state, ev.HANDS_SHUFFLED, {"seat": seat}, out)


def _hands_moved(state: GameState, kind: str, public: dict[str, object], out: list[Event]) -> None:
    """After hands change owners nobody has called UNO on their new hand and no catch stands."""
    state.uno_called = [False] * state.players
    state.catchable.clear()
    state.catch_open_ms.clear()
    private = {s: {"hand": [CARD_TEXT[c] for c in sorted(h)]} for s, h in enumerate(state.hands)}
    out.append(Event(kind, {**public, "hand_counts": [len(h) for h in state.hands]}, private))


def _custom_effect(
    state: GameState, seat: int, effect: str, command: Play, out: list[Event]
) -> None:
    """E-CUSTOM. Played as the last card it still wins: draws apply, hand moves do not."""
    went_out = not state.hands[seat]
    out.append(Event(ev.CUSTOM_EFFECT, {"seat": seat, "effect": effect}))
    nxt = next_seat(state, seat)
    state.turn = nxt
    if effect == "others_draw_1":
        for other in range(state.players):
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
        hands = state.hands
        hands[seat], hands[command.target] = hands[command.target], hands[seat]
        _hands_moved(state, ev.HANDS_SWAPPED, {"seat": seat, "target": command.target}, out)
    elif effect == "pass_hands":
        hands = state.hands
        moved: list[list[Card]] = [[] for _ in hands]
        for s in range(state.players):
            moved[next_seat(state, s)] = hands[s]
        state.hands = moved
        _hands_moved(state, ev.HANDS_PASSED, {"seat": seat}, out)


def draw(state: GameState, seat: int, out: list[Event], reason: str = "draw") -> None:
    """T-DRAW (and H-DRAW-UNTIL): a playable drawn card may be played, else the turn ends."""
    if (state.pending is not None or state.turn != seat) and check_turn(state, seat) is not None:
        raise RuleError(DECISION_PENDING, "you already drew: play that card or keep it")
    if state.catchable:
        begin_turn_action(state, seat)
    state.precall = -1
    mask = MATCHES[state.discard[-1] * 4 + state.color]
    drawn: list[Card] = []
    card = take_from_pile(state, out)
    while card is not None:
        drawn.append(card)
        if mask[card] or not state.rules.draw_until_playable:
            break
        card = take_from_pile(state, out)
    give_cards(state, seat, drawn, reason, out)
    if drawn and mask[drawn[-1]]:
        state.pending = Pending(PLAY_DRAWN, seat, card=drawn[-1])
    else:
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


def waited_seat(state: GameState) -> int:
    """The seat whose next action begins its turn (and closes U-CATCH windows)."""
    pending = state.pending
    return pending.seat if pending is not None else state.turn


def announce_turn(state: GameState, out: list[Event]) -> None:
    pending = state.pending
    if pending is None:
        out.append(Event(ev.TURN, {"seat": state.turn}))
    else:
        public = {"seat": state.turn, "pending": {"kind": pending.kind, "seat": pending.seat}}
        out.append(Event(ev.TURN, public))
