"""O-BOTS: bots finish whole matches under every preset, legally."""

from __future__ import annotations

import random

import pytest

from app.engine import Game, preset
from app.engine.bots import choose_command
from app.engine.commands import NextRound, Timeout

from .invariants import check_conservation


@pytest.mark.parametrize(
    "name", ["official", "house", "seeded", "party", "crazy", "teams", "fast", "everything"]
)
def test_o_bots_play_a_whole_match_legally_under_each_preset(name: str) -> None:
    for seed in range(5):
        changes = {"target": 150, **(EVERYTHING if name == "everything" else {})}
        rules = preset("crazy" if name == "everything" else name, changes)
        game, _ = Game.start(4, rules, seed=seed)
        rng = random.Random(seed)
        now = 0
        for _ in range(50_000):
            if game.phase == "match_over":
                break
            if game.phase == "round_over":
                game.apply(0, NextRound(), now)
                continue
            if game.deadline_ms is not None and rng.random() < 0.02:  # a bot too slow
                now = max(now, game.deadline_ms)
                game.apply(0, Timeout(), now)
                continue
            seat = game.waiting_on()[0]
            command = choose_command(game, seat, rng)
            assert command is not None, game.view(None)["pending"]
            game.apply(seat, command, now)  # a refused command would raise here
            now += 1000
            check_conservation(game)
        assert game.phase == "match_over"


# Every toggle that goes with the others (H-ELIM aside: it is not played with H-TEAMS).
EVERYTHING: dict[str, object] = {
    "draw_until_playable": True,
    "five_exchange": True,
    "silent": "twos",
    "uno_slap": True,
    "misplay_penalty": 1,
    "forced_play": True,
    "hand_limit": 12,
    "uno_call": "strict",
    "no_wild_finish": True,
    "no_draw_finish": True,
    "double_score": True,
    "teams": True,
    "reveal_below": 3,
    "no_hints": True,
    "blitz_seconds": 120,
    "shuffle_seats": True,
    "seven_swap": "next",
}
