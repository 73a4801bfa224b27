"""What a seat (or a spectator) may see and may do: the only ways state leaves the engine."""

from __future__ import annotations

from typing import Any

from .cards import CARD_TEXT, COLOR_LETTERS, COLORS, IS_WILD, NO_COLOR, Card
from .commands import (
    Accept,
    CallUno,
    Catch,
    Challenge,
    ChooseColor,
    Command,
    Draw,
    Keep,
    NextRound,
    Play,
)
from .rules import CUSTOM_EFFECTS
from .state import CHALLENGE, CHOOSE_COLOR, PLAY_DRAWN, PLAYING, GameState
from .table import MATCHES, hand_texts

assert "swap_hands" in CUSTOM_EFFECTS


def waiting_on(state: GameState) -> list[int]:
    """The seats the table waits for (empty between rounds)."""
    if state.phase != PLAYING:
        return []
    pending = state.pending
    return [pending.seat if pending is not None else state.turn]


def pending_view(state: GameState, viewer: int | None) -> dict[str, Any] | None:
    pending = state.pending
    if pending is None:
        return None
    out: dict[str, Any] = {"kind": pending.kind, "seat": pending.seat}
    if pending.kind == CHALLENGE:
        out["amount"] = pending.amount
        out["offender"] = pending.offender
    elif pending.kind == PLAY_DRAWN and viewer == pending.seat:
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
                "out": False,
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
        "catchable": catchable_seats(state),
        "deadline_ms": state.deadline_ms,
        "last_round": finished,
        "result": state.match_result,
    }


def playable_cards(state: GameState, seat: int) -> list[Card]:
    pending = state.pending
    if state.phase != PLAYING:
        return []
    if pending is not None:
        if pending.kind == PLAY_DRAWN and pending.seat == seat:
            return [pending.card]
        return []
    if state.turn != seat:
        return []
    mask = MATCHES[state.discard[-1] * 4 + state.color]
    return [c for c in set(state.hands[seat]) if mask[c]]


def _plays(state: GameState, seat: int, only: int | None) -> list[Command]:
    mask = MATCHES[state.discard[-1] * 4 + state.color]
    out: list[Command] = []
    for card in sorted(set(state.hands[seat])):
        if not mask[card] or (only is not None and card != only):
            continue
        if not IS_WILD[card]:
            out.append(Play(card))
            continue
        effect = state.rules.custom_cards[card - 55].effect if 55 <= card <= 57 else ""
        targets: list[int | None] = [None]
        if effect == "swap_hands" and len(state.hands[seat]) > 1:
            targets = [t for t in range(state.players) if t != seat]
        out.extend(Play(card, color, target) for color in COLORS for target in targets)
    return out


def legal_commands(state: GameState, seat: int) -> list[Command]:
    """Every command ``seat`` may send now with effect (chat aside)."""
    if state.phase != PLAYING:
        return [NextRound()] if state.match_result is None else []
    out: list[Command] = []
    pending = state.pending
    if pending is None and state.turn == seat:
        out.extend(_plays(state, seat, None))
        out.append(Draw())
    elif pending is not None and pending.seat == seat:
        if pending.kind == PLAY_DRAWN:
            out.extend(_plays(state, seat, pending.card))
            if not state.rules.must_play_drawn:
                out.append(Keep())
        elif pending.kind == CHALLENGE:
            out += [Challenge(), Accept()]
        elif pending.kind == CHOOSE_COLOR:
            out.extend(ChooseColor(c) for c in COLORS)
    hand = len(state.hands[seat])
    on_turn = waiting_on(state) == [seat] and (pending is None or pending.kind == PLAY_DRAWN)
    if (hand == 1 and not state.uno_called[seat]) or (
        hand == 2 and on_turn and state.precall != seat
    ):
        out.append(CallUno())
    out.extend(Catch(t) for t in catchable_seats(state) if t != seat)
    return out
