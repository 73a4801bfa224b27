"""T-MATCH, T-DRAW, H-DRAW-UNTIL, H-FORCE-DRAWN, T-RESHUFFLE, T-ONE; refused commands."""

from __future__ import annotations

import pytest

from app.engine import RuleError

from .helpers import act, assert_conserved, counts, hand, rigged, seen_by


def test_t_match_same_color_same_number_same_symbol_or_any_wild() -> None:
    for card in ("R9", "G5", "W", "W+4"):
        game, _ = rigged([["R9", "G5", "W", "W+4", "B1"], ["Y1", "Y2"]], "R5")
        act(game, 0, "play", card=card, color="B")
        assert game.view(None)["top"] == card
    game, _ = rigged([["RS", "GS", "B1"], ["Y1", "Y2"]], "R5")
    act(game, 0, "play", card="RS")  # E-TWO: seat 0 plays again
    act(game, 0, "play", card="GS")
    assert game.view(None)["color"] == "G"


def test_t_match_refuses_a_card_that_does_not_match() -> None:
    game, _ = rigged([["G7", "B1"], ["Y1", "Y2"]], "R5")
    before = game.snapshot()
    with pytest.raises(RuleError) as info:
        act(game, 0, "play", card="G7")
    assert info.value.code == "illegal_play"
    assert game.snapshot() == before


def test_playing_out_of_turn_is_refused_with_not_your_turn() -> None:
    game, _ = rigged([["R1", "R2"], ["R3", "R4"]], "R5")
    with pytest.raises(RuleError) as info:
        act(game, 1, "play", card="R3")
    assert info.value.code == "not_your_turn"


def test_playing_a_card_not_held_is_refused_with_not_in_hand() -> None:
    game, _ = rigged([["R1", "R2"], ["R3", "R4"]], "R5")
    with pytest.raises(RuleError) as info:
        act(game, 0, "play", card="R3")
    assert info.value.code == "not_in_hand"


def test_a_wild_needs_a_color() -> None:
    game, _ = rigged([["W", "R2"], ["R3", "R4"]], "R5")
    with pytest.raises(RuleError) as info:
        act(game, 0, "play", card="W")
    assert info.value.code == "color_required"
    assert hand(game, 0) == ["R2", "W"]


def test_t_draw_unplayable_card_ends_the_turn() -> None:
    game, _ = rigged([["R1", "R2"], ["R3", "R4"]], "R5", ["B9"])
    events = act(game, 0, "draw")
    assert hand(game, 0) == ["R1", "R2", "B9"]
    assert game.view(None)["turn"] == 1 and game.view(None)["pending"] is None
    assert seen_by(events, 0, "drew")[0]["cards"] == ["B9"]


def test_t_draw_allowed_even_when_holding_a_playable_card() -> None:
    game, _ = rigged([["R1", "R2"], ["R3", "R4"]], "R5", ["B9"])
    act(game, 0, "draw")
    assert counts(game) == [3, 2]


def test_t_draw_playable_card_may_be_played_at_once_that_card_only() -> None:
    game, _ = rigged([["R1", "G2"], ["R3", "R4"]], "R5", ["R8"])
    act(game, 0, "draw")
    view = game.view(0)
    assert view["pending"] == {"kind": "play_drawn", "seat": 0, "card": "R8"}
    assert game.view(1)["pending"] == {"kind": "play_drawn", "seat": 0}
    with pytest.raises(RuleError) as info:
        act(game, 0, "play", card="R1")
    assert info.value.code == "illegal_play"
    act(game, 0, "play", card="R8")
    assert game.view(None)["top"] == "R8" and game.view(None)["turn"] == 1


def test_t_draw_keep_the_drawn_card_ends_the_turn() -> None:
    game, _ = rigged([["R1", "G2"], ["R3", "R4"]], "R5", ["R8"])
    act(game, 0, "draw")
    act(game, 0, "keep")
    assert hand(game, 0) == ["R1", "R8", "G2"] and game.view(None)["turn"] == 1


def test_t_draw_cannot_draw_twice() -> None:
    game, _ = rigged([["R1", "G2"], ["R3", "R4"]], "R5", ["R8"])
    act(game, 0, "draw")
    with pytest.raises(RuleError) as info:
        act(game, 0, "draw")
    assert info.value.code == "decision_pending"


def test_h_draw_until_playable_draws_until_a_playable_card() -> None:
    game, _ = rigged(
        [["G1", "G2"], ["Y3", "Y4"]], "R5", ["B1", "B2", "R9", "B3"], draw_until_playable=True
    )
    act(game, 0, "draw")
    assert hand(game, 0) == ["R9", "G1", "G2", "B1", "B2"]
    assert game.view(0)["pending"] == {"kind": "play_drawn", "seat": 0, "card": "R9"}


def test_h_force_drawn_playable_drawn_card_must_be_played() -> None:
    game, _ = rigged([["G1", "G2"], ["Y3", "Y4"]], "R5", ["R9"], must_play_drawn=True)
    act(game, 0, "draw")
    with pytest.raises(RuleError) as info:
        act(game, 0, "keep")
    assert info.value.code == "illegal_play"
    act(game, 0, "play", card="R9")
    assert game.view(None)["top"] == "R9"


def test_t_one_one_card_per_turn() -> None:
    game, _ = rigged([["R1", "R2", "R3"], ["G3", "G4"]], "R5")
    act(game, 0, "play", card="R1")
    with pytest.raises(RuleError) as info:
        act(game, 0, "play", card="R2")
    assert info.value.code == "not_your_turn"


def test_t_reshuffle_discard_pile_becomes_the_draw_pile_keeping_top_and_color() -> None:
    game, _ = rigged([["R1", "W", "R3"], ["R4", "G4"]], "R5")
    state = game.state
    # Move the whole draw pile into the discard pile under the top card.
    state.discard = state.draw_pile + state.discard
    state.draw_pile = []
    act(game, 0, "play", card="W", color="B")
    events = act(game, 1, "draw")
    view = game.view(None)
    assert events[0].kind == "reshuffled"
    assert view["top"] == "W" and view["color"] == "B" and view["discard_pile"] == 1
    assert_conserved(game)


def test_t_reshuffle_happens_partway_through_a_penalty_draw() -> None:
    game, _ = rigged([["R+2", "R3"], ["G4", "G5"]], "R5", ["B1"])
    state = game.state
    state.discard = state.draw_pile[:-1] + state.discard
    state.draw_pile = state.draw_pile[-1:]
    events = act(game, 0, "play", card="R+2")
    assert counts(game)[1] == 4
    assert "reshuffled" in [e.kind for e in events]
    assert_conserved(game)


def test_t_reshuffle_with_nothing_left_to_draw_skips_the_rest_of_the_draw() -> None:
    game, _ = rigged([["R+2", "R3"], ["G4", "G5"]], "R5")
    state = game.state
    state.hands[1].extend(state.draw_pile)
    state.draw_pile = []
    before = counts(game)[1]
    events = act(game, 0, "play", card="R+2")
    drew = seen_by(events, None, "drew")[0]
    assert drew["count"] == 1 and counts(game)[1] == before + 1  # only the R5 under the +2
    assert game.view(None)["turn"] == 0
    assert_conserved(game)
