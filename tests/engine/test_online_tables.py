"""Section 8b, the rules of a table: H-DOUBLE, H-ELIM, H-TEAMS, H-REVEAL, H-NOHINTS, H-BLITZ,
H-SHUFFLESEATS; and snapshots taken before section 8b existed. Each named after its rule id."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from app.engine import Game, InvalidRules, RuleError, parse_card, parse_command, preset
from app.engine.bots import choose_command
from app.engine.commands import Catch, Play, Timeout

from .helpers import act, counts, hand, rigged, seen_by

# --- H-DOUBLE --------------------------------------------------------------------------------


def test_h_double_every_rounds_points_count_twice() -> None:
    game, _ = rigged([["R1"], ["B9", "GS"]], "R5", double_score=True)
    over = seen_by(act(game, 0, "play", card="R1"), None, "round_over")[0]
    assert over["points"] == [58, 0] and over["scores"] == [58, 0]


# --- H-ELIM -----------------------------------------------------------------------------------


def test_h_elim_the_player_holding_the_most_cards_leaves_the_match() -> None:
    game, _ = rigged([["R1"], ["B1", "B2", "B3"], ["Y1", "Y2"]], "R5", elimination=True)
    events = act(game, 0, "play", card="R1")
    assert seen_by(events, None, "round_over")[0]["eliminated"] == 1
    assert seen_by(events, None, "eliminated") == [
        {"kind": "eliminated", "seat": 1, "remaining": [0, 2]}
    ]
    assert game.view(None)["seats"][1]["eliminated"] is True
    assert game.phase == "round_over"


def test_h_elim_ties_go_to_the_most_points_in_hand_then_nobody_leaves() -> None:
    game, _ = rigged([["R1"], ["B1", "B2"], ["Y9", "Y8"]], "R5", elimination=True)
    events = act(game, 0, "play", card="R1")
    assert seen_by(events, None, "round_over")[0]["eliminated"] == 2
    game, _ = rigged([["R1"], ["B1", "B2"], ["Y1", "Y2"]], "R5", elimination=True)
    events = act(game, 0, "play", card="R1")
    assert seen_by(events, None, "round_over")[0]["eliminated"] is None
    assert seen_by(events, None, "eliminated") == []


def test_h_elim_a_seat_that_left_is_dealt_nothing_and_skipped_for_the_rest_of_the_match() -> None:
    game, _ = rigged(
        [["R1"], ["B1", "B2", "B3"], ["Y1", "Y2"], ["G1", "G2"]], "R5", elimination=True
    )
    act(game, 0, "play", card="R1")
    events = act(game, 0, "next_round")
    started = seen_by(events, None, "round_started")[0]
    assert started["hand_counts"][1] == 0 and started["eliminated"] == [1]
    view = game.view(None)
    assert view["seats"][1]["out"] and view["seats"][1]["eliminated"] and view["dealer"] != 1
    state = game.state
    state.pending = None
    state.hands[0], state.turn = [parse_card("R7"), parse_card("G9")], 0
    state.discard.append(parse_card("R5"))
    state.color = 0
    act(game, 0, "play", card="R7")
    assert game.view(None)["turn"] == 2  # seat 1 is passed by
    with pytest.raises(RuleError) as info:
        game.apply(1, Catch(0))
    assert info.value.code == "not_allowed_by_rules"
    assert game.legal_wire(1) == []


def test_h_elim_the_last_player_left_wins_the_match_the_target_is_not_used() -> None:
    game, _ = rigged([["R1"], ["B1", "B2"]], "R5", elimination=True, target=10**5)
    events = act(game, 0, "play", card="R1")
    result = seen_by(events, None, "match_over")[0]
    assert result["winners"] == [0] and result["places"] == [1, 2]
    assert result["eliminated"] == [1] and game.phase == "match_over"


def test_h_elim_places_follow_the_reverse_order_of_leaving() -> None:
    game, _ = rigged([["R1"], ["B1", "B2", "B3"], ["Y1", "Y2"]], "R5", elimination=True)
    act(game, 0, "play", card="R1")  # seat 1 leaves
    act(game, 0, "next_round")
    state = game.state
    state.pending = None
    state.hands[2], state.turn = [parse_card("R3")], 2
    state.discard.append(parse_card("R5"))
    state.color = 0
    result = seen_by(act(game, 2, "play", card="R3"), None, "match_over")[0]
    assert result["winners"] == [2] and result["places"] == [2, 3, 1]
    assert result["eliminated"] == [1, 0]


# --- H-TEAMS -----------------------------------------------------------------------------------

TEAM_HANDS = [["R1"], ["B9"], ["G5", "G6"], ["Y2"]]


def test_h_teams_two_teams_need_4_6_8_or_10_players_refused_when_the_match_starts() -> None:
    for players in (2, 3, 5, 7, 9):
        with pytest.raises(InvalidRules) as info:
            Game.start(players, preset("teams"), seed=1)
        assert info.value.code == "not_allowed_by_rules"
    for players in (4, 6, 8, 10):
        game, _ = Game.start(players, preset("teams"), seed=1)
        assert [s["team"] for s in game.view(None)["seats"]] == [s % 2 for s in range(players)]


def test_h_teams_when_a_player_goes_out_their_team_scores_every_opponents_cards() -> None:
    game, _ = rigged(TEAM_HANDS, "R5", teams=True)
    over = seen_by(act(game, 0, "play", card="R1"), None, "round_over")[0]
    assert over["points"] == [11, 0, 11, 0] and over["scores"] == [11, 0, 11, 0]
    assert over["teams"] == [[0, 2], [1, 3]] and over["team_scores"] == [11, 0]
    assert over["winning_teams"] == [0] and over["winner"] == 0


def test_h_teams_p200_each_team_takes_the_sum_of_its_members_hands() -> None:
    game, _ = rigged(TEAM_HANDS, "R5", teams=True, scoring="lowest_wins")
    over = seen_by(act(game, 0, "play", card="R1"), None, "round_over")[0]
    assert over["points"] == [11, 11, 11, 11] and over["team_scores"] == [11, 11]


def test_h_teams_the_team_wins_together_every_partner_listed_with_the_teams_place() -> None:
    game, _ = rigged(TEAM_HANDS, "R5", teams=True, target=10)
    result = seen_by(act(game, 0, "play", card="R1"), None, "match_over")[0]
    assert result["winners"] == [0, 2] and result["places"] == [1, 2, 1, 2]
    assert result["losers"] == [] and result["team_scores"] == [11, 0]
    assert result["teams"] == [[0, 2], [1, 3]]


def test_h_teams_p200_the_team_that_reaches_the_target_loses_together() -> None:
    hands = [["R1"], ["B9"], ["G1"], ["Y2"]]
    game, _ = rigged(hands, "R5", teams=True, scoring="lowest_wins", target=10)
    result = seen_by(act(game, 0, "play", card="R1"), None, "match_over")[0]
    assert result["winners"] == [0, 2] and result["losers"] == [1, 3]
    assert result["places"] == [1, 2, 1, 2]


def test_h_teams_partners_do_not_see_each_others_cards() -> None:
    game, events = rigged(TEAM_HANDS, "R5", teams=True)
    seen = json.dumps(game.view(0)) + json.dumps([e.for_viewer(0) for e in events])
    assert "G5" not in seen and "G6" not in seen
    assert game.view(0)["seats"][2]["hand"] is None


def test_h_teams_bots_aim_a_seven_swap_at_an_opponent_never_at_the_partner() -> None:
    hands = [["R7", "G1", "G2"], ["B1", "B2", "B3"], ["Y1"], ["G5", "G6"]]
    game, _ = rigged(hands, "R5", teams=True, seven_zero=True)
    for seed in range(20):
        command = choose_command(game, 0, random.Random(seed))
        assert isinstance(command, Play) and command.card == parse_card("R7")
        assert command.target == 3  # the smallest hand that is not the partner's (seat 2)


def test_h_teams_bots_do_not_catch_their_partner() -> None:
    hands = [["R1", "R2"], ["B1", "B2"], ["Y1", "Y2"], ["G1", "G2"]]
    game, _ = rigged(hands, "R5", teams=True)
    act(game, 0, "play", card="R1")  # seat 0 forgot to call: partner seat 2 may catch, but won't
    assert Catch(0) in game.legal_commands(2)
    assert choose_command(game, 2, random.Random(1)) is None
    assert choose_command(game, 3, random.Random(1)) == Catch(0)  # an opponent does


# --- H-REVEAL, H-NOHINTS -------------------------------------------------------------------


def test_h_reveal_a_small_hand_is_shown_to_everyone_spectators_included() -> None:
    game, _ = rigged([["R1", "R2", "G3"], ["B1", "B2", "B3"]], "R5", reveal_below=3)
    assert game.view(None)["seats"][0]["hand"] is None
    events = act(game, 0, "play", card="R1")
    assert seen_by(events, None, "revealed") == [
        {"kind": "revealed", "seat": 0, "hand": ["R2", "G3"]}
    ]
    assert game.view(None)["seats"][0]["hand"] == ["R2", "G3"]
    assert game.view(1)["seats"][0]["hand"] == ["R2", "G3"]
    assert game.view(1)["seats"][1]["hand"] is None


def test_h_reveal_the_drawn_card_of_a_hand_that_stops_being_shown_stays_secret() -> None:
    game, _ = rigged([["G1", "G2"], ["B1", "B2", "B3"]], "R5", ["Y9"], reveal_below=3)
    assert game.view(None)["seats"][0]["hand"] == ["G1", "G2"]
    events = act(game, 0, "draw")
    public = json.dumps([e.for_viewer(None) for e in events]) + json.dumps(game.view(None))
    assert "Y9" not in public and "Y9" in json.dumps(seen_by(events, 0, "drew"))
    assert seen_by(events, None, "revealed") == [{"kind": "revealed", "seat": 0, "hand": None}]


def test_h_reveal_hands_dealt_under_the_limit_are_shown_from_the_deal() -> None:
    game, events = Game.start(2, preset("official", {"reveal_below": 8}), seed=3)
    assert [e.for_viewer(None)["seat"] for e in events if e.kind == "revealed"] == [0, 1]
    assert all(len(s["hand"]) == 7 for s in game.view(None)["seats"])


def test_h_nohints_legal_lists_no_plays_everything_else_still_listed() -> None:
    game, _ = rigged([["R1", "R2"], ["B1", "B2"]], "R5", no_hints=True)
    assert game.legal_wire(0) == [{"type": "draw"}, {"type": "uno"}]
    act(game, 0, "play", card="R1")  # the plays are still legal
    assert game.legal_wire(1) == [{"type": "draw"}, {"type": "uno"}, {"type": "catch", "target": 0}]


# --- H-BLITZ -----------------------------------------------------------------------------------


def test_h_blitz_the_room_times_out_at_the_earlier_of_the_turn_and_the_round_end() -> None:
    game, _ = rigged([["R1", "R2"], ["B1", "B2"]], "R5", blitz_seconds=60, turn_seconds=30)
    view = game.view(None)
    assert view["deadline_ms"] == 30_000 and view["clock_ends_ms"] == 60_000
    assert game.deadline_ms == 30_000
    game.apply(0, parse_command({"type": "play", "card": "R1"}), 45_000)
    assert game.view(None)["deadline_ms"] == 75_000 and game.deadline_ms == 60_000


def test_h_blitz_view_clock_is_the_time_left_when_the_room_passes_now() -> None:
    game, _ = rigged([["R1", "R2"], ["B1", "B2"]], "R5", blitz_seconds=60)
    assert game.view(None)["clock"] is None
    assert game.view(0, 10_000)["clock"] == 50_000 and game.view(None, 70_000)["clock"] == 0
    assert game.deadline_ms == 60_000  # no turn timer: the round's end alone


def test_h_blitz_when_the_clock_runs_out_the_fewest_cards_win_scored_as_if_out() -> None:
    game, _ = rigged([["R1", "R2"], ["B1"], ["Y1", "Y2", "Y3"]], "R5", blitz_seconds=60)
    with pytest.raises(RuleError) as info:
        game.apply(0, Timeout(), 59_999)
    assert info.value.code == "too_early"
    events = game.apply(0, Timeout(), 60_000)
    assert seen_by(events, None, "clock_over") == [{"kind": "clock_over", "winners": [1]}]
    over = seen_by(events, None, "round_over")[0]
    assert over["clock"] is True and over["winner"] == 1 and over["points"] == [0, 9, 0]
    assert game.deadline_ms is None and game.view(None)["clock_ends_ms"] is None


def test_h_blitz_ties_go_to_the_fewest_points_then_the_win_is_shared() -> None:
    game, _ = rigged([["R1"], ["B9"], ["Y1", "Y2"]], "R5", blitz_seconds=60)
    events = game.apply(0, Timeout(), 60_000)
    assert seen_by(events, None, "round_over")[0]["winner"] == 0
    game, _ = rigged([["R1"], ["B1"], ["Y1", "Y2"]], "R5", blitz_seconds=60)
    over = seen_by(game.apply(0, Timeout(), 60_000), None, "round_over")[0]
    assert over["winners"] == [0, 1] and over["points"] == [3, 3, 0]


def test_h_blitz_the_clock_restarts_with_each_round() -> None:
    game, _ = rigged([["R1"], ["B1", "B2"]], "R5", blitz_seconds=60)
    act(game, 0, "play", card="R1")
    game.apply(0, parse_command({"type": "next_round"}), 100_000)
    assert game.view(None)["clock_ends_ms"] == 160_000 and game.deadline_ms == 160_000


# --- H-SHUFFLESEATS ------------------------------------------------------------------------


def test_h_shuffleseats_the_order_is_shuffled_each_round_and_play_follows_it() -> None:
    orders = set()
    for seed in range(10):
        rules = preset("official", {"shuffle_seats": True, "first_card": "number_only"})
        game, _ = Game.start(5, rules, seed=seed)
        view = game.view(None)
        order = view["order"]
        orders.add(tuple(order))
        assert sorted(order) == list(range(5))
        after_dealer = order[(order.index(view["dealer"]) + 1) % 5]
        assert view["turn"] == after_dealer  # the player after the dealer in the new order
        seat = view["turn"]
        game.apply(seat, parse_command({"type": "draw"}))
        if game.view(None)["pending"] is None:
            assert game.view(None)["turn"] == order[(order.index(seat) + 1) % 5]
    assert len(orders) > 5


def test_h_shuffleseats_under_h_teams_the_teams_still_alternate() -> None:
    for seed in range(10):
        game, _ = Game.start(6, preset("teams", {"shuffle_seats": True}), seed=seed)
        order = game.view(None)["order"]
        assert [s % 2 for s in order] in ([0, 1] * 3, [1, 0] * 3)


def test_h_shuffleseats_a_new_order_each_round() -> None:
    game, _ = Game.start(6, preset("official", {"shuffle_seats": True}), seed=4)
    first = game.view(None)["order"]
    game.state.phase = "round_over"  # end the round here
    events = act(game, 0, "next_round")
    assert seen_by(events, None, "round_started")[0]["order"] == game.view(None)["order"] != first


# --- Snapshots ---------------------------------------------------------------------------------

BEFORE = Path(__file__).parent / "data" / "snapshot_before_8b.json"


def test_a_snapshot_taken_before_section_8b_restores_and_plays_on_exactly() -> None:
    """Rooms stored in databases: a mid-round H-LAST snapshot by the code before section 8b
    (one seat out), then the commands and events that followed it then."""
    recorded = json.loads(BEFORE.read_text())
    game = Game.restore(recorded["snapshot"])
    assert game.view(None)["order"] == [0, 1, 2, 3] and game.state.out[2]
    for step in recorded["steps"]:
        events = game.apply(step["seat"], parse_command(step["command"]), step["now_ms"])
        assert [e.to_dict() for e in events] == step["events"]
    view = game.view(None)
    assert {k: view[k] for k in recorded["view"] if k != "seats"} == {
        k: v for k, v in recorded["view"].items() if k != "seats"
    }


def test_a_snapshot_without_the_section_8b_fields_restores() -> None:
    game, _ = Game.start(3, preset("official", {"play_to_last": True}), seed=2)
    data = game.snapshot()
    for key in ("order", "eliminated", "clock_ends_ms", "passed_turn", "shown"):
        del data[key]
    twin = Game.restore(data)
    assert twin.snapshot() == game.snapshot()


def test_hands_counted_and_legal_for_a_whole_crazy_match() -> None:
    game, _ = Game.start(4, preset("crazy", {"turn_seconds": 0, "target": 100}), seed=5)
    rng = random.Random(5)
    for step in range(20_000):
        if game.phase == "match_over":
            break
        if game.phase == "round_over":
            act(game, 0, "next_round")
            continue
        seat = game.waiting_on()[0]
        command = choose_command(game, seat, rng)
        assert command is not None
        game.apply(seat, command, step * 1000)
    assert game.phase == "match_over" and sum(counts(game)) >= 0 and hand(game, 0) is not None


def test_h_teams_a_bot_draws_rather_than_swap_hands_with_its_partner() -> None:
    hands = [["R7", "G1", "G2"], ["B1", "B2", "B3"], ["Y1"], ["G5", "G6"]]
    game, _ = rigged(hands, "R5", teams=True, seven_zero=True, play_to_last=True)
    game.state.out[1] = game.state.out[3] = True  # only the partner is left to swap with
    game.state.simple_turns = False
    assert choose_command(game, 0, random.Random(1)) == parse_command({"type": "draw"})
