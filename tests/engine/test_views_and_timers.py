"""O-HIDDEN views, snapshots that rebuild the exact game, and O-TIMER through Timeout."""

from __future__ import annotations

import json
import random

import pytest

from app.engine import Game, RuleError, preset
from app.engine.commands import Timeout
from app.engine.randomness import GameRandom

from .helpers import act, cmd, counts, hand, rigged, seen_by


def test_o_hidden_a_player_sees_only_their_own_hand() -> None:
    game, _ = rigged([["R1", "G7"], ["B2", "Y3"]], "R5")
    you = game.view(0)["you"]
    assert you["seat"] == 0 and you["hand"] == ["R1", "G7"]
    assert "B2" not in json.dumps(game.view(0)) and "G7" not in json.dumps(game.view(1))


def test_o_hidden_a_spectator_sees_no_hand_at_all() -> None:
    game, events = rigged([["R1", "G7"], ["B2", "Y3"]], "R5")
    assert game.view(None)["you"] is None
    text = json.dumps([e.for_viewer(None) for e in events]) + json.dumps(game.view(None))
    assert not any(card in text for card in ("R1", "G7", "B2", "Y3"))


def test_o_hidden_a_drawn_card_goes_to_the_drawer_only() -> None:
    game, _ = rigged([["R1", "G7"], ["B2", "Y3"]], "R5", ["B9"])
    events = act(game, 0, "draw")
    assert seen_by(events, 0, "drew")[0]["cards"] == ["B9"]
    assert "cards" not in seen_by(events, 1, "drew")[0]
    assert seen_by(events, 1, "drew")[0]["count"] == 1


def test_o_hidden_a_finished_rounds_hands_are_public() -> None:
    game, _ = rigged([["R1"], ["B2", "Y3"]], "R5")
    act(game, 0, "play", card="R1")
    last = game.view(None)["last_round"]
    assert last["hands"] == [[], ["Y3", "B2"]]


def test_snapshot_rebuilds_the_exact_game_rng_included() -> None:
    game, _ = Game.start(4, preset("official"), seed=11)
    rng = random.Random(5)
    for _ in range(30):
        seat = game.waiting_on()[0]
        game.apply(seat, rng.choice(game.legal_commands(seat)))
    data = json.loads(json.dumps(game.snapshot()))
    twin = Game.restore(data)
    assert twin.snapshot() == game.snapshot()
    rng_a, rng_b = random.Random(9), random.Random(9)
    for _ in range(200):
        if game.phase != "playing":
            break
        seat = game.waiting_on()[0]
        a = game.apply(seat, rng_a.choice(game.legal_commands(seat)))
        b = twin.apply(seat, rng_b.choice(twin.legal_commands(seat)))
        assert [e.to_dict() for e in a] == [e.to_dict() for e in b]
    assert twin.snapshot() == game.snapshot()


def test_a_snapshot_holds_the_seed_and_still_reads_a_generators_state_stored_before() -> None:
    game, _ = Game.start(4, preset("official"), seed=11)
    data = json.loads(json.dumps(game.snapshot()))
    assert data["rng"] == {"seed": "11", "words": game.state.rng.words}
    version, internal, gauss = game.state.rng.generator(0).getstate()  # as it stands
    game.state.rng.release()
    packed = GameRandom.kept(game.state.rng.generator(0)).to_json()
    game.state.rng.release()
    for stored in ([version, list(internal), gauss], packed):  # as snapshots held it before
        older = {**data, "rng": stored}
        assert {**Game.restore(older).snapshot(), "rng": None} == {**game.snapshot(), "rng": None}
        draws = [[restored.state.rng.choice(range(1000)) for _ in range(5)]
                 for restored in (Game.restore(older), Game.restore(data))]
        assert draws[0] == draws[1]


def test_o_timer_a_turn_that_runs_out_draws_and_keeps() -> None:
    game, _ = rigged([["R1", "G2"], ["B2", "Y3"]], "R5", ["R9"], turn_seconds=30)
    assert game.deadline_ms == 30_000
    with pytest.raises(RuleError) as info:
        game.apply(0, Timeout(), now_ms=29_999)
    assert info.value.code == "too_early"
    events = game.apply(0, Timeout(), now_ms=30_000)
    assert [e.kind for e in events][:2] == ["timed_out", "drew"]
    assert hand(game, 0) == ["R1", "R9", "G2"] and game.view(None)["turn"] == 1
    assert game.deadline_ms == 60_000


def test_o_timer_with_h_force_drawn_a_turn_that_runs_out_draws_and_plays_the_card() -> None:
    game, _ = rigged(
        [["G1", "G2"], ["B2", "Y3"]], "R5", ["R9"], turn_seconds=30, must_play_drawn=True
    )
    events = game.apply(0, Timeout(), now_ms=30_000)
    assert [e.kind for e in events] == ["timed_out", "drew", "turn", "played", "turn"]
    view = game.view(None)
    assert view["top"] == "R9" and view["pending"] is None and view["turn"] == 1
    assert hand(game, 0) == ["G1", "G2"] and game.deadline_ms == 60_000


def test_o_timer_a_drawn_card_waiting_to_be_played_is_played_on_timeout() -> None:
    game, _ = rigged(
        [["G1", "G2"], ["B2", "Y3"]], "R5", ["R9"], turn_seconds=30, must_play_drawn=True
    )
    act(game, 0, "draw")
    events = game.apply(0, Timeout(), now_ms=30_000)
    assert [e.kind for e in events] == ["timed_out", "played", "turn"]
    assert game.view(None)["top"] == "R9" and game.view(None)["turn"] == 1


def test_o_timer_a_pending_challenge_is_accepted_on_timeout() -> None:
    game, _ = rigged([["W+4", "R1"], ["B2", "Y3"], ["G1"]], "G5", turn_seconds=10)
    act(game, 0, "play", card="W+4", color="B")
    game.apply(1, Timeout(), now_ms=10_000)
    assert counts(game) == [1, 6, 1] and game.view(None)["turn"] == 2


def test_o_timer_a_first_wild_gets_a_random_color_on_timeout() -> None:
    game, _ = rigged([["R1"], ["B2"]], "W", turn_seconds=5)
    game.apply(0, Timeout(), now_ms=5_000)
    view = game.view(None)
    assert view["color"] in {"R", "Y", "G", "B"} and view["pending"] is None


def test_o_timer_off_means_no_deadline() -> None:
    game, _ = rigged([["R1"], ["B2"]], "R5", turn_seconds=0)
    assert game.deadline_ms is None
    with pytest.raises(RuleError) as info:
        game.apply(0, Timeout(), now_ms=10**9)
    assert info.value.code == "nothing_to_do"


def test_chat_is_public_and_changes_nothing_else() -> None:
    game, _ = rigged([["R1"], ["B2"]], "R5")
    before = game.snapshot()
    events = act(game, 1, "chat", text="  hello <b>there</b> ")
    assert seen_by(events, None, "chat")[0]["text"] == "hello <b>there</b>"
    assert game.snapshot() == before


def test_o_timer_the_timeout_event_says_timed_out_and_what_was_waited() -> None:
    game, _ = rigged([["R1", "G2"], ["B2", "Y3"]], "R5", ["B9"], turn_seconds=30)
    events = game.apply(0, Timeout(), now_ms=30_000)
    assert events[0].for_viewer(1) == {"kind": "timed_out", "seat": 0, "waited": "turn"}


def test_o_timer_a_player_who_plays_again_gets_a_fresh_timer() -> None:
    game, _ = rigged([["RS", "R1", "R2"], ["B2", "Y3"]], "R5", turn_seconds=30)
    game.apply(0, cmd("play", card="RS"), now_ms=25_000)  # E-TWO: seat 0 plays again
    assert game.view(None)["turn"] == 0 and game.deadline_ms == 55_000


def test_the_first_turn_is_announced_with_the_deal() -> None:
    _, events = rigged([["R1", "G2"], ["B2", "Y3"], ["G1"]], "GS")
    assert events[-1].kind == "turn" and events[-1].for_viewer(None)["seat"] == 1


def test_turn_event_carries_the_public_pending_decision() -> None:
    game, _ = rigged([["W+4", "R1"], ["B2", "Y3"], ["G1"]], "G5")
    events = act(game, 0, "play", card="W+4", color="B")
    turn = events[-1].for_viewer(2)
    assert turn["pending"] == {"kind": "challenge", "seat": 1, "amount": 4, "offender": 0}


def test_u_call_before_the_play_is_announced_once() -> None:
    game, _ = rigged([["R1", "R2"], ["B2", "Y3"]], "R5")
    first = act(game, 0, "uno")
    then = act(game, 0, "play", card="R1")
    calls = [e for e in first + then if e.kind == "uno_called"]
    assert len(calls) == 1 and game.view(None)["seats"][0]["uno"] is True
