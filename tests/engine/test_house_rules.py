"""Section 8 house rules, each named after its rule id."""

from __future__ import annotations

import pytest

from app.engine import RuleError, parse_card
from app.engine.commands import Play, Timeout
from app.engine.events import Event

from .helpers import act, assert_conserved, counts, hand, rigged, seen_by

# --- H-JUMPIN ---------------------------------------------------------------------------


def test_h_jumpin_identical_card_out_of_turn_play_continues_from_the_jumper() -> None:
    game, _ = rigged([["R7", "G1"], ["B1", "B2"], ["Y1", "Y2"], ["R7", "G9"]], "R5", jump_in=True)
    act(game, 0, "play", card="R7")
    events = act(game, 3, "play", card="R7")
    assert [e.kind for e in events][:2] == ["jumped_in", "played"]
    assert game.view(None)["turn"] == 0 and counts(game) == [1, 2, 2, 1]


def test_h_jumpin_a_card_that_is_not_identical_is_refused() -> None:
    game, _ = rigged([["R7", "G1"], ["B1", "B2"], ["Y1", "Y2"], ["G7", "R8"]], "R5", jump_in=True)
    act(game, 0, "play", card="R7")
    for card in ("G7", "R8"):
        with pytest.raises(RuleError) as info:
            act(game, 3, "play", card=card)
        assert info.value.code == "not_your_turn"


def test_h_jumpin_never_on_the_first_discard() -> None:
    game, _ = rigged([["G1", "G2"], ["R5", "B2"]], "R5", jump_in=True)
    with pytest.raises(RuleError) as info:
        act(game, 1, "play", card="R5")
    assert info.value.code == "not_your_turn"


def test_h_jumpin_a_wild_on_a_wild_but_never_wild_draw_four() -> None:
    game, _ = rigged([["W", "W+4", "G1"], ["B1", "B2"], ["W", "W+4", "Y1"]], "R5", jump_in=True)
    act(game, 0, "play", card="W", color="G")
    act(game, 2, "play", card="W", color="Y")
    assert game.view(None)["color"] == "Y" and game.view(None)["turn"] == 0
    act(game, 0, "play", card="W+4", color="B")
    with pytest.raises(RuleError):
        act(game, 2, "play", card="W+4", color="R")


def test_h_jumpin_on_a_skip_the_skipped_player_saves_themselves() -> None:
    game, _ = rigged([["RS", "G1"], ["RS", "B2"], ["Y1", "Y2"]], "R5", jump_in=True)
    act(game, 0, "play", card="RS")  # seat 1 skipped: seat 2's turn
    act(game, 1, "play", card="RS")  # seat 1 jumps in: the Skip now passes seat 2 by
    assert game.view(None)["turn"] == 0 and counts(game) == [1, 1, 2]


def test_h_jumpin_on_a_draw_two_passes_the_effect_on_from_the_jumper() -> None:
    game, _ = rigged([["R+2", "G1"], ["B1", "B2"], ["R+2", "Y2"]], "R5", jump_in=True)
    act(game, 0, "play", card="R+2")  # seat 1 draws 2
    act(game, 2, "play", card="R+2")  # seat 0, after the jumper, draws 2
    assert counts(game) == [3, 4, 1] and game.view(None)["turn"] == 1


def test_h_jumpin_two_reverses_cancel() -> None:
    game, _ = rigged([["RR", "G1"], ["B1", "B2"], ["Y1", "Y2"], ["RR", "B9"]], "R5", jump_in=True)
    act(game, 0, "play", card="RR")
    act(game, 3, "play", card="RR")
    view = game.view(None)
    assert view["direction"] == 1 and view["turn"] == 0


def test_h_jumpin_twin_on_your_own_card_is_a_second_command_others_may_beat() -> None:
    game, _ = rigged([["G7", "G7", "R1"], ["B7", "B2"], ["Y1", "Y2"]], "G5", jump_in=True)
    act(game, 0, "play", card="G7")
    act(game, 0, "play", card="G7")  # the twin, out of turn
    assert counts(game)[0] == 1 and game.view(None)["turn"] == 1


def test_h_jumpin_race_the_second_play_on_the_same_card_is_too_late() -> None:
    hands = [["G7", "R1"], ["G9", "B2"], ["Y1", "Y2"], ["G7", "Y3"]]
    game, _ = rigged(hands, "G5", jump_in=True)
    act(game, 0, "play", card="G7")
    act(game, 1, "play", card="G9")  # seat 1's play reached the table before seat 3's jump-in
    with pytest.raises(RuleError) as info:
        act(game, 3, "play", card="G7")
    assert info.value.code == "too_late"
    assert counts(game) == [1, 1, 2, 2]


def test_h_jumpin_while_another_player_may_play_a_drawn_card() -> None:
    game, _ = rigged([["G7", "R1"], ["B1", "B2"], ["G7", "Y2"]], "G5", ["G2"], jump_in=True)
    act(game, 0, "play", card="G7")
    act(game, 1, "draw")  # seat 1 may play the G2 it drew
    act(game, 2, "play", card="G7")
    assert "G2" in hand(game, 1) and game.view(None)["turn"] == 0
    assert game.view(None)["pending"] is None


# --- H-STACK, H-DEFLECT, H-REVDEFLECT ---------------------------------------------------------

STACKERS = [["R+2", "W+4", "G1"], ["Y+2", "W+4", "B1"], ["B+2", "Y9", "Y8"]]


def test_h_stack_progressive_draw_twos_add_up_and_the_first_who_cannot_draws_all() -> None:
    game, _ = rigged(STACKERS, "R5", stacking="progressive")
    act(game, 0, "play", card="R+2")
    assert game.view(None)["pending"] == {"kind": "stack", "seat": 1, "amount": 2, "offender": -1}
    act(game, 1, "play", card="Y+2")
    act(game, 2, "play", card="B+2")
    assert game.view(None)["pending"]["amount"] == 6
    with pytest.raises(RuleError) as info:
        act(game, 0, "play", card="W+4", color="R")  # not on a Draw Two in progressive
    assert info.value.code == "illegal_play"
    act(game, 0, "draw")
    assert counts(game) == [8, 2, 2] and game.view(None)["turn"] == 1


def test_h_stack_progressive_wild_draw_fours_add_up_last_player_chooses_color() -> None:
    game, _ = rigged(STACKERS, "G5", stacking="progressive")
    act(game, 0, "play", card="W+4", color="B")
    act(game, 1, "play", card="W+4", color="Y")
    assert game.view(None)["color"] == "Y" and game.view(None)["pending"]["amount"] == 8
    act(game, 2, "accept")
    assert counts(game) == [2, 2, 11]


def test_h_stack_mixed_a_wild_draw_four_on_a_draw_two() -> None:
    game, _ = rigged(STACKERS, "R5", stacking="mixed")
    act(game, 0, "play", card="R+2")
    act(game, 1, "play", card="W+4", color="B")
    act(game, 2, "play", card="B+2")
    assert game.view(None)["pending"]["amount"] == 8


def test_h_stack_challenge_of_a_stacked_wild_draw_four_carries_the_whole_stack() -> None:
    game, _ = rigged(
        [["W+4", "G1", "G2"], ["W+4", "R1", "R2"], ["B1", "B2"]], "G5", stacking="progressive"
    )
    act(game, 0, "play", card="W+4", color="R")
    act(game, 1, "play", card="W+4", color="B")  # seat 1 held red: a bluff
    events = act(game, 2, "challenge")
    assert seen_by(events, None, "challenged")[0]["guilty"] is True
    assert counts(game) == [2, 10, 2] and game.view(None)["turn"] == 2


def test_h_deflect_draw_two_any_color_the_amount_does_not_add_up() -> None:
    game, _ = rigged(STACKERS, "R5", stacking="deflect")
    act(game, 0, "play", card="R+2")
    act(game, 1, "play", card="Y+2")
    act(game, 2, "play", card="B+2")
    act(game, 0, "draw")
    assert counts(game)[0] == 4


def test_h_deflect_wild_draw_four_answered_only_by_a_draw_two_of_the_new_color() -> None:
    game, _ = rigged([["W+4", "G1"], ["Y+2", "B+2", "B1"], ["B9", "Y8"]], "G5", stacking="deflect")
    act(game, 0, "play", card="W+4", color="B")
    with pytest.raises(RuleError):
        act(game, 1, "play", card="Y+2")
    act(game, 1, "play", card="B+2")
    assert game.view(None)["pending"] == {"kind": "stack", "seat": 2, "amount": 2, "offender": -1}


def test_h_deflect_a_skip_is_escaped_only_by_jumping_in_with_an_identical_skip() -> None:
    game, _ = rigged(
        [["RS", "G1"], ["RS", "BS"], ["Y1", "Y2"]], "R5", stacking="deflect", jump_in=True
    )
    act(game, 0, "play", card="RS")
    with pytest.raises(RuleError):
        act(game, 1, "play", card="BS")
    act(game, 1, "play", card="RS")
    assert game.view(None)["turn"] == 0


def test_h_revdeflect_a_reverse_of_the_current_color_sends_the_draw_back() -> None:
    game, _ = rigged([["R+2", "RR", "G1"], ["RR", "B1"], ["Y1", "Y2"]], "R5", reverse_deflects=True)
    act(game, 0, "play", card="R+2")
    act(game, 1, "play", card="RR")
    assert game.view(None)["pending"]["seat"] == 0
    act(game, 0, "play", card="RR")  # and back again
    assert game.view(None)["pending"]["seat"] == 1
    act(game, 1, "draw")
    assert counts(game) == [1, 3, 2]


# --- H-SEVENO, H-FIVE ----------------------------------------------------------------------


def test_h_seveno_a_seven_swaps_hands_with_a_chosen_player() -> None:
    game, _ = rigged([["R7", "G1"], ["B1", "B2", "B3"], ["Y1"]], "R5", seven_zero=True)
    with pytest.raises(RuleError) as info:
        act(game, 0, "play", card="R7")
    assert info.value.code == "bad_target"
    act(game, 0, "play", card="R7", target=1)
    assert hand(game, 0) == ["B1", "B2", "B3"] and hand(game, 1) == ["G1"]


def test_h_seveno_a_zero_passes_every_hand_in_the_direction_of_play() -> None:
    game, _ = rigged([["R0", "G1"], ["B1", "B2"], ["Y1", "Y2", "Y3"]], "R5", seven_zero=True)
    events = act(game, 0, "play", card="R0")
    assert hand(game, 1) == ["G1"] and hand(game, 2) == ["B1", "B2"]
    assert hand(game, 0) == ["Y1", "Y2", "Y3"]
    assert seen_by(events, 0, "hands_passed")[0]["hand"] == ["Y1", "Y2", "Y3"]
    assert "hand" not in seen_by(events, None, "hands_passed")[0]


def test_h_five_both_sides_choose_the_card_they_give() -> None:
    game, _ = rigged([["R5", "G1", "G2"], ["B1", "B2"], ["Y1"]], "R9", five_exchange=True)
    act(game, 0, "play", card="R5", target=1)
    view = game.view(None)
    assert view["pending"] == {"kind": "exchange", "seat": 0, "target": 1, "waiting": [0, 1]}
    with pytest.raises(RuleError):
        act(game, 1, "play", card="B1")
    events = act(game, 1, "give", card="B2")
    assert seen_by(events, 0, "gave")[0] == {"kind": "gave", "seat": 1}
    events = act(game, 0, "give", card="G1")
    assert hand(game, 0) == ["G2", "B2"] and hand(game, 1) == ["G1", "B1"]
    assert seen_by(events, 1, "exchanged")[0]["received"] == "G1"
    assert "received" not in seen_by(events, 2, "exchanged")[0]
    assert game.view(None)["turn"] == 1 and game.view(None)["pending"] is None


def test_h_five_on_timeout_the_server_picks_for_the_slow_side() -> None:
    game, _ = rigged([["R5", "G1"], ["B1", "B2"]], "R9", five_exchange=True, turn_seconds=10)
    game.apply(0, Play(parse_card("R5"), target=1), 1000)
    act(game, 0, "give", card="G1")
    assert game.deadline_ms is not None
    game.apply(1, Timeout(), game.deadline_ms)
    assert "G1" in hand(game, 1) and len(hand(game, 0)) == 1 and hand(game, 0)[0] in ("B1", "B2")


def test_h_five_is_optional() -> None:
    game, _ = rigged([["R5", "G1"], ["B1", "B2"]], "R9", five_exchange=True)
    act(game, 0, "play", card="R5")
    assert game.view(None)["pending"] is None and game.view(None)["turn"] == 1


# --- H-SILENT ------------------------------------------------------------------------------


def test_h_silent_twos_chat_costs_two_cards_and_ends_the_silence() -> None:
    game, _ = rigged([["R2", "G1"], ["B1", "B2"], ["Y1", "Y2"]], "R5", silent="twos")
    events = act(game, 0, "play", card="R2")
    assert seen_by(events, None, "silence")[0]["active"] is True
    assert game.view(None)["silence"] == {"by": 0}
    events = act(game, 2, "chat", text="oops")
    assert counts(game) == [1, 2, 4] and game.view(None)["silence"] is None
    act(game, 1, "chat", text="free again")
    assert counts(game)[1] == 2


def test_h_silent_twos_ends_when_the_turn_comes_back_to_that_player() -> None:
    game, _ = rigged([["R2", "R1", "G1"], ["R3", "B2"], ["R4", "Y2"]], "R5", silent="twos")
    act(game, 0, "play", card="R2")
    act(game, 1, "play", card="R3")
    assert game.view(None)["silence"] is not None
    act(game, 2, "play", card="R4")
    assert game.view(None)["silence"] is None


def test_h_silent_uno_calls_catches_and_challenges_never_break_it() -> None:
    hands = [["R2", "R1"], ["W+4", "B2", "B3"], ["Y1", "Y2"], ["G1", "G2"]]
    game, _ = rigged(hands, "R5", silent="twos")
    act(game, 0, "play", card="R2")
    act(game, 1, "catch", target=0)
    act(game, 1, "play", card="W+4", color="G")
    act(game, 2, "challenge")
    assert game.view(None)["silence"] is not None


def test_h_silent_wilds_until_the_color_changes() -> None:
    game, _ = rigged([["W", "G1"], ["G2", "B1"], ["B2", "Y2"]], "R5", silent="wilds")
    act(game, 0, "play", card="W", color="G")
    assert game.view(None)["silence"] == {"by": None}
    act(game, 1, "play", card="G2")
    assert game.view(None)["silence"] is not None
    act(game, 2, "play", card="B2")
    assert game.view(None)["silence"] is None


# --- U-CENTER --------------------------------------------------------------------------


def test_u_center_everyone_else_slaps_the_last_one_draws_two() -> None:
    game, _ = rigged([["R1", "R2"], ["B1", "B2"], ["Y1", "Y2"]], "R5", uno_slap=True)
    events = act(game, 0, "play", card="R1", uno=True)
    assert seen_by(events, None, "slap_started")[0]["waiting"] == [1, 2]
    assert game.view(None)["pending"] == {"kind": "slap", "seat": 0, "waiting": [1, 2]}
    with pytest.raises(RuleError) as info:
        act(game, 1, "play", card="B1")
    assert info.value.code == "decision_pending"
    act(game, 2, "slap")
    events = act(game, 1, "slap")
    assert seen_by(events, None, "slap_over")[0]["losers"] == [1]
    assert counts(game) == [1, 4, 2] and game.view(None)["turn"] == 1


def test_u_center_anyone_who_does_not_slap_in_time_draws_two() -> None:
    game, _ = rigged([["R1", "R2"], ["B1", "B2"], ["Y1", "Y2"]], "R5", uno_slap=True)
    game.apply(0, Play(parse_card("R1"), uno=True), 500)
    assert game.deadline_ms == 3500
    act(game, 2, "slap")
    game.apply(0, Timeout(), 3500)
    assert counts(game) == [1, 4, 2]


# --- H-COLORWHEEL, H-PLUS10 ------------------------------------------------------------------


def test_h_colorwheel_the_next_color_on_the_wheel_clockwise_and_back() -> None:
    game, _ = rigged([["W", "W", "G1"], ["RR", "B2"], ["Y1"]], "R5", color_wheel=True)
    act(game, 0, "play", card="W")
    assert game.view(None)["color"] == "B"  # red > blue
    game, _ = rigged([["RR", "W"], ["W", "B2"], ["Y1", "Y2"]], "R5", color_wheel=True)
    act(game, 0, "play", card="RR")  # counterclockwise now
    act(game, 2, "draw")
    act(game, 1, "play", card="W")
    assert game.view(None)["color"] == "Y"  # red > yellow counterclockwise


def test_h_plus10_a_blank_card_makes_the_next_player_draw_ten() -> None:
    game, _ = rigged([["WB", "G1"], ["B1"], ["Y1"]], "R5", deck="classic_blank", blank_plus10=True)
    act(game, 0, "play", card="WB", color="G")
    assert counts(game) == [1, 11, 1] and game.view(None)["turn"] == 2


# --- H-LAST, H-SEVEN-ROUNDS, H-MISPLAY --------------------------------------------------------


def test_h_last_the_round_goes_on_until_one_player_is_left() -> None:
    game, _ = rigged([["R1"], ["R2", "G3"], ["R3", "G2"]], "R5", play_to_last=True)
    events = act(game, 0, "play", card="R1")
    assert seen_by(events, None, "went_out")[0] == {"kind": "went_out", "seat": 0, "place": 1}
    assert game.view(None)["phase"] == "playing" and game.view(None)["seats"][0]["out"] is True
    act(game, 1, "play", card="R2")
    act(game, 2, "play", card="R3")
    events = act(game, 1, "play", card="G3")
    over = seen_by(events, None, "round_over")[0]
    assert over["order"] == [0, 1, 2] and over["loser"] == 2 and over["winner"] == 0


def test_h_seven_rounds_an_emptied_hand_draws_six_then_five() -> None:
    game, _ = rigged([["R1"], ["G2", "G3"]], "R5", shrinking_hands=True)
    events = act(game, 0, "play", card="R1")
    assert seen_by(events, None, "refilled")[0]["count"] == 6
    assert counts(game)[0] == 6 and game.view(None)["phase"] == "playing"
    game.state.hands[0] = [1]  # empty it again: R1
    game.state.turn = 0
    game.state.discard.append(5)
    act(game, 0, "play", card="R1")
    assert counts(game)[0] == 5


def test_h_seven_rounds_going_out_holding_a_single_dealt_card_wins() -> None:
    game, _ = rigged([["R1"], ["G2", "G3"]], "R5", shrinking_hands=True)
    game.state.refills[0] = 6  # refilled 6, 5, 4, 3, 2 and 1 cards already
    act(game, 0, "play", card="R1")
    assert game.view(None)["phase"] == "round_over"


def test_h_misplay_an_illegal_play_attempt_costs_cards() -> None:
    game, _ = rigged([["G7", "R1"], ["B1"]], "R5", misplay_penalty=2)
    events = act(game, 0, "play", card="G7")
    assert seen_by(events, None, "misplay")[0]["card"] == "G7"
    assert counts(game)[0] == 4 and game.view(None)["turn"] == 0
    assert_conserved(game)


# --- Interactions (docs/rules.md) --------------------------------------------------------------


def test_interaction_slap_while_a_challenge_is_pending_resolves_first() -> None:
    hands = [["W+4", "G1"], ["B1", "B2"], ["Y1", "Y2"]]
    game, _ = rigged(hands, "G5", uno_slap=True)
    act(game, 0, "play", card="W+4", color="B", uno=True)  # a bluff with the UNO call
    assert game.view(None)["pending"]["kind"] == "slap"
    with pytest.raises(RuleError) as info:
        act(game, 1, "challenge")
    assert info.value.code == "decision_pending"
    act(game, 1, "slap")
    act(game, 2, "slap")
    assert counts(game) == [1, 2, 4]
    assert game.view(None)["pending"]["kind"] == "challenge"
    act(game, 1, "challenge")
    assert counts(game) == [5, 2, 4]


def test_interaction_jump_in_is_refused_during_an_exchange() -> None:
    hands = [["R5", "G1"], ["B1", "B2"], ["R5", "Y2"]]
    game, _ = rigged(hands, "R9", five_exchange=True, jump_in=True)
    act(game, 0, "play", card="R5", target=1)
    with pytest.raises(RuleError):
        act(game, 2, "play", card="R5")


def test_interaction_going_out_on_a_stacked_draw_under_h_last_leaves_the_stack_owed() -> None:
    hands = [["R+2"], ["B1", "B2"], ["Y1", "Y2"]]
    game, _ = rigged(hands, "R5", stacking="progressive", play_to_last=True)
    act(game, 0, "play", card="R+2")
    view = game.view(None)
    assert view["seats"][0]["out"] and view["pending"]["kind"] == "stack"
    act(game, 1, "draw")
    assert counts(game) == [0, 4, 2] and game.view(None)["turn"] == 2


def test_interaction_a_misplay_during_a_stack_costs_cards_and_the_stack_is_still_owed() -> None:
    hands = [["R+2", "G1"], ["B7", "B2"], ["Y1", "Y2"]]
    game, _ = rigged(hands, "R5", stacking="progressive", misplay_penalty=1)
    act(game, 0, "play", card="R+2")
    act(game, 1, "play", card="B7")
    assert counts(game)[1] == 3 and game.view(None)["pending"]["seat"] == 1


def test_blocked_table_a_position_that_comes_back_a_third_time_ends_the_round() -> None:
    game, _ = rigged(
        [["Y1", "G1"], ["Y2", "G9"]], "R5", draw_until_playable=True, must_play_drawn=True
    )
    state = game.state
    state.draw_pile, state.discard = [], [parse_card("BR"), parse_card("RR")]
    events: list[Event] = []
    for reverse in ["BR", "RR", "BR", "RR", "BR", "RR"]:
        for message, fields in (("draw", {}), ("play", {"card": reverse})):
            if game.phase == "playing":  # draw the other Reverse: it must be played
                events += act(game, 0, message, **fields)
    kinds = [e.kind for e in events]
    assert "blocked" in kinds
    over = seen_by(events, None, "round_over")[0]
    assert over["blocked"] is True and over["winner"] == 0
    assert over["points"] == [11, 0]  # the lowest hand wins and scores the other hand
