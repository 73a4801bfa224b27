"""End of a round: W-OUT, P-VALUES, P-500, P-200, H-LAZY, H-ZERO50, and the section 8b rules
that change a round's points: H-TEAMS, H-DOUBLE, H-BLITZ (shared wins), H-ELIM (who leaves)."""

from __future__ import annotations

import functools
from typing import Any, Final

from . import events as ev
from .cards import CARD_KINDS, CARD_RANK, DRAW2, Card
from .events import Event
from .rules import RuleSet
from .seating import team_of, teams_of
from .standings import match_result
from .state import MATCH_OVER, ROUND_OVER, GameState
from .table import hand_texts

BLOCKED: Final = "blocked"  # no progress was possible (``blocked``): the lowest hand won
CLOCK: Final = "clock"  # H-BLITZ: the round's clock ran out: the fewest cards won


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
    total = 0
    for card in hand:  # a loop, not a generator, which CPython resumes for every card
        total += table[card]
    return total


def round_points(rules: RuleSet, values: list[int], winners: list[int]) -> list[int]:
    """Each seat's points this round. P-500: each winner (H-TEAMS: each member of a winning
    team) scores the hands of the others (of the other team); P-200: each hand scores itself
    (H-TEAMS: each member scores the team's sum). H-DOUBLE: twice that."""
    n = len(values)
    points = [0] * n
    if rules.scoring == "winner_takes":
        if rules.teams:
            won = {team_of(w) for w in winners}
            for seat in range(n):
                if team_of(seat) in won:
                    points[seat] = sum(v for s, v in enumerate(values) if s % 2 != seat % 2)
        else:
            total = sum(values)
            for w in winners:
                points[w] = total
    elif rules.scoring == "lowest_wins":
        if rules.teams:
            sums = [sum(values[0::2]), sum(values[1::2])]
            points = [sums[team_of(s)] for s in range(n)]
        else:
            points = list(values)
    if rules.double_score:
        points = [2 * p for p in points]
    return points


def end_round(state: GameState, winners: list[int], out: list[Event], ended: str = "") -> None:
    """W-OUT: ``winners[0]`` went out, or (``ended``) won a blocked table or the clock (H-BLITZ,
    where a tie shares the win). Score the round; end the match when it is decided."""
    rules = state.rules
    n = state.players
    values = [hand_value(rules, h) for h in state.hands]
    if ended:
        for w in winners:
            values[w] = 0  # a winner of a blocked table or of the clock scores as if out
            if w not in state.places:
                state.places.append(w)
    points = round_points(rules, values, winners)
    for seat in range(n):
        state.scores[seat] += points[seat]
    for seat in _round_winners(n, winners) if rules.teams else winners:
        state.round_wins[seat] += 1
    state.rounds_played += 1
    playing = [s for s in range(n) if s not in state.eliminated] if state.eliminated else range(n)
    loser = -1  # the most points in hand; of equals, the first seat
    for seat in playing:
        if loser < 0 or values[seat] > values[loser]:
            loser = seat
    state.pending = None
    state.slap = None
    state.catchable.clear()
    state.catch_open_ms.clear()
    state.deadline_ms = None
    state.clock_ends_ms = None
    winner = winners[0]
    result: dict[str, Any] = {
        "round": state.round_no,
        "winner": winner,
        "hands": [hand_texts(h) for h in state.hands],
        "hand_points": values,
        "points": points,
        "scores": list(state.scores),
    }
    if ended:
        result[ended] = True
    if len(winners) > 1:
        result["winners"] = list(winners)
    if rules.scoring == "lazy":
        result["loser"] = loser
    if rules.play_to_last:  # H-LAST: places in the order players went out; the last loses
        rest = sorted((s for s in playing if s not in state.places), key=lambda s: values[s])
        order = state.places + rest
        result["order"] = order
        result["loser"] = order[-1]
    if rules.teams:
        result["teams"] = teams_of(n)
        result["team_scores"] = [state.scores[0], state.scores[1]]
        result["winning_teams"] = sorted({team_of(w) for w in winners})
    leaving = _leaving(state, values) if rules.elimination else None
    if rules.elimination:
        result["eliminated"] = leaving
    state.last_round = result
    out.append(Event(ev.ROUND_OVER, dict(result)))
    if leaving is not None:
        remaining = [s for s in playing if s != leaving]
        state.eliminated.append(leaving)
        out.append(Event(ev.ELIMINATED, {"seat": leaving, "remaining": remaining}))
    match = match_result(state)
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


def _round_winners(n: int, winners: list[int]) -> list[int]:
    """H-TEAMS: the seats that won the round, every member of a winning team."""
    won = {team_of(w) for w in winners}
    return [s for s in range(n) if team_of(s) in won]


def _leaving(state: GameState, values: list[int]) -> int | None:
    """H-ELIM: of the players who did not go out, the one holding the most cards (ties: most
    points in hand; still tied: nobody) leaves the match."""
    stayed = [
        s for s in range(state.players) if s not in state.places and s not in state.eliminated
    ]
    if not stayed:
        return None
    keys = {s: (len(state.hands[s]), values[s]) for s in stayed}
    most = max(keys.values())
    holders = [s for s in stayed if keys[s] == most]
    return holders[0] if len(holders) == 1 else None
