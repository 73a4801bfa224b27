"""What a seat (or a spectator) may see and may do: the only ways state leaves the engine."""

from __future__ import annotations

from typing import Any

from .cards import CARD_RANK, CARD_TEXT, COLOR_LETTERS, COLORS, IS_WILD, NO_COLOR, Card
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
    Play,
    Slap,
)
from .effects import custom_effect_of
from .house import exchange_waiting
from .state import CHALLENGE, CHOOSE_COLOR, EXCHANGE, PLAY_DRAWN, PLAYING, STACK, GameState
from .table import MATCHES, active_seats, hand_texts
from .turns import can_jump_in, public_pending, stack_answer
from .uno import on_own_turn


def waiting_on(state: GameState) -> list[int]:
    """The seats the table waits for (empty between rounds)."""
    if state.phase != PLAYING:
        return []
    if state.slap is not None:
        return list(state.slap.seats)
    pending = state.pending
    if pending is None:
        return [state.turn]
    if pending.kind == EXCHANGE:
        return exchange_waiting(pending)
    return [pending.seat]


def pending_view(state: GameState, viewer: int | None) -> dict[str, Any] | None:
    slap = state.slap
    if slap is not None:
        return {"kind": "slap", "seat": slap.seat, "waiting": list(slap.seats)}
    pending = state.pending
    if pending is None:
        return None
    out = public_pending(pending)
    if pending.kind == PLAY_DRAWN and viewer == pending.seat:
        out["card"] = CARD_TEXT[pending.card]  # the drawn card is the drawer's secret
    return out


def catchable_seats(state: GameState) -> list[int]:
    return sorted(
        s for s in state.catchable if len(state.hands[s]) == 1 and not state.uno_called[s]
    )


def view(state: GameState, viewer: int | None) -> dict[str, Any]:
    """The table as ``viewer`` sees it: own hand only; every hand once the round is over."""
    finished = state.last_round if state.phase != PLAYING else None
    you = None
    if viewer is not None:
        you = {"seat": viewer, "hand": hand_texts(state.hands[viewer])}
    silence = None
    if state.silence_since >= 0:
        silence = {"by": state.silence_by if state.silence_by >= 0 else None}
    return {
        "phase": state.phase,
        "round": state.round_no,
        "dealer": state.dealer,
        "seats": [
            {
                "seat": s,
                "cards": len(state.hands[s]),
                "uno": state.uno_called[s],
                "score": state.scores[s],
                "round_wins": state.round_wins[s],
                "out": state.out[s],
            }
            for s in range(state.players)
        ],
        "you": you,
        "turn": state.turn,
        "direction": state.direction,
        "top": CARD_TEXT[state.discard[-1]] if state.discard else None,
        "color": COLOR_LETTERS[state.color] if state.color != NO_COLOR else None,
        "draw_pile": len(state.draw_pile),
        "discard_pile": len(state.discard),
        "pending": pending_view(state, viewer),
        "waiting": waiting_on(state),
        "catchable": catchable_seats(state),
        "places": list(state.places),
        "silence": silence,
        "jump_in": state.rules.jump_in and state.jumpable,
        "deadline_ms": state.deadline_ms,
        "last_round": finished,
        "result": state.match_result,
    }


def playable_cards(state: GameState, seat: int) -> list[Card]:
    """The cards ``seat`` may play now, one per kind: on its turn, as an answer to a pending
    draw, or as a jump-in."""
    if state.phase != PLAYING or state.slap is not None:
        return []
    pending = state.pending
    hand = state.hands[seat]
    if pending is None and state.turn == seat:
        mask = MATCHES[state.discard[-1] * 4 + state.color]
        kinds: list[Card] = []
        for card in hand:
            if mask[card] and card not in kinds:
                kinds.append(card)
        kinds.sort()
        return kinds
    cards: set[Card] = set()
    if pending is not None and pending.seat == seat:
        if pending.kind == PLAY_DRAWN:
            cards.add(pending.card)
        elif pending.kind == STACK:
            cards.update(c for c in hand if stack_answer(state, pending, c))
    top = state.discard[-1]
    if top in hand and can_jump_in(state, seat, top):
        cards.add(top)
    return sorted(cards)


def _plays(state: GameState, seat: int) -> list[Command]:
    rules = state.rules
    others = [t for t in active_seats(state) if t != seat]
    out: list[Command] = []
    for card in playable_cards(state, seat):
        last = len(state.hands[seat]) == 1
        rank = CARD_RANK[card]
        targets: list[int | None] = [None]
        if not last and (
            custom_effect_of(state, card) == "swap_hands" or (rank == 7 and rules.seven_zero)
        ):
            targets = list(others)
        elif not last and rank == 5 and rules.five_exchange:
            targets = [None, *(t for t in others if state.hands[t])]
        colors: tuple[int | None, ...] = (None,)
        if IS_WILD[card] and not rules.color_wheel:
            colors = COLORS
        out.extend(Play(card, color, target) for color in colors for target in targets)
    return out


def legal_commands(state: GameState, seat: int) -> list[Command]:
    """Every command ``seat`` may send now with effect (chat aside)."""
    if state.phase != PLAYING:
        return [NextRound()] if state.match_result is None else []
    out: list[Command] = []
    if state.slap is not None:
        if seat in state.slap.seats:
            out.append(Slap())
    else:
        out.extend(_plays(state, seat))
        pending = state.pending
        if pending is None and state.turn == seat:
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
    hand = len(state.hands[seat])
    if (hand == 1 and not state.uno_called[seat]) or (
        hand == 2 and on_own_turn(state, seat) and state.precall != seat
    ):
        out.append(CallUno())
    now = state.now_ms
    out.extend(
        Catch(t)
        for t in catchable_seats(state)
        if t != seat and state.catch_open_ms.get(t, 0) <= now  # O-WINDOW grace
    )
    return out
