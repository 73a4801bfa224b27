"""O-LEGAL: ``you.legal`` / ``Game.legal_wire``: what a seat may send now, as the client sends
it."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from app.engine import BadCommand, EngineError, Game, command_to_wire, parse_command, preset
from app.engine.bots import choose_command
from app.engine.commands import Timeout
from app.engine.legal import playable_cards
from app.engine.rules import PRESETS
from app.engine.state import PLAY_DRAWN, STACK, GameState
from app.engine.turns import can_jump_in, finish_barred, stack_answer

from .helpers import act, rigged


def test_o_legal_a_turn_lists_each_playable_card_once_without_color_or_target() -> None:
    game, _ = rigged([["R1", "R1", "W", "R7", "G9", "Y2"], ["B1", "B2"]], "R5", seven_zero=True)
    assert game.legal_wire(0) == [
        {"type": "play", "card": "R1"},
        {"type": "play", "card": "R7"},
        {"type": "play", "card": "W"},
        {"type": "draw"},
    ]
    assert game.view(0)["you"]["legal"] == game.legal_wire(0)
    assert game.legal_wire(1) == []


def test_o_legal_every_listed_command_is_accepted_once_completed() -> None:
    game, _ = rigged([["R1", "W", "R7", "G9"], ["B1", "B2"]], "R5", seven_zero=True)
    completions: dict[str, dict[str, Any]] = {"W": {"color": "G"}, "R7": {"target": 1}}
    for message in game.legal_wire(0):
        twin, _ = rigged([["R1", "W", "R7", "G9"], ["B1", "B2"]], "R5", seven_zero=True)
        twin.apply(0, parse_command({**message, **completions.get(message.get("card", ""), {})}))


def test_o_legal_a_spectator_has_no_you() -> None:
    game, _ = rigged([["R1", "R2"], ["B1", "B2"]], "R5")
    assert game.view(None)["you"] is None


def test_o_legal_uno_and_catches_for_anyone_they_concern() -> None:
    game, _ = rigged([["R1", "R2"], ["B1", "B2"], ["Y1", "Y2"]], "R5")
    assert {"type": "uno"} in game.legal_wire(0)  # two cards on one's own turn
    act(game, 0, "play", card="R1")
    assert game.legal_wire(0) == [{"type": "uno"}]
    assert game.legal_wire(2) == [{"type": "catch", "target": 0}]


def test_o_legal_a_pending_wild_draw_four_challenge_or_accept() -> None:
    game, _ = rigged([["W+4", "R1"], ["B1", "B2"], ["Y1"]], "G5")
    act(game, 0, "play", card="W+4", color="B")
    assert game.legal_wire(1) == [
        {"type": "challenge"},
        {"type": "accept"},
        {"type": "catch", "target": 0},  # seat 0 holds one card and did not call
    ]


def test_o_legal_a_pending_stack_lists_the_answers_and_accept() -> None:
    hands = [["R+2", "G1", "G2"], ["Y+2", "RR", "B1"], ["Y1", "Y2"]]
    game, _ = rigged(hands, "R5", stacking="progressive", reverse_deflects=True)
    act(game, 0, "play", card="R+2")
    assert game.legal_wire(1) == [
        {"type": "play", "card": "RR"},
        {"type": "play", "card": "Y+2"},
        {"type": "accept"},
    ]


def test_o_legal_a_drawn_card_play_or_keep() -> None:
    game, _ = rigged([["G1", "G2"], ["B1", "B2"]], "R5", ["R9"])
    act(game, 0, "draw")
    assert game.legal_wire(0) == [{"type": "play", "card": "R9"}, {"type": "keep"}]


def test_o_legal_a_first_wild_asks_for_a_color_once() -> None:
    game, _ = rigged([["G1", "G2", "G3"], ["B1", "B2"]], "W")
    assert game.legal_wire(0) == [{"type": "choose_color"}]


def test_o_legal_an_exchange_lists_each_card_to_give() -> None:
    game, _ = rigged([["R5", "G1", "G1"], ["B1", "B2"]], "R9", five_exchange=True)
    act(game, 0, "play", card="R5", target=1)
    assert game.legal_wire(0) == [{"type": "give", "card": "G1"}]
    assert game.legal_wire(1) == [{"type": "give", "card": "B1"}, {"type": "give", "card": "B2"}]


def test_o_legal_a_slap_for_each_seat_that_must_slap() -> None:
    game, _ = rigged([["R1", "R2"], ["B1", "B2"], ["Y1", "Y2"]], "R5", uno_slap=True)
    act(game, 0, "play", card="R1", uno=True)
    assert game.legal_wire(1) == [{"type": "slap"}, {"type": "uno"}]  # uno: seat 1's turn next
    assert game.legal_wire(0) == []


def test_o_legal_jump_ins_are_listed_while_allowed() -> None:
    hands = [["R7", "G1"], ["W", "B2", "B3"], ["R7", "Y2"]]
    game, _ = rigged(hands, "R5", jump_in=True)
    assert game.legal_wire(2) == []  # never on the first discard
    act(game, 0, "play", card="R7")
    assert game.legal_wire(2) == [{"type": "play", "card": "R7"}, {"type": "catch", "target": 0}]
    act(game, 1, "play", card="W", color="G")  # the table moved on: R7 is covered
    assert game.legal_wire(2) == [{"type": "draw"}, {"type": "uno"}]


def test_o_legal_h_multi_lists_a_play_with_every_card_that_may_follow_it() -> None:
    game, _ = rigged([["R5", "G5", "Y5", "B1"], ["Y1", "Y2"]], "R9", multi_play=True)
    assert game.legal_wire(0) == [
        {"type": "play", "card": "R5"},
        {"type": "play", "card": "R5", "more": ["Y5", "G5"]},
        {"type": "draw"},
        {"type": "uno"},  # one play may leave one card: a call before it counts
    ]


def test_o_legal_h_handlimit_pass_instead_of_draw() -> None:
    game, _ = rigged([["G1", "G2"], ["B1", "B2"]], "R5", hand_limit=2)
    assert game.legal_wire(0) == [{"type": "pass"}, {"type": "uno"}]


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_game_playable_is_legal_playable_cards_for_every_seat_at_every_step(name: str) -> None:
    """``Game.playable`` answers a plain turn itself (a call less on the hot path): the same
    cards as ``legal.playable_cards``, which answers every other case."""
    for game, players in _every_step(name, {}, 0):
        for seat in range(players):
            assert game.playable(seat) == playable_cards(game.state, seat)


def _every_step(name: str, rules: dict[str, Any], seeds: int) -> Iterator[tuple[Game, int]]:
    """Four games of preset ``name`` (2, 3, 4 and 2 players; teams 4), each at every step of up
    to 250 random commands (a bot's choice, at random moments) while its round is played."""
    for g in range(4):
        players = 4 if name == "teams" else 2 + g % 3
        rng = random.Random(seeds + g)
        game, _ = Game.start(players, preset(name, {"deck": "modern", **rules}), seed=g)
        for _ in range(250):
            if game.phase != "playing":
                break
            yield game, players
            seat = rng.choice(game.waiting_on() or [0])
            command = choose_command(game, seat, rng) or Timeout()
            try:
                game.apply(seat, command, game.state.now_ms + rng.choice((0, 100, 40000)))
            except EngineError:
                continue


FIELDLESS = ("draw", "pass", "keep", "uno", "challenge", "accept", "slap", "next_round", "timeout")
WITH_FIELDS = (
    {"type": "play", "card": "W", "color": "R", "uno": True},
    {"type": "play", "card": "R7", "target": 2},
    {"type": "catch", "target": 1},
    {"type": "choose_color", "color": "G"},
    {"type": "give", "card": "B3"},
)


@pytest.mark.parametrize("message", [{"type": kind} for kind in FIELDLESS] + list(WITH_FIELDS))
def test_every_command_is_written_as_the_message_it_was_read_from(message: dict[str, Any]) -> None:
    assert command_to_wire(parse_command(message)) == message


def test_an_object_that_is_no_command_is_not_written() -> None:
    with pytest.raises(BadCommand):
        command_to_wire(object())  # type: ignore[arg-type]


def _answers_and_jump_ins_in_general(state: GameState, seat: int) -> list[int]:
    """The cards ``playable_cards`` lists out of a seat's plain turn, by the general rule (the
    drawn card, a stack's answers, the jump-in card, then H-FINISH): the engine answers
    another's plain turn by a shorter way, which must list the same."""
    pending = state.pending
    hand = state.hands[seat]
    cards: set[int] = set()
    if pending is not None and pending.seat == seat:
        if pending.kind == PLAY_DRAWN:
            cards.add(pending.card)
        elif pending.kind == STACK:
            cards.update(c for c in hand if stack_answer(state, pending, c))
    top = state.discard[-1]
    if top in hand and can_jump_in(state, seat, top):
        cards.add(top)
    return [c for c in sorted(cards) if not finish_barred(state.rules, hand, c)]


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_out_of_turn_cards_are_the_general_rules_for_every_seat_at_every_step(name: str) -> None:
    for game, players in _every_step(name, {} if name == "teams" else {"jump_in": True}, 100):
        state = game.state
        for seat in range(players):
            if state.slap is None and (state.pending is not None or state.turn != seat):
                assert playable_cards(state, seat) == _answers_and_jump_ins_in_general(state, seat)


@pytest.mark.parametrize("no_wild_finish", [False, True])
def test_o_legal_h_finish_bars_a_jump_in_with_the_last_card(no_wild_finish: bool) -> None:
    game, _ = rigged([["W", "G1"], ["B1", "B2", "B3"], ["W"]], "R5", jump_in=True,
                     no_wild_finish=no_wild_finish)
    act(game, 0, "play", card="W", color="G")
    plays = [m for m in game.legal_wire(2) if m["type"] == "play"]
    assert plays == ([] if no_wild_finish else [{"type": "play", "card": "W"}])
