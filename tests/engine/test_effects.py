"""E-SKIP, E-REVERSE, E-DRAW2, E-WILD, E-W4, W4-LEGAL, E-SHUFFLE, E-CUSTOM, E-LASTCARD, E-TWO."""

from __future__ import annotations

from typing import Any

import pytest

from app.engine import RuleError

from .helpers import act, assert_conserved, counts, hand, rigged, seen_by

THREE = [["RS", "RR", "R+2", "W", "W+4", "R1"], ["G1", "G2", "G3"], ["B1", "B2", "B3"]]


def test_e_skip_next_player_loses_the_turn() -> None:
    game, events = rigged(THREE, "R5")
    events = act(game, 0, "play", card="RS")
    assert seen_by(events, None, "skipped")[0]["seat"] == 1
    assert game.view(None)["turn"] == 2


def test_e_reverse_flips_direction() -> None:
    game, _ = rigged(THREE, "R5")
    act(game, 0, "play", card="RR")
    view = game.view(None)
    assert view["direction"] == -1 and view["turn"] == 2


def test_e_reverse_two_reverses_cancel_out() -> None:
    game, _ = rigged([["RR", "R1"], ["G1"], ["BR", "B2"]], "R5", ["Y9"] * 1)
    act(game, 0, "play", card="RR")  # direction -1: seat 2 next
    act(game, 2, "play", card="BR") if game.view(None)["color"] == "B" else None
    act(game, 2, "draw")
    assert game.view(None)["turn"] == 1
    assert game.view(None)["direction"] == -1


def test_e_draw2_next_player_draws_two_and_loses_turn() -> None:
    game, _ = rigged(THREE, "R5")
    act(game, 0, "play", card="R+2")
    assert counts(game) == [5, 5, 3] and game.view(None)["turn"] == 2


def test_e_wild_any_color_including_the_current_one() -> None:
    for color in ("R", "Y"):
        game, _ = rigged(THREE, "R5")
        act(game, 0, "play", card="W", color=color)
        assert game.view(None)["color"] == color and game.view(None)["turn"] == 1


def test_e_w4_next_player_draws_four_and_loses_turn_on_accept() -> None:
    game, _ = rigged(THREE, "G5")
    act(game, 0, "play", card="W+4", color="B")
    assert game.view(None)["pending"] == {
        "kind": "challenge",
        "seat": 1,
        "amount": 4,
        "offender": 0,
    }
    act(game, 1, "accept")
    assert counts(game) == [5, 7, 3] and game.view(None)["turn"] == 2
    assert game.view(None)["color"] == "B"


def test_w4_legal_bluff_is_not_refused_by_the_server() -> None:
    game, _ = rigged(THREE, "R5")  # seat 0 holds red: an illegal Wild Draw Four
    act(game, 0, "play", card="W+4", color="G")
    assert game.view(None)["top"] == "W+4"


def test_e_shuffle_hands_collects_shuffles_and_deals_from_the_next_player() -> None:
    game, _ = rigged([["WS", "R1", "R2"], ["G1", "G2", "G3", "G4"], ["B1"]], "R5")
    events = act(game, 0, "play", card="WS", color="Y")
    # 7 cards dealt one at a time from seat 1: 1, 2, 0, 1, 2, 0, 1.
    assert counts(game) == [2, 3, 2]
    assert game.view(None)["turn"] == 1 and game.view(None)["color"] == "Y"
    shuffled = seen_by(events, 1, "hands_shuffled")[0]
    assert (
        shuffled["hand"] == hand(game, 1)
        and "hand" not in seen_by(events, None, "hands_shuffled")[0]
    )
    assert_conserved(game)


def test_e_shuffle_hands_as_last_card_does_not_win() -> None:
    game, _ = rigged([["WS"], ["G1", "G2", "G3"]], "R5")
    act(game, 0, "play", card="WS", color="G")
    assert game.view(None)["phase"] == "playing"
    assert counts(game) == [1, 2]


def _custom(effect: str) -> dict[str, Any]:
    menu = [{"effect": effect, "label": effect}] + [{"effect": "play_again", "label": "x"}] * 2
    return {"custom_cards": menu}


def test_e_custom_others_draw_one() -> None:
    game, _ = rigged(THREE[:1] + THREE[1:], "R5", **_custom("others_draw_1"))
    game.state.hands[0].append(55)  # WC1
    events = act(game, 0, "play", card="WC1", color="G")
    assert counts(game) == [6, 4, 4] and game.view(None)["turn"] == 1
    assert seen_by(events, None, "custom_effect")[0]["effect"] == "others_draw_1"


def test_e_custom_next_draws_three_and_loses_turn() -> None:
    game, _ = rigged([["WC1", "R1"], ["G1"], ["B1"]], "R5", **_custom("next_draws_3"))
    act(game, 0, "play", card="WC1", color="G")
    assert counts(game) == [1, 4, 1] and game.view(None)["turn"] == 2


def test_e_custom_play_again() -> None:
    game, _ = rigged([["WC1", "R1", "R2"], ["G1"], ["B1"]], "R5", **_custom("play_again"))
    act(game, 0, "play", card="WC1", color="R")
    assert game.view(None)["turn"] == 0


def test_e_custom_swap_hands_with_a_chosen_player() -> None:
    game, _ = rigged([["WC1", "R1", "R2"], ["G1"], ["B1", "B2"]], "R5", **_custom("swap_hands"))
    with pytest.raises(RuleError) as info:
        act(game, 0, "play", card="WC1", color="R")
    assert info.value.code == "bad_target"
    events = act(game, 0, "play", card="WC1", color="R", target=2)
    assert hand(game, 0) == ["B1", "B2"] and hand(game, 2) == ["R1", "R2"]
    assert seen_by(events, 1, "hands_swapped")[0].get("hand") == ["G1"]


def test_e_custom_pass_hands_in_the_direction_of_play() -> None:
    game, _ = rigged([["WC1", "R1"], ["G1"], ["B1", "B2"]], "R5", **_custom("pass_hands"))
    act(game, 0, "play", card="WC1", color="R")
    assert hand(game, 1) == ["R1"] and hand(game, 2) == ["G1"] and hand(game, 0) == ["B1", "B2"]


def test_e_custom_discard_all_cards_of_the_chosen_color() -> None:
    game, _ = rigged([["WC1", "R1", "G1", "G2"], ["G3"], ["B1"]], "R5", **_custom("discard_color"))
    act(game, 0, "play", card="WC1", color="G")
    assert hand(game, 0) == ["R1"] and game.view(None)["top"] == "WC1"
    assert_conserved(game)


def test_e_lastcard_going_out_on_draw_two_next_player_still_draws_and_it_counts() -> None:
    game, _ = rigged([["R+2"], ["G1", "G2"], ["B1"]], "R5", ["Y9", "Y8"])
    events = act(game, 0, "play", card="R+2")
    assert counts(game) == [0, 4, 1]
    over = seen_by(events, None, "round_over")[0]
    assert over["winner"] == 0 and over["points"][0] == 1 + 2 + 9 + 8 + 1


def test_e_lastcard_wild_draw_four_that_ends_the_round_cannot_be_challenged() -> None:
    game, _ = rigged([["W+4"], ["G1", "G2"]], "R5")
    act(game, 0, "play", card="W+4", color="B")
    assert game.view(None)["phase"] == "round_over" and counts(game) == [0, 6]
    with pytest.raises(RuleError):
        act(game, 1, "challenge")


@pytest.mark.parametrize("card", ["RS", "RR", "R+2"])
def test_e_two_with_two_players_skip_reverse_draw_two_give_the_player_the_next_turn(
    card: str,
) -> None:
    game, _ = rigged([[card, "R1"], ["G1", "G2"]], "R5")
    act(game, 0, "play", card=card)
    assert game.view(None)["turn"] == 0


def test_e_two_wild_draw_four_with_two_players_returns_the_turn() -> None:
    game, _ = rigged([["W+4", "R1"], ["G1", "G2"]], "G5")
    act(game, 0, "play", card="W+4", color="R")
    act(game, 1, "accept")
    assert game.view(None)["turn"] == 0 and counts(game) == [1, 6]
