"""W-OUT, P-VALUES, P-500, P-200, H-LAZY, H-ZERO50, ties, the match end and the next round."""

from __future__ import annotations

import pytest

from app.engine import RuleError

from .helpers import act, counts, rigged, seen_by


def test_w_out_playing_the_last_card_wins_the_round() -> None:
    game, _ = rigged([["R1"], ["G1", "G2"], ["B1"]], "R5")
    events = act(game, 0, "play", card="R1")
    over = seen_by(events, None, "round_over")[0]
    assert over["winner"] == 0 and game.view(None)["phase"] == "round_over"
    with pytest.raises(RuleError) as info:
        act(game, 1, "play", card="G1")
    assert info.value.code == "wrong_phase"


def test_p_values_face_value_twenty_for_actions_fifty_for_wilds() -> None:
    loser = ["R7", "GS", "BR", "Y+2", "W", "W+4", "WS", "WC1", "R0"]
    game, _ = rigged([["R1"], loser], "R5")
    events = act(game, 0, "play", card="R1")
    over = seen_by(events, None, "round_over")[0]
    assert over["hand_points"] == [0, 7 + 20 * 3 + 50 * 4 + 0]


def test_p_values_special_wild_points_option() -> None:
    game, _ = rigged([["R1"], ["WS", "WC2"]], "R5", special_wild_points=40)
    events = act(game, 0, "play", card="R1")
    assert seen_by(events, None, "round_over")[0]["hand_points"][1] == 80


def test_p500_winner_scores_every_other_hand() -> None:
    game, _ = rigged([["R1"], ["G9", "GS"], ["W"]], "R5")
    events = act(game, 0, "play", card="R1")
    over = seen_by(events, None, "round_over")[0]
    assert over["points"] == [79, 0, 0] and over["scores"] == [79, 0, 0]


def test_p500_first_to_reach_the_target_wins_the_match() -> None:
    game, _ = rigged([["R1"], ["W", "W+4"]], "R5", target=100)
    events = act(game, 0, "play", card="R1")
    result = seen_by(events, None, "match_over")[0]
    assert result["winners"] == [0] and game.view(None)["phase"] == "match_over"
    with pytest.raises(RuleError):
        act(game, 0, "next_round")


def test_p200_everyone_scores_their_own_hand() -> None:
    game, _ = rigged([["R1"], ["W", "W+4", "WS", "R9"], ["G2"]], "R5", scoring="lowest_wins")
    events = act(game, 0, "play", card="R1")
    over = seen_by(events, None, "round_over")[0]
    assert over["points"] == [0, 159, 2] and game.view(None)["phase"] == "round_over"


def test_p200_reaching_the_target_ends_the_match_that_player_loses_lowest_wins() -> None:
    game, _ = rigged([["R1"], ["W", "W+4", "WS", "R9"], ["G2"]], "R5", scoring="lowest_wins")
    game.state.scores = [30, 50, 10]  # after earlier rounds
    events = act(game, 0, "play", card="R1")
    result = seen_by(events, None, "match_over")[0]
    assert result["scores"] == [30, 209, 12]
    assert result["losers"] == [1] and result["winners"] == [2]


def test_ties_share_the_place() -> None:
    game, _ = rigged([["R1"], ["G2"], ["B2"]], "R5", scoring="lowest_wins", target=2)
    events = act(game, 0, "play", card="R1")
    result = seen_by(events, None, "match_over")[0]
    assert result["places"] == [1, 2, 2] and result["losers"] == [1, 2]


def test_h_lazy_no_totals_winner_starts_and_loser_deals_the_next_round() -> None:
    game, _ = rigged([["R1"], ["G2"], ["W"]], "R5", scoring="lazy")
    events = act(game, 0, "play", card="R1")
    over = seen_by(events, None, "round_over")[0]
    assert over["loser"] == 2 and over["scores"] == [0, 0, 0]
    act(game, 1, "next_round")
    view = game.view(None)
    assert view["dealer"] == 2 and (view["turn"] == 0 or view["pending"] is not None)


def test_h_lazy_match_lasts_target_rounds_most_round_wins_wins() -> None:
    game, _ = rigged([["R1"], ["G2"]], "R5", scoring="lazy", target=1)
    events = act(game, 0, "play", card="R1")
    assert seen_by(events, None, "match_over")[0]["winners"] == [0]


def test_h_zero50_a_lone_zero_is_worth_fifty() -> None:
    for lone, expected in ((True, 50), (False, 0)):
        game, _ = rigged([["R1"], ["G0"]], "R5", lone_zero_50=lone)
        events = act(game, 0, "play", card="R1")
        assert seen_by(events, None, "round_over")[0]["hand_points"][1] == expected


def test_next_round_deals_fresh_hands_and_keeps_scores() -> None:
    game, _ = rigged([["R1"], ["G9"]], "R5")
    act(game, 0, "play", card="R1")
    act(game, 0, "next_round")
    view = game.view(None)
    assert view["phase"] == "playing" and counts(game) == [7, 7]
    assert [s["score"] for s in view["seats"]] == [9, 0]
