"""The end of a match: the target (P-500, P-200), the number of rounds (H-LAZY), the last
player left (H-ELIM), or ``round_limit`` rounds played (TR-TABLES: the best total wins);
places with ties shared; under H-TEAMS partners share the team's place."""

from __future__ import annotations

from typing import Any

from .seating import teams_of
from .state import GameState


def _places(keys: list[int]) -> list[int]:
    """1-based places, best key first; equal keys share a place (Ties)."""
    return [1 + sum(1 for other in keys if other > k) for k in keys]


def match_result(state: GameState) -> dict[str, Any] | None:
    """The MATCH_OVER result, or None while the match goes on. Under H-TEAMS partners hold the
    same score (each scores the team's points), so they share places, winners and losers."""
    rules = state.rules
    scores = state.scores
    n = state.players
    extra: dict[str, Any] = {}
    limited = 0 < rules.round_limit <= state.rounds_played
    if limited:
        extra["round_limit"] = rules.round_limit
    if rules.elimination:
        remaining = [s for s in range(n) if s not in state.eliminated]
        if len(remaining) > 1 and not limited:
            return None
        # The last player left first (at the round limit, those left by their totals), then
        # the others in the reverse order they left.
        best_first = -1 if rules.scoring == "winner_takes" else 1
        remaining.sort(key=lambda s: best_first * scores[s])
        ranking = remaining + state.eliminated[::-1]
        places = [0] * n
        for place, seat in enumerate(ranking, start=1):
            places[seat] = place
        losers = list(state.eliminated) if rules.scoring == "lowest_wins" else []
        extra["eliminated"] = list(state.eliminated)
    elif rules.scoring == "winner_takes":
        if max(scores) < rules.target and not limited:
            return None
        places = _places(scores)
        losers = []
    elif rules.scoring == "lowest_wins":
        if max(scores) < rules.target and not limited:
            return None
        places = _places([-s for s in scores])
        losers = [s for s in range(n) if scores[s] >= rules.target]
    else:
        if state.rounds_played < rules.target and not limited:
            return None
        places = _places(state.round_wins)
        losers = []
    if rules.teams:  # partners hold equal totals: each takes the team's place
        team_places = _places([places[0] * -1, places[1] * -1])
        places = [team_places[s % 2] for s in range(n)]
        extra["teams"] = teams_of(n)
        extra["team_scores"] = [scores[0], scores[1]]
    return {
        "winners": [s for s in range(n) if places[s] == 1],
        "losers": losers,
        "places": places,
        "scores": list(scores),
        "round_wins": list(state.round_wins),
        "rounds": state.rounds_played,
        **extra,
    }
