"""TR-TABLES' ``round_limit``: a match ends after that many rounds, the best total winning
(P-500: the highest, P-200: the lowest), so one slow table cannot hold a tournament up."""

from __future__ import annotations

import pytest

from app.engine import InvalidRules, rules_from_dict

from .helpers import act, rigged, seen_by


def test_without_a_limit_a_round_short_of_the_target_goes_on() -> None:
    game, _ = rigged([["R1"], ["G9"], ["B2"]], "R5")
    events = act(game, 0, "play", card="R1")
    assert not seen_by(events, None, "match_over")
    assert game.view(None)["phase"] == "round_over"


def test_p500_the_limit_ends_the_match_and_the_highest_total_wins() -> None:
    game, _ = rigged([["R1"], ["G9"], ["B2"]], "R5", round_limit=1)
    events = act(game, 0, "play", card="R1")
    result = seen_by(events, None, "match_over")[0]
    assert result["winners"] == [0] and result["places"] == [1, 2, 2]
    assert result["round_limit"] == 1 and game.view(None)["phase"] == "match_over"


def test_p200_the_limit_ends_the_match_and_the_lowest_total_wins() -> None:
    game, _ = rigged([["R1"], ["G9"], ["B2"]], "R5", scoring="lowest_wins", round_limit=2)
    game.state.scores = [30, 5, 40]
    game.state.rounds_played = 1  # one round already played
    events = act(game, 0, "play", card="R1")
    result = seen_by(events, None, "match_over")[0]
    assert result["scores"] == [30, 14, 42]
    assert result["winners"] == [1] and result["places"] == [2, 1, 3]


def test_h_lazy_the_limit_cuts_the_rounds_short() -> None:
    game, _ = rigged([["R1"], ["G2"]], "R5", scoring="lazy", target=5, round_limit=1)
    events = act(game, 0, "play", card="R1")
    assert seen_by(events, None, "match_over")[0]["winners"] == [0]


def test_the_limit_is_checked_like_any_rule() -> None:
    assert rules_from_dict({}).round_limit == 0
    with pytest.raises(InvalidRules):
        rules_from_dict({"round_limit": -1})
    with pytest.raises(InvalidRules):
        rules_from_dict({"round_limit": "3"})
