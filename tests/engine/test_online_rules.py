"""Section 8b, the rules of a turn: H-SKIPDEFLECT, H-REVENGE, "Answering a draw", H-MULTI,
H-BOMB, H-FORCED, H-HANDLIMIT, H-UNOCALL, H-FINISH, H-SEVENNEXT. Each named after its rule id."""

from __future__ import annotations

import random

import pytest

from app.engine import RuleError, command_to_wire, parse_card, parse_command
from app.engine.bots import choose_command
from app.engine.commands import CallUno, Pass, Play, Timeout

from .helpers import act, assert_conserved, counts, hand, rigged, seen_by

# --- "Answering a draw", H-SKIPDEFLECT, H-REVENGE -------------------------------------------


def test_answering_a_draw_skip_deflects_alone_makes_a_draw_two_wait_for_the_victim() -> None:
    game, _ = rigged([["R+2", "G1"], ["RS", "B1"], ["Y1", "Y2"]], "R5", skip_deflects=True)
    act(game, 0, "play", card="R+2")
    assert game.view(None)["pending"] == {"kind": "stack", "seat": 1, "amount": 2, "offender": -1}
    act(game, 1, "accept")
    assert counts(game) == [1, 4, 2] and game.view(None)["turn"] == 2


def test_h_skipdeflect_a_skip_of_the_current_color_passes_the_whole_amount_on() -> None:
    hands = [["R+2", "G1"], ["Y+2", "B1", "B2"], ["YS", "Y9"], ["G7", "G8"]]
    game, _ = rigged(hands, "R5", stacking="progressive", skip_deflects=True)
    act(game, 0, "play", card="R+2")
    act(game, 1, "play", card="Y+2")
    act(game, 2, "play", card="YS")  # the next player after the deflector takes the 4 in full
    assert game.view(None)["pending"] == {"kind": "stack", "seat": 3, "amount": 4, "offender": -1}
    act(game, 3, "draw")
    assert counts(game) == [1, 2, 1, 6] and game.view(None)["turn"] == 0


def test_h_skipdeflect_a_skip_of_another_color_cannot_answer() -> None:
    game, _ = rigged([["R+2", "G1"], ["BS", "B1"], ["Y1", "Y2"]], "R5", skip_deflects=True)
    act(game, 0, "play", card="R+2")
    with pytest.raises(RuleError) as info:
        act(game, 1, "play", card="BS")
    assert info.value.code == "illegal_play"


def test_h_skipdeflect_a_deflected_wild_draw_four_cannot_be_challenged_any_more() -> None:
    game, _ = rigged([["W+4", "G1"], ["BS", "B1"], ["Y1", "Y2"]], "G5", skip_deflects=True)
    act(game, 0, "play", card="W+4", color="B")
    assert game.view(None)["pending"]["offender"] == 0
    act(game, 1, "play", card="BS")
    assert game.view(None)["pending"] == {"kind": "stack", "seat": 2, "amount": 4, "offender": -1}


def test_h_revenge_a_draw_two_on_a_draw_two_makes_six() -> None:
    hands = [["R+2", "G1"], ["Y+2", "B1"], ["Y1", "Y2"]]
    game, _ = rigged(hands, "R5", stacking="progressive", revenge=True)
    act(game, 0, "play", card="R+2")
    assert game.view(None)["pending"]["amount"] == 2  # the first draw card is no answer
    act(game, 1, "play", card="Y+2")
    assert game.view(None)["pending"]["amount"] == 6
    act(game, 2, "draw")
    assert counts(game)[2] == 8


def test_h_revenge_mixed_a_wild_draw_four_answering_a_draw_two_adds_eight() -> None:
    hands = [["R+2", "G1"], ["W+4", "B1"], ["Y1", "Y2"]]
    game, _ = rigged(hands, "R5", stacking="mixed", revenge=True)
    act(game, 0, "play", card="R+2")
    act(game, 1, "play", card="W+4", color="B")
    assert game.view(None)["pending"]["amount"] == 10


# --- H-MULTI, H-BOMB ---------------------------------------------------------------------------


def test_h_multi_two_fives_at_once_are_one_turn_and_the_last_color_is_current() -> None:
    game, _ = rigged([["R5", "G5", "B1"], ["Y1", "Y2"], ["B7", "B8"]], "R9", multi_play=True)
    events = act(game, 0, "play", card="R5", more=["G5"])
    played = seen_by(events, None, "played")
    assert played == [
        {"kind": "played", "seat": 0, "card": "R5", "more": ["G5"], "color": "G", "cards_left": 1}
    ]
    view = game.view(None)
    assert view["top"] == "G5" and view["color"] == "G" and view["turn"] == 1
    assert view["discard_pile"] == 3 and hand(game, 0) == ["B1"]
    assert_conserved(game)


def test_h_multi_the_first_card_must_be_playable_the_rest_follow_in_the_order_given() -> None:
    game, _ = rigged([["G5", "R5", "B1"], ["Y1", "Y2"]], "R9", multi_play=True)
    with pytest.raises(RuleError) as info:
        act(game, 0, "play", card="G5", more=["R5"])
    assert info.value.code == "illegal_play"
    act(game, 0, "play", card="R5", more=["G5"])
    assert game.view(None)["color"] == "G"


@pytest.mark.parametrize("more", [["R6"], ["RS"], ["W"]])
def test_h_multi_only_number_cards_of_one_number_go_together(more: list[str]) -> None:
    game, _ = rigged([["R5", "R6", "RS", "W", "B1"], ["Y1", "Y2"]], "R9", multi_play=True)
    with pytest.raises(RuleError) as info:
        act(game, 0, "play", card="R5", more=more)
    assert info.value.code == "illegal_play" and counts(game)[0] == 5


def test_h_multi_each_card_named_must_be_held_copies_counted() -> None:
    game, _ = rigged([["R5", "G5", "B1"], ["Y1", "Y2"]], "R9", multi_play=True)
    with pytest.raises(RuleError) as info:
        act(game, 0, "play", card="R5", more=["R5"])
    assert info.value.code == "not_in_hand"


def test_h_multi_off_several_cards_are_not_allowed_by_rules() -> None:
    game, _ = rigged([["R5", "G5", "B1"], ["Y1", "Y2"]], "R9")
    with pytest.raises(RuleError) as info:
        act(game, 0, "play", card="R5", more=["G5"])
    assert info.value.code == "not_allowed_by_rules"


def test_h_multi_a_seven_played_so_swaps_once() -> None:
    hands = [["R7", "G7", "B1", "B2"], ["Y1", "Y2", "Y3"], ["G1"]]
    game, _ = rigged(hands, "R9", multi_play=True, seven_zero=True)
    events = act(game, 0, "play", card="R7", more=["G7"], target=2)
    assert len(seen_by(events, None, "hands_swapped")) == 1
    assert hand(game, 0) == ["G1"] and hand(game, 2) == ["B1", "B2"]


def test_h_multi_a_zero_played_so_passes_the_hands_once() -> None:
    hands = [["R0", "G0", "B1"], ["Y1", "Y2", "Y3"], ["G1", "G2"]]
    game, _ = rigged(hands, "R9", multi_play=True, seven_zero=True)
    events = act(game, 0, "play", card="R0", more=["G0"])
    assert len(seen_by(events, None, "hands_passed")) == 1
    assert hand(game, 1) == ["B1"] and hand(game, 0) == ["G1", "G2"]


def test_h_multi_uno_looks_at_the_hand_after_the_whole_play() -> None:
    hands = [["R5", "G5", "Y5", "B1"], ["Y1", "Y2"], ["B7", "B8"]]
    game, _ = rigged(hands, "R9", multi_play=True)
    act(game, 0, "play", card="R5", more=["G5", "Y5"])  # one card left, no call: catchable
    assert game.view(None)["catchable"] == [0]
    act(game, 2, "catch", target=0)
    assert counts(game)[0] == 3


def test_h_multi_a_call_with_the_play_counts_for_the_hand_left() -> None:
    hands = [["R5", "G5", "B1"], ["Y1", "Y2"], ["B7", "B8"]]
    game, _ = rigged(hands, "R9", multi_play=True)
    act(game, 0, "uno")  # three cards, but one play may leave one: a call before it counts
    act(game, 0, "play", card="R5", more=["G5"])
    assert game.view(None)["seats"][0]["uno"] is True and game.view(None)["catchable"] == []


def test_h_multi_no_multi_card_jump_ins() -> None:
    hands = [["R5", "G1"], ["Y1", "Y2"], ["R5", "G5", "B9"]]
    game, _ = rigged(hands, "R9", multi_play=True, jump_in=True)
    act(game, 0, "play", card="R5")
    with pytest.raises(RuleError) as info:
        act(game, 2, "play", card="R5", more=["G5"])
    assert info.value.code == "not_your_turn"
    act(game, 2, "play", card="R5")  # one card jumps in as usual


def test_h_multi_wire_more_round_trips_and_a_single_play_is_written_as_before() -> None:
    message = {"type": "play", "card": "R5", "more": ["G5", "B5"]}
    assert command_to_wire(parse_command(message)) == message
    assert command_to_wire(Play(parse_card("R5"))) == {"type": "play", "card": "R5"}
    assert parse_command({"type": "play", "card": "R5"}) == Play(parse_card("R5"))


def test_h_bomb_three_cards_at_once_make_every_other_player_draw_one() -> None:
    hands = [["R5", "G5", "Y5", "B1"], ["Y1", "Y2"], ["B7", "B8"]]
    game, _ = rigged(hands, "R9", multi_play=True, bomb=True)
    events = act(game, 0, "play", card="R5", more=["G5", "Y5"], uno=True)
    assert seen_by(events, None, "bomb") == [{"kind": "bomb", "seat": 0, "count": 3}]
    assert counts(game) == [1, 3, 3] and game.view(None)["turn"] == 1  # it costs nobody a turn
    assert_conserved(game)


def test_h_bomb_two_cards_are_no_bomb() -> None:
    game, _ = rigged([["R5", "G5", "B1"], ["Y1", "Y2"]], "R9", multi_play=True, bomb=True)
    events = act(game, 0, "play", card="R5", more=["G5"])
    assert seen_by(events, None, "bomb") == [] and counts(game) == [1, 2]


def test_h_bomb_as_the_last_cards_the_draws_still_happen_and_count() -> None:
    hands = [["R5", "G5", "Y5"], ["Y1", "Y2"], ["B7", "B8"]]
    game, _ = rigged(hands, "R9", ["G9", "B9"], multi_play=True, bomb=True)
    events = act(game, 0, "play", card="R5", more=["G5", "Y5"])
    over = seen_by(events, None, "round_over")[0]
    assert [len(h) for h in over["hands"]] == [0, 3, 3] and over["points"][0] == 9 + 9 + 3 + 15


# --- H-FORCED, H-HANDLIMIT -------------------------------------------------------------------


def test_h_forced_drawing_while_holding_a_playable_card_is_refused_must_play() -> None:
    game, _ = rigged([["R1", "G2"], ["B1", "B2"]], "R5", ["Y9"], forced_play=True)
    with pytest.raises(RuleError) as info:
        act(game, 0, "draw")
    assert info.value.code == "must_play"
    assert {"type": "draw"} not in game.legal_wire(0)


def test_h_forced_with_nothing_playable_the_player_draws() -> None:
    game, _ = rigged([["G1", "G2"], ["B1", "B2"]], "R5", ["Y9"], forced_play=True)
    act(game, 0, "draw")
    assert counts(game) == [3, 2]


def test_h_forced_taking_a_stack_or_accepting_a_wild_draw_four_is_no_choice() -> None:
    game, _ = rigged(
        [["R+2", "G1"], ["B+2", "B1"], ["Y1"]], "R5", stacking="progressive", forced_play=True
    )
    act(game, 0, "play", card="R+2")
    act(game, 1, "draw")  # holding B+2, which could answer: taking the stack stays allowed
    assert counts(game)[1] == 4
    game, _ = rigged([["W+4", "G1"], ["B1", "R2"], ["Y1"]], "G5", forced_play=True)
    act(game, 0, "play", card="W+4", color="B")
    act(game, 1, "accept")
    assert counts(game)[1] == 6


def test_h_forced_a_turn_that_runs_out_still_draws() -> None:
    game, _ = rigged([["R1", "G2"], ["B1", "B2"]], "R5", ["Y9"], forced_play=True, turn_seconds=5)
    game.apply(0, Timeout(), 5000)
    assert counts(game) == [3, 2]


def test_h_handlimit_at_the_limit_with_nothing_playable_the_player_passes() -> None:
    game, _ = rigged([["G1", "G2", "G3"], ["B1", "R2"]], "R5", ["Y9"], hand_limit=3)
    assert game.legal_wire(0) == [{"type": "pass"}]
    with pytest.raises(RuleError) as info:
        act(game, 0, "draw")
    assert info.value.code == "not_allowed_by_rules"
    events = act(game, 0, "pass")
    assert seen_by(events, None, "passed") == [{"kind": "passed", "seat": 0}]
    assert counts(game) == [3, 2] and game.view(None)["turn"] == 1


def test_h_handlimit_at_the_limit_a_playable_card_must_be_played() -> None:
    game, _ = rigged([["R1", "G2", "G3"], ["B1", "R2"]], "R5", ["Y9"], hand_limit=3)
    for message in ("draw", "pass"):
        with pytest.raises(RuleError) as info:
            act(game, 0, message)
        assert info.value.code == "must_play"


def test_h_handlimit_below_the_limit_the_player_draws_and_may_not_pass() -> None:
    game, _ = rigged([["G1", "G2"], ["B1", "R2"]], "R5", ["Y9"], hand_limit=3)
    with pytest.raises(RuleError) as info:
        act(game, 0, "pass")
    assert info.value.code == "not_allowed_by_rules"
    act(game, 0, "draw")
    assert counts(game) == [3, 2]


def test_h_handlimit_off_a_pass_is_not_allowed_by_rules() -> None:
    game, _ = rigged([["G1", "G2"], ["B1", "R2"]], "R5")
    with pytest.raises(RuleError) as info:
        game.apply(0, Pass())
    assert info.value.code == "not_allowed_by_rules"


def test_h_handlimit_penalty_draws_are_drawn_in_full() -> None:
    game, _ = rigged([["R+2", "G1"], ["B1", "B2", "B3"], ["Y1"]], "R5", hand_limit=3)
    act(game, 0, "play", card="R+2")
    assert counts(game) == [1, 5, 1]


def test_h_handlimit_a_turn_that_runs_out_at_the_limit_passes() -> None:
    game, _ = rigged([["R1", "G2", "G3"], ["B1", "R2"]], "R5", hand_limit=3, turn_seconds=5)
    events = game.apply(0, Timeout(), 5000)
    assert [e.kind for e in events] == ["timed_out", "passed", "turn"]
    assert counts(game) == [3, 2]


def test_h_handlimit_drawing_until_playable_stops_at_the_limit() -> None:
    game, _ = rigged(
        [["G1"], ["B1", "R2"]], "R5", ["Y1", "Y2", "Y3"], hand_limit=3, draw_until_playable=True
    )
    act(game, 0, "draw")
    assert hand(game, 0) == ["Y1", "Y2", "G1"] and game.view(None)["turn"] == 1


def test_h_handlimit_a_table_where_everyone_passes_ends_as_blocked() -> None:
    game, _ = rigged([["G1", "G2"], ["B1", "B2"]], "R5", hand_limit=2)
    events = []
    for _ in range(6):
        if game.phase == "playing":
            events += act(game, game.view(None)["turn"], "pass")
    assert game.phase == "round_over" and "blocked" in [e.kind for e in events]


# --- H-UNOCALL -----------------------------------------------------------------------------


def test_h_unocall_strict_a_call_with_the_play_is_not_allowed() -> None:
    game, _ = rigged([["R1", "R2"], ["B1", "B2"], ["Y1", "Y2"]], "R5", uno_call="strict")
    with pytest.raises(RuleError) as info:
        act(game, 0, "play", card="R1", uno=True)
    assert info.value.code == "not_allowed_by_rules"
    with pytest.raises(RuleError) as info:
        act(game, 0, "uno")  # two cards: a call before the play does not count either
    assert info.value.code == "not_allowed_by_rules"


def test_h_unocall_strict_catchable_from_the_play_until_the_call() -> None:
    game, _ = rigged([["R1", "R2"], ["B1", "B2"], ["Y1", "Y2"]], "R5", uno_call="strict")
    act(game, 0, "play", card="R1")
    assert game.view(None)["catchable"] == [0]
    act(game, 0, "uno")
    assert game.view(None)["catchable"] == [] and game.view(None)["seats"][0]["uno"] is True
    with pytest.raises(RuleError):
        act(game, 1, "catch", target=0)


def test_h_unocall_strict_a_player_caught_before_calling_draws() -> None:
    game, _ = rigged([["R1", "R2"], ["B1", "B2"], ["Y1", "Y2"]], "R5", uno_call="strict")
    act(game, 0, "play", card="R1")
    act(game, 2, "catch", target=0)
    assert counts(game)[0] == 3


def test_h_unocall_off_no_calls_no_catches_nobody_is_ever_catchable() -> None:
    game, _ = rigged([["R1", "R2"], ["B1", "B2"], ["Y1", "Y2"]], "R5", uno_call="off")
    with pytest.raises(RuleError) as info:
        act(game, 0, "play", card="R1", uno=True)
    assert info.value.code == "not_allowed_by_rules"
    act(game, 0, "play", card="R1")
    assert game.view(None)["catchable"] == []
    for seat, message, fields in ((0, "uno", {}), (1, "catch", {"target": 0})):
        with pytest.raises(RuleError) as info:
            act(game, seat, message, **fields)
        assert info.value.code == "not_allowed_by_rules"
    assert {"type": "uno"} not in game.legal_wire(0)


# --- H-FINISH ------------------------------------------------------------------------------


@pytest.mark.parametrize("last", ["W", "W+4", "WS", "WC1"])
def test_h_finish_no_wild_finish_a_lone_wild_is_not_playable_the_player_draws(last: str) -> None:
    game, _ = rigged([[last], ["B1", "B2"]], "R5", ["R9"], no_wild_finish=True)
    with pytest.raises(RuleError) as info:
        act(game, 0, "play", card=last, color="G")
    assert info.value.code == "illegal_play"
    assert game.legal_wire(0) == [{"type": "draw"}, {"type": "uno"}]  # no play listed
    act(game, 0, "draw")
    act(game, 0, "play", card="R9")
    assert hand(game, 0) == [last]


@pytest.mark.parametrize("last", ["R+2", "W+4"])
def test_h_finish_no_draw_finish_a_lone_draw_card_is_not_playable(last: str) -> None:
    game, _ = rigged([[last], ["B1", "B2"]], "R5", no_draw_finish=True)
    with pytest.raises(RuleError) as info:
        act(game, 0, "play", card=last, color="G")
    assert info.value.code == "illegal_play"


def test_h_finish_a_wild_before_the_last_card_is_fine() -> None:
    game, _ = rigged([["W", "R1"], ["B1", "B2"]], "R5", no_wild_finish=True, no_draw_finish=True)
    act(game, 0, "play", card="W", color="R")
    assert hand(game, 0) == ["R1"]


def test_h_finish_a_lone_draw_two_cannot_answer_a_stack_either() -> None:
    game, _ = rigged(
        [["R+2", "G1"], ["B+2"], ["Y1", "Y2"]], "R5", stacking="progressive", no_draw_finish=True
    )
    act(game, 0, "play", card="R+2")
    with pytest.raises(RuleError) as info:
        act(game, 1, "play", card="B+2")
    assert info.value.code == "illegal_play"
    legal = game.legal_wire(1)
    assert legal == [{"type": "accept"}, {"type": "uno"}, {"type": "catch", "target": 0}]


def test_h_finish_with_h_misplay_a_barred_last_card_costs_cards() -> None:
    game, _ = rigged([["W"], ["B1", "B2"]], "R5", no_wild_finish=True, misplay_penalty=2)
    events = act(game, 0, "play", card="W", color="G")
    assert seen_by(events, None, "misplay")[0]["card"] == "W" and counts(game)[0] == 3


# --- H-SEVENNEXT ----------------------------------------------------------------------------


def test_h_sevennext_a_seven_always_swaps_with_the_next_player() -> None:
    hands = [["R7", "G1"], ["B1", "B2", "B3"], ["Y1"]]
    game, _ = rigged(hands, "R5", seven_zero=True, seven_swap="next")
    act(game, 0, "play", card="R7", target=2)  # a target is not asked for, and not used
    assert hand(game, 0) == ["B1", "B2", "B3"] and hand(game, 1) == ["G1"]
    assert hand(game, 2) == ["Y1"]


def test_h_sevennext_follows_the_direction_of_play() -> None:
    hands = [["RR", "R7", "G1"], ["B1", "B2", "B3"], ["Y1", "Y2"], ["G5", "G6"]]
    game, _ = rigged(hands, "R5", ["B9", "B8", "B7"], seven_zero=True, seven_swap="next")
    act(game, 0, "play", card="RR")  # counterclockwise now: seat 3 is next
    for seat in (3, 2, 1):
        act(game, seat, "draw")
    act(game, 0, "play", card="R7")
    assert hand(game, 0) == ["G5", "G6", "B9"] and hand(game, 3) == ["G1"]


def test_h_unocall_strict_a_bot_calls_right_after_the_play_never_with_it() -> None:
    game, _ = rigged([["R1", "R2"], ["B1", "B2"], ["Y1", "R9"]], "R5", uno_call="strict")
    rng = random.Random(1)
    command = choose_command(game, 0, rng)
    assert isinstance(command, Play) and not command.uno
    game.apply(0, command)
    act(game, 1, "draw")  # whatever seat 1 does, seat 0's own call comes before its catches
    assert choose_command(game, 0, rng) == CallUno()
