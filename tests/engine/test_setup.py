"""S-PLAYERS, S-DEALER, S-DEAL, S-FIRST, S-FIRST-NUMBER, S-START."""

from __future__ import annotations

import pytest

from app.engine import Game, InvalidRules, preset

from .helpers import act, counts, kinds, rigged

OTHERS = ["R1", "R2", "R3", "Y1", "Y2", "Y3", "G1"]


def test_s_players_two_to_ten_seats() -> None:
    for n in (2, 10):
        game, _ = Game.start(n, preset("official"), seed=3)
        assert len(counts(game)) == n
    for n in (1, 11):
        with pytest.raises(InvalidRules, match="2 to 10"):
            Game.start(n, preset("official"), seed=3)


def test_s_deal_seven_cards_each_and_hand_size_option() -> None:
    game, events = Game.start(4, preset("official"), seed=5)
    assert counts(game) == [7, 7, 7, 7]
    assert kinds(events)[:2] == ["round_started", "first_card"]
    game, _ = Game.start(3, preset("official", {"hand_size": 6}), seed=5)
    assert counts(game) == [6, 6, 6]


def test_s_dealer_random_first_dealer_then_passes_clockwise() -> None:
    dealers = {Game.start(4, preset("official"), seed=s)[0].view(None)["dealer"] for s in range(40)}
    assert dealers == {0, 1, 2, 3}
    game, _ = rigged([["R1"], ["G3", "G4"], ["B5", "B6"]], "R5", dealer=2)
    act(game, 0, "play", card="R1")
    assert game.view(None)["phase"] == "round_over"
    act(game, 0, "next_round")
    view = game.view(None)
    assert view["round"] == 2 and view["dealer"] == 0 and view["turn"] == 1
    assert counts(game) == [7, 7, 7]


def test_s_start_player_left_of_dealer_plays_first() -> None:
    game, _ = rigged([OTHERS, OTHERS, OTHERS], "B5", dealer=0)
    assert game.view(None)["turn"] == 1


def test_s_first_wild_draw_four_is_returned_and_a_new_card_turned() -> None:
    game, events = rigged([OTHERS, OTHERS], "W+4", ["G7"])
    first = next(e for e in events if e.kind == "first_card")
    assert first.public["returned"] == ["W+4"]
    assert game.view(None)["top"] != "W+4"


def test_s_first_wild_left_of_dealer_chooses_color_then_plays() -> None:
    game, _ = rigged([OTHERS, OTHERS, OTHERS], "W")
    view = game.view(None)
    assert view["pending"] == {"kind": "choose_color", "seat": 0}
    assert view["color"] is None
    act(game, 0, "choose_color", color="G")
    view = game.view(None)
    assert view["color"] == "G" and view["turn"] == 0 and view["pending"] is None
    act(game, 0, "play", card="G1")
    assert game.view(None)["top"] == "G1"


@pytest.mark.parametrize("special", ["WS", "WC1"])
def test_s_first_shuffle_or_customizable_acts_as_plain_wild(special: str) -> None:
    game, _ = rigged([OTHERS, OTHERS], special)
    assert counts(game) == [7, 7]
    assert game.view(None)["pending"] == {"kind": "choose_color", "seat": 0}


def test_s_first_draw_two_left_of_dealer_draws_two_and_loses_turn() -> None:
    game, _ = rigged([OTHERS, OTHERS, OTHERS], "G+2")
    assert counts(game) == [9, 7, 7]
    assert game.view(None)["turn"] == 1


def test_s_first_skip_left_of_dealer_is_skipped() -> None:
    game, _ = rigged([OTHERS, OTHERS, OTHERS], "GS")
    assert game.view(None)["turn"] == 1


def test_s_first_reverse_dealer_plays_first_counterclockwise() -> None:
    game, _ = rigged([OTHERS, OTHERS, OTHERS], "GR")
    view = game.view(None)
    assert view["turn"] == 2 and view["direction"] == -1
    act(game, 2, "play", card="G1")
    assert game.view(None)["turn"] == 1


def test_s_first_number_turns_cards_until_a_number_with_no_effect() -> None:
    game, events = rigged(
        [OTHERS, OTHERS], "W+4", ["GS", "Y+2", "W", "B9"], first_card="number_only"
    )
    view = game.view(None)
    assert view["top"][-1].isdigit()
    first = next(e for e in events if e.kind == "first_card")
    assert first.public["returned"][0] == "W+4" and first.public["effect"] == "none"
    assert view["turn"] == 0 and view["pending"] is None and counts(game) == [7, 7]
