"""C-WINDOW, C-OFFICIAL, C-RETURN, C-OFF and the private reveal."""

from __future__ import annotations

import pytest

from app.engine import RuleError

from .helpers import act, counts, hand, rigged, seen_by

# Seat 0 plays Wild Draw Four on a green G5. Guilty when it still holds green.
GUILTY = [["W+4", "G1", "B1"], ["Y1", "Y2"], ["R1", "R2"]]
INNOCENT = [["W+4", "R9", "B1"], ["Y1", "Y2"], ["R1", "R2"]]


def test_c_window_only_the_target_may_challenge() -> None:
    game, _ = rigged(GUILTY, "G5")
    act(game, 0, "play", card="W+4", color="B")
    for seat in (0, 2):
        with pytest.raises(RuleError) as info:
            act(game, seat, "challenge")
        assert info.value.code == "not_your_turn"


def test_c_window_the_target_answers_before_anything_else() -> None:
    game, _ = rigged(GUILTY, "G5")
    act(game, 0, "play", card="W+4", color="B")
    for message in ("draw", "play"):
        with pytest.raises(RuleError) as info:
            act(game, 1, message, **({"card": "Y1"} if message == "play" else {}))
        assert info.value.code == "decision_pending"


def test_c_official_guilty_offender_draws_four_challenger_plays_on_chosen_color() -> None:
    game, _ = rigged(GUILTY, "G5")
    act(game, 0, "play", card="W+4", color="B")
    events = act(game, 1, "challenge")
    assert seen_by(events, None, "challenged")[0]["guilty"] is True
    assert counts(game) == [6, 2, 2]
    view = game.view(None)
    assert view["turn"] == 1 and view["color"] == "B" and view["top"] == "W+4"


def test_c_official_innocent_challenger_draws_six_and_loses_turn() -> None:
    game, _ = rigged(INNOCENT, "G5")
    act(game, 0, "play", card="W+4", color="B")
    events = act(game, 1, "challenge")
    assert seen_by(events, None, "challenged")[0]["guilty"] is False
    assert counts(game) == [2, 8, 2] and game.view(None)["turn"] == 2
    assert game.view(None)["color"] == "B"


def test_c_official_holding_same_number_or_other_wilds_is_not_guilty() -> None:
    game, _ = rigged([["W+4", "W", "B5"], ["Y1", "Y2"], ["R1"]], "G5")
    act(game, 0, "play", card="W+4", color="B")
    events = act(game, 1, "challenge")
    assert seen_by(events, None, "challenged")[0]["guilty"] is False


def test_challenge_reveal_shows_the_hand_to_the_challenger_alone() -> None:
    game, _ = rigged(GUILTY, "G5")
    act(game, 0, "play", card="W+4", color="B")
    events = act(game, 1, "challenge")
    assert seen_by(events, 1, "challenged")[0]["hand"] == ["G1", "B1"]
    for viewer in (0, 2, None):
        assert "hand" not in seen_by(events, viewer, "challenged")[0]
    assert all("G1" not in str(e.for_viewer(2)) for e in events)


def test_c_return_guilty_offender_takes_the_card_back_and_play_returns_to_old_color() -> None:
    game, _ = rigged(GUILTY, "G5", challenge="return")
    act(game, 0, "play", card="W+4", color="B")
    act(game, 1, "challenge")
    assert "W+4" in hand(game, 0) and counts(game) == [7, 2, 2]
    view = game.view(None)
    assert view["top"] == "G5" and view["color"] == "G" and view["turn"] == 1


def test_c_return_innocent_challenger_draws_four_plus_two() -> None:
    game, _ = rigged(INNOCENT, "G5", challenge="return")
    act(game, 0, "play", card="W+4", color="B")
    act(game, 1, "challenge")
    assert counts(game) == [2, 8, 2] and game.view(None)["turn"] == 2


def test_c_off_no_challenge_the_next_player_draws_four_at_once() -> None:
    game, _ = rigged(GUILTY, "G5", challenge="off")
    act(game, 0, "play", card="W+4", color="B")
    assert counts(game) == [2, 6, 2] and game.view(None)["turn"] == 2
    assert game.view(None)["pending"] is None


def test_c_return_after_a_reshuffle_during_the_challenge_window_the_old_top_is_still_there() -> (
    None
):
    game, _ = rigged(
        [["W+4", "G1", "B1"], ["Y1", "Y2"], ["R1", "R2", "R3"]], "G5", challenge="return"
    )
    act(game, 0, "play", card="W+4", color="B")
    state = game.state
    state.discard = state.draw_pile[:-1] + state.discard  # nearly everything is discarded
    state.draw_pile = state.draw_pile[-1:]
    state.catchable[2] = 1
    state.hands[2] = state.hands[2][:1]  # seat 2 holds one card and never called UNO
    events = act(game, 1, "catch", target=2)
    assert "reshuffled" in [e.kind for e in events]  # the penalty draw reshuffled the pile
    act(game, 1, "challenge")
    view = game.view(None)
    assert view["top"] == "G5" and view["color"] == "G"
