"""What a seat (or a spectator) sees: the only way state leaves the engine besides events."""

from __future__ import annotations

from typing import Any

from .cards import CARD_TEXT, COLOR_LETTERS, NO_COLOR
from .house import exchange_waiting
from .legal import catchable_seats, legal_wire
from .reveal import shown_hand
from .state import EXCHANGE, PLAY_DRAWN, PLAYING, GameState
from .table import hand_texts
from .turns import public_pending


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


def table_view(**parts: Any) -> dict[str, Any]:
    """The view's every key, each with its value before a match (a lobby), replaced by
    ``parts``: the one shape of a view, for ``view`` and ``lobby_view`` alike."""
    out: dict[str, Any] = {
        "phase": "lobby",
        "round": 0,
        "dealer": None,
        "seats": [],
        "you": None,
        "turn": None,
        "direction": 1,
        "order": [],
        "top": None,
        "color": None,
        "draw_pile": 0,
        "discard_pile": 0,
        "pending": None,
        "waiting": [],
        "catchable": [],
        "places": [],
        "silence": None,
        "jump_in": False,
        "deadline_ms": None,
        "clock_ends_ms": None,
        "clock": None,
        "last_round": None,
        "result": None,
    }
    unknown = set(parts) - set(out)
    assert not unknown, f"not a key of the view: {unknown}"
    out.update(parts)
    return out


def seat_view(seat: int, cards: int = 0, uno: bool = False, score: int = 0,
              round_wins: int = 0, out: bool = False, team: int | None = None,
              hand: list[str] | None = None, eliminated: bool = False) -> dict[str, Any]:
    return {"seat": seat, "cards": cards, "uno": uno, "score": score, "round_wins": round_wins,
            "out": out, "team": team, "hand": hand, "eliminated": eliminated}


def you_view(seat: int, hand: list[str] | None = None,
             legal: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    return {"seat": seat, "hand": hand or [], "legal": legal or []}


def lobby_view(players: int, teams: bool, viewer: int | None) -> dict[str, Any]:
    """The view before a match: the seats, nothing dealt."""
    return table_view(
        seats=[seat_view(s, team=s % 2 if teams else None) for s in range(players)],
        you=None if viewer is None else you_view(viewer),
    )


def view(state: GameState, viewer: int | None, now_ms: int | None = None) -> dict[str, Any]:
    """The table as ``viewer`` sees it: own hand only (and, H-REVEAL, the small hands shown to
    everyone); every hand once the round is over. ``you.legal``: O-LEGAL. ``clock``: H-BLITZ's
    milliseconds left, computed only when ``now_ms`` is given; ``clock_ends_ms`` says when the
    round's clock runs out (None: no clock)."""
    finished = state.last_round if state.phase != PLAYING else None
    you = None
    if viewer is not None:
        you = you_view(viewer, hand_texts(state.hands[viewer]), legal_wire(state, viewer))
    silence = None
    if state.silence_since >= 0:
        silence = {"by": state.silence_by if state.silence_by >= 0 else None}
    teams = state.rules.teams
    ends = state.clock_ends_ms
    return table_view(
        phase=state.phase,
        round=state.round_no,
        dealer=state.dealer,
        seats=[
            seat_view(s, len(state.hands[s]), state.uno_called[s], state.scores[s],
                      state.round_wins[s], state.out[s], s % 2 if teams else None,
                      shown_hand(state, s), s in state.eliminated)
            for s in range(state.players)
        ],
        you=you,
        turn=state.turn,
        direction=state.direction,
        order=list(state.order),
        top=CARD_TEXT[state.discard[-1]] if state.discard else None,
        color=COLOR_LETTERS[state.color] if state.color != NO_COLOR else None,
        draw_pile=len(state.draw_pile),
        discard_pile=len(state.discard),
        pending=pending_view(state, viewer),
        waiting=waiting_on(state),
        catchable=catchable_seats(state),
        places=list(state.places),
        silence=silence,
        jump_in=state.rules.jump_in and state.jumpable,
        deadline_ms=state.deadline_ms,
        clock_ends_ms=ends,
        clock=None if ends is None or now_ms is None else max(0, ends - now_ms),
        last_round=finished,
        result=state.match_result,
    )
