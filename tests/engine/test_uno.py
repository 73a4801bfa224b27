"""U-CALL, U-CATCH, U-FALSE, O-WINDOW, and public card counts."""

from __future__ import annotations

from typing import Any

import pytest

from app.engine import Game, RuleError, parse_card
from app.engine.commands import Catch, Play, Timeout

from .helpers import act, counts, rigged, seen_by

HANDS = [["R1", "R2", "G9"], ["R3", "G3", "B3"], ["R4", "G4", "Y4"]]


def _two_left(**rules: Any) -> Game:
    game, _ = rigged(HANDS, "R5", ["B7", "B8", "B9", "Y7", "Y8"], **rules)
    act(game, 0, "play", card="R1")  # seat 0 now holds R2, G9
    act(game, 1, "play", card="R3")
    act(game, 2, "play", card="R4")
    return game


def test_u_call_with_the_play_is_safe() -> None:
    game = _two_left()
    events = act(game, 0, "play", card="R2", uno=True)
    assert seen_by(events, None, "uno_called") == [{"kind": "uno_called", "seat": 0}]
    assert game.view(None)["seats"][0]["uno"] is True
    assert game.view(None)["catchable"] == []
    with pytest.raises(RuleError) as info:
        act(game, 1, "catch", target=0)
    assert info.value.code == "not_catchable"


def test_u_call_just_before_the_play_holding_two_cards_counts() -> None:
    game = _two_left()
    act(game, 0, "uno")
    act(game, 0, "play", card="R2")
    assert game.view(None)["seats"][0]["uno"] is True and game.view(None)["catchable"] == []


def test_u_call_right_after_the_play_before_anyone_catches_is_safe() -> None:
    game = _two_left()
    act(game, 0, "play", card="R2")
    assert game.view(None)["catchable"] == [0]
    act(game, 0, "uno")
    assert game.view(None)["catchable"] == []
    with pytest.raises(RuleError):
        act(game, 2, "catch", target=0)
    assert counts(game)[0] == 1


def test_u_call_with_three_cards_is_refused() -> None:
    game, _ = rigged(HANDS, "R5")
    with pytest.raises(RuleError) as info:
        act(game, 0, "uno")
    assert info.value.code == "nothing_to_do"


def test_u_catch_any_other_player_catches_a_silent_last_card_and_it_costs_two() -> None:
    game = _two_left()
    act(game, 0, "play", card="R2")
    events = act(game, 2, "catch", target=0)  # not the next player: anyone seated may catch
    assert seen_by(events, None, "caught")[0] == {"kind": "caught", "seat": 0, "by": 2}
    assert counts(game)[0] == 3 and game.view(None)["catchable"] == []


def test_u_catch_calling_after_being_caught_does_not_help() -> None:
    game = _two_left()
    act(game, 0, "play", card="R2")
    act(game, 1, "catch", target=0)
    with pytest.raises(RuleError):
        act(game, 0, "uno")  # holds 3 cards now
    assert counts(game)[0] == 3


def test_u_catch_window_closes_when_the_next_player_acts() -> None:
    game = _two_left()
    act(game, 0, "play", card="R2")
    act(game, 1, "draw")
    assert game.view(None)["catchable"] == []
    with pytest.raises(RuleError) as info:
        act(game, 2, "catch", target=0)
    assert info.value.code == "not_catchable"
    assert counts(game)[0] == 1


def test_u_catch_uno_penalty_option_four_cards() -> None:
    game = _two_left(uno_penalty=4)
    act(game, 0, "play", card="R2")
    act(game, 1, "catch", target=0)
    assert counts(game)[0] == 5


def test_u_false_catch_is_refused_by_default_and_changes_nothing() -> None:
    game = _two_left()
    before = game.snapshot()
    with pytest.raises(RuleError) as info:
        act(game, 1, "catch", target=2)
    assert info.value.code == "not_catchable"
    assert game.snapshot() == before


def test_u_false_catch_penalty_costs_the_catcher() -> None:
    game = _two_left(false_catch_penalty=2)
    events = act(game, 1, "catch", target=2)
    assert seen_by(events, None, "false_catch")[0]["seat"] == 1
    assert counts(game)[1] == 4


def test_catching_yourself_is_refused() -> None:
    game = _two_left()
    with pytest.raises(RuleError) as info:
        act(game, 0, "catch", target=0)
    assert info.value.code == "bad_target"


def test_o_window_grace_refuses_an_early_catch_without_penalty() -> None:
    game = _two_left(uno_grace_ms=500)
    game.apply(0, Play(parse_card("R2")), now_ms=10_000)
    with pytest.raises(RuleError) as info:
        game.apply(1, Catch(0), 10_200)
    assert info.value.code == "too_early"
    assert counts(game)[0] == 1
    game.apply(1, Catch(0), 10_600)
    assert counts(game)[0] == 3


def test_o_window_the_end_of_the_grace_is_a_timer_that_lists_the_catch() -> None:
    """O-LEGAL: when the grace ends with nobody acting, the room's timer announces it, and the
    event's legal lists now hold the catch (before, no frame told anyone it was open)."""
    game = _two_left(uno_grace_ms=500, turn_seconds=0)
    game.apply(0, Play(parse_card("R2")), now_ms=10_000)
    assert game.deadline_ms == 10_500
    assert {"type": "catch", "target": 0} not in game.legal_wire(1)
    with pytest.raises(RuleError) as info:
        game.apply(0, Timeout(), 10_400)
    assert info.value.code == "too_early"
    events = game.apply(0, Timeout(), 10_500)
    assert [e.for_viewer(None) for e in events] == [{"kind": "catch_open", "seat": 0}]
    assert {"type": "catch", "target": 0} in game.legal_wire(1)
    assert {"type": "catch", "target": 0} in game.legal_wire(2)
    assert game.deadline_ms is None  # announced once


def test_o_window_the_grace_timer_comes_before_the_turn_timer() -> None:
    game = _two_left(uno_grace_ms=500, turn_seconds=30)
    game.apply(0, Play(parse_card("R2")), now_ms=10_000)
    assert game.deadline_ms == 10_500
    game.apply(0, Timeout(), 10_500)
    assert game.deadline_ms == 40_000  # then the turn's own deadline
    assert game.view(None)["turn"] == 1  # nobody was timed out by the grace


def test_o_window_without_a_grace_no_timer_runs_for_catches() -> None:
    game = _two_left(uno_grace_ms=0, turn_seconds=0)
    game.apply(0, Play(parse_card("R2")), now_ms=10_000)
    assert game.deadline_ms is None
    assert {"type": "catch", "target": 0} in game.legal_wire(1)


def test_card_counts_are_public_to_everyone() -> None:
    game = _two_left()
    for viewer in (0, 1, 2, None):
        assert [s["cards"] for s in game.view(viewer)["seats"]] == [2, 2, 2]


def test_u_call_answering_a_stack_holding_two_cards_a_call_before_the_play_counts() -> None:
    """RULES.md "U-CALL, answering": answering a pending stack is the player's own turn."""
    game, _ = rigged([["R+2", "G1"], ["B+2", "B9"], ["Y1", "Y2"]], "R5", stacking="progressive")
    act(game, 0, "play", card="R+2")
    act(game, 1, "uno")  # holding two cards, before answering the stack
    act(game, 1, "play", card="B+2")
    view = game.view(None)
    assert view["seats"][1]["uno"] is True and view["catchable"] == []
    with pytest.raises(RuleError) as info:
        act(game, 0, "catch", target=1)
    assert info.value.code == "not_catchable"


def test_u_call_choosing_a_first_wilds_color_holding_two_cards_a_call_before_the_play_counts() -> (
    None
):
    game, _ = rigged([["G1", "G2"], ["B1", "B2"]], "W")
    act(game, 0, "uno")  # the color is still to be chosen: it is this player's turn already
    act(game, 0, "choose_color", color="G")
    act(game, 0, "play", card="G1")
    assert game.view(None)["seats"][0]["uno"] is True and game.view(None)["catchable"] == []
