"""Who sits with whom and in which order: H-TEAMS (two teams in alternating seats),
H-SHUFFLESEATS (a new order of play each round) and H-ELIM (seats that left the match)."""

from __future__ import annotations

from typing import Final

from .errors import NOT_ALLOWED_BY_RULES, InvalidRules
from .rules import TEAM_SIZES, RuleSet
from .state import GameState
from .table import shuffle

MAX_PLAYERS: Final = 10  # S-PLAYERS


def check_players(players: int, rules: RuleSet) -> None:
    """S-PLAYERS, and the table sizes a rule needs; refused when the match starts."""
    if not 2 <= players <= MAX_PLAYERS:
        raise InvalidRules(f"S-PLAYERS: a table seats 2 to {MAX_PLAYERS} players")
    if rules.teams and players not in TEAM_SIZES:
        raise InvalidRules(
            f"H-TEAMS: two teams need 4, 6, 8 or 10 players, not {players}", NOT_ALLOWED_BY_RULES
        )


def team_of(seat: int) -> int:
    """H-TEAMS: team = seat mod 2 (at four players partners sit opposite)."""
    return seat % 2


def teams_of(players: int) -> list[list[int]]:
    return [list(range(0, players, 2)), list(range(1, players, 2))]


def partners(state: GameState, seat: int, other: int) -> bool:
    """Are ``seat`` and ``other`` two players of one team (H-TEAMS)?"""
    return state.rules.teams and seat != other and (seat - other) % 2 == 0


def new_order(state: GameState) -> list[int]:
    """H-SHUFFLESEATS: this round's order of play; under H-TEAMS the teams still alternate."""
    n = state.players
    if not state.rules.teams:
        order = list(range(n))
        shuffle(state.rng, order)
        return order
    first, second = teams_of(n)
    shuffle(state.rng, first)
    shuffle(state.rng, second)
    return [seat for pair in zip(first, second, strict=True) for seat in pair]
