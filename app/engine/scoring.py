"""End of a round and of the match: W-OUT, P-VALUES, P-500, P-200, H-LAZY, H-ZERO50, ties."""

from __future__ import annotations

import functools
from typing import Any

from . import events as ev
from .cards import CARD_KINDS, CARD_RANK, DRAW2, Card
from .events import Event
from .rules import RuleSet
from .state import MATCH_OVER, ROUND_OVER, GameState
from .table import hand_texts


@functools.cache
def _points_table(special_wild_points: int) -> tuple[int, ...]:
    """P-VALUES: face value; Skip, Reverse, Draw Two 20; Wild and Wild Draw Four 50; the
    special wilds ``special_wild_points``; blank 50."""
    points: list[int] = []
    for card in range(CARD_KINDS):
        rank = CARD_RANK[card]
        if rank <= 9:
            points.append(rank)
        elif rank <= DRAW2:
            points.append(20)
        elif rank in (13, 14, 19):  # Wild, Wild Draw Four, blank
            points.append(50)
        else:
            points.append(special_wild_points)
    return tuple(points)


def card_points(rules: RuleSet) -> tuple[int, ...]:
    return _points_table(rules.special_wild_points)


def hand_value(rules: RuleSet, hand: list[Card]) -> int:
    if rules.lone_zero_50 and len(hand) == 1 and hand[0] % 13 == 0 and hand[0] < 52:
        return 50  # H-ZERO50
    table = card_points(rules)
    return sum(table[c] for c in hand)


def end_round(state: GameState, winner: int, out: list[Event], blocked: bool = False) -> None:
    """W-OUT: ``winner`` went out (or won a blocked table). Score the round; end the match when
    the target is reached."""
    rules = state.rules
    n = state.players
    values = [hand_value(rules, h) for h in state.hands]
    if blocked:
        values[winner] = 0  # the winner of a blocked table scores like one who went out
    points = [0] * n
    if rules.scoring == "winner_takes":
        points[winner] = sum(values)
    elif rules.scoring == "lowest_wins":
        points = values
    for seat in range(n):
        state.scores[seat] += points[seat]
    state.round_wins[winner] += 1
    state.rounds_played += 1
    loser = max(range(n), key=lambda s: (values[s], -s))
    state.pending = None
    state.catchable.clear()
    state.catch_open_ms.clear()
    state.deadline_ms = None
    result: dict[str, Any] = {
        "round": state.round_no,
        "winner": winner,
        "hands": [hand_texts(h) for h in state.hands],
        "hand_points": values,
        "points": points,
        "scores": list(state.scores),
    }
    if blocked:
        result["blocked"] = True
    if rules.scoring == "lazy":
        result["loser"] = loser
    if rules.play_to_last:  # H-LAST: places in the order players went out; the last loses
        rest = sorted((s for s in range(n) if s not in state.places), key=lambda s: values[s])
        order = state.places + rest
        result["order"] = order
        result["loser"] = order[-1]
    state.last_round = result
    out.append(Event(ev.ROUND_OVER, dict(result)))
    match = _match_result(state)
    if match is None:
        state.phase = ROUND_OVER
        if rules.scoring == "lazy":
            state.dealer = loser  # H-LAZY: the loser deals, the winner starts
            state.next_first = winner
        else:
            state.dealer = (state.dealer + 1) % n
        return
    state.phase = MATCH_OVER
    state.match_result = match
    out.append(Event(ev.MATCH_OVER, dict(match)))


def _places(keys: list[int]) -> list[int]:
    """1-based places, best key first; equal keys share a place (Ties)."""
    return [1 + sum(1 for other in keys if other > k) for k in keys]


def _match_result(state: GameState) -> dict[str, Any] | None:
    rules = state.rules
    scores = state.scores
    n = state.players
    if rules.scoring == "winner_takes":
        if max(scores) < rules.target:
            return None
        places = _places(scores)
        losers: list[int] = []
    elif rules.scoring == "lowest_wins":
        if max(scores) < rules.target:
            return None
        places = _places([-s for s in scores])
        losers = [s for s in range(n) if scores[s] >= rules.target]
    else:
        if state.rounds_played < rules.target:
            return None
        places = _places(state.round_wins)
        losers = []
    return {
        "winners": [s for s in range(n) if places[s] == 1],
        "losers": losers,
        "places": places,
        "scores": list(scores),
        "round_wins": list(state.round_wins),
        "rounds": state.rounds_played,
    }
