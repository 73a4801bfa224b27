"""What a seat may do now: the engine's full list of commands (bots and tests use it) and
O-LEGAL's compact wire list (PROTOCOL.md ``you.legal``), which the client offers as is."""

from __future__ import annotations

from typing import Any

from .cards import CARD_RANK, CARD_TEXT, COLORS, IS_WILD, Card
from .commands import (
    Accept,
    CallUno,
    Catch,
    Challenge,
    ChooseColor,
    Command,
    Draw,
    Give,
    Keep,
    NextRound,
    Pass,
    Play,
    Slap,
    command_to_wire,
)
from .drawing import at_hand_limit, holds_playable
from .effects import custom_effect_of
from .house import exchange_waiting
from .multiplay import followers
from .rules import RuleSet
from .state import CHALLENGE, CHOOSE_COLOR, EXCHANGE, PLAY_DRAWN, PLAYING, STACK, GameState
from .table import MATCHES, active_seats
from .turns import can_jump_in, finish_barred, stack_answer
from .uno import may_call_before_play


def playable_cards(state: GameState, seat: int) -> list[Card]:
    """The cards ``seat`` may play now, one per kind: on its turn, as an answer to a pending
    draw, or as a jump-in."""
    # No comprehension in this function: CPython 3.11 would make each local that one reads a
    # cell, on every call, and this runs before every turn.
    if state.phase != PLAYING or state.slap is not None:
        return []
    hand = state.hands[seat]
    if state.pending is not None or state.turn != seat:
        return _answers_and_jump_ins(state, seat, hand)
    mask = MATCHES[state.discard[-1] * 4 + state.color]
    kinds: list[Card] = []
    for card in hand:
        if mask[card] and card not in kinds:
            kinds.append(card)
    if not state.rules.plain_play:
        kinds = _finish_allowed(state.rules, hand, kinds)
    kinds.sort()
    return kinds


def _answers_and_jump_ins(state: GameState, seat: int, hand: list[Card]) -> list[Card]:
    """Out of an ordinary turn: a drawn card, answers to a pending draw, a jump-in."""
    pending = state.pending
    rules = state.rules
    top = state.discard[-1]
    if pending is None:  # another's plain turn (three seats of four at every commit)
        if top not in hand or not can_jump_in(state, seat, top):
            return []
        return [top] if rules.plain_play else _finish_allowed(rules, hand, [top])
    cards: set[Card] = set()
    if pending.seat == seat:
        if pending.kind == PLAY_DRAWN:
            cards.add(pending.card)
        elif pending.kind == STACK:
            cards.update(c for c in hand if stack_answer(state, pending, c))
    if top in hand and can_jump_in(state, seat, top):
        cards.add(top)
    kinds = sorted(cards)
    return kinds if rules.plain_play else _finish_allowed(rules, hand, kinds)


def _finish_allowed(rules: RuleSet, hand: list[Card], cards: list[Card]) -> list[Card]:
    """H-FINISH: ``cards`` but those that may not be the hand's last card."""
    return [c for c in cards if not finish_barred(rules, hand, c)]


def _several(state: GameState, seat: int, card: Card) -> list[tuple[Card, ...]]:
    """H-MULTI: the cards that may follow ``card`` (every one of them; and a single one when
    that makes a smaller play than H-BOMB's three)."""
    if not state.rules.multi_play or state.pending is not None or state.turn != seat:
        return []
    rest = followers(state.hands[seat], card)
    if not rest:
        return []
    return [tuple(rest)] if len(rest) == 1 else [tuple(rest), (rest[0],)]


def _plays(state: GameState, seat: int) -> list[Command]:
    rules = state.rules
    others = [t for t in active_seats(state) if t != seat]
    hand = state.hands[seat]
    out: list[Command] = []
    for card in playable_cards(state, seat):
        rank = CARD_RANK[card]
        colors: tuple[int | None, ...] = (None,)
        if IS_WILD[card] and not rules.color_wheel:
            colors = COLORS
        for more in [(), *_several(state, seat, card)]:
            last = len(hand) == 1 + len(more)
            targets: list[int | None] = [None]
            if not last and (
                custom_effect_of(state, card) == "swap_hands"
                or (rank == 7 and rules.seven_zero and rules.seven_swap == "choose")
            ):
                targets = list(others)
            elif not last and rank == 5 and rules.five_exchange:
                targets = [None, *(t for t in others if state.hands[t])]
            out.extend(Play(card, c, t, False, more) for c in colors for t in targets)
    return out


def may_call_uno(state: GameState, seat: int) -> bool:
    """U-CALL, with H-UNOCALL: holding one card and not called yet; or (official calls) before
    a play that may leave one card, on one's own turn."""
    mode = state.rules.uno_call
    if mode == "off":
        return False
    hand = len(state.hands[seat])
    if hand == 1:
        return not state.uno_called[seat]
    return mode == "official" and state.precall != seat and may_call_before_play(state, seat)


def _other_commands(state: GameState, seat: int) -> list[Command]:
    """Everything but plays (and NextRound): draws, decisions, UNO calls, catches."""
    out: list[Command] = []
    pending = state.pending
    if state.slap is not None:
        if seat in state.slap.seats:
            out.append(Slap())
    elif pending is None and state.turn == seat:
        rules = state.rules
        if not rules.draw_limited:
            out.append(Draw())
        elif at_hand_limit(state, seat):
            if not holds_playable(state, seat):
                out.append(Pass())
        elif not (rules.forced_play and holds_playable(state, seat)):
            out.append(Draw())
    elif pending is not None and pending.kind == EXCHANGE:
        if seat in exchange_waiting(pending):
            out.extend(Give(c) for c in sorted(set(state.hands[seat])))
    elif pending is not None and pending.seat == seat:
        if pending.kind == PLAY_DRAWN and not state.rules.must_play_drawn:
            out.append(Keep())
        elif pending.kind in (CHALLENGE, STACK):
            out += [Challenge(), Accept()] if pending.offender >= 0 else [Accept()]
        elif pending.kind == CHOOSE_COLOR:
            out.extend(ChooseColor(c) for c in COLORS)
    if may_call_uno(state, seat):
        out.append(CallUno())
    if state.rules.catches and state.catchable and seat not in state.eliminated:
        now = state.now_ms
        out.extend(
            Catch(t)
            for t in catchable_seats(state)
            if t != seat and state.catch_open_ms.get(t, 0) <= now  # O-WINDOW grace
        )
    return out


def catchable_seats(state: GameState) -> list[int]:
    return sorted(
        s for s in state.catchable if len(state.hands[s]) == 1 and not state.uno_called[s]
    )


def legal_commands(state: GameState, seat: int) -> list[Command]:
    """Every command ``seat`` may send now with effect (chat aside), every color and target
    spelled out."""
    if state.phase != PLAYING:
        return [NextRound()] if state.match_result is None else []
    if state.slap is not None:
        return _other_commands(state, seat)
    return _plays(state, seat) + _other_commands(state, seat)


# One plain play's wire message per card, shared by every list that offers it (a room keeps
# each seat's last list, and every commit makes four): never changed once made.
_PLAY_WIRE: tuple[dict[str, Any], ...] = tuple({"type": "play", "card": text} for text in CARD_TEXT)
_CHOOSE_COLOR_WIRE: dict[str, Any] = {"type": "choose_color"}


def legal_wire(state: GameState, seat: int) -> list[dict[str, Any]]:
    """O-LEGAL: ``legal_commands`` in PROTOCOL.md's compact form. One play per card kind, with
    no ``color`` or ``target`` (the client adds them); under H-MULTI also, once, the play with
    every card that may follow it in ``more`` (any of them, in any order, may be sent);
    ``choose_color`` once, without its color. H-NOHINTS: no plays. NextRound is the host's."""
    if state.phase != PLAYING:
        return []
    out: list[dict[str, Any]] = []
    if not state.rules.no_hints:
        for card in playable_cards(state, seat):
            out.append(_PLAY_WIRE[card])
            several = _several(state, seat, card)
            if several:
                out.append({"type": "play", "card": CARD_TEXT[card],
                            "more": [CARD_TEXT[c] for c in several[0]]})
    colors = False
    for command in _other_commands(state, seat):
        if isinstance(command, ChooseColor):
            if not colors:
                out.append(_CHOOSE_COLOR_WIRE)
                colors = True
        else:
            out.append(command_to_wire(command))
    return out
