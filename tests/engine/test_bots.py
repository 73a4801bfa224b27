"""O-BOTS: bots finish whole matches under every preset, legally."""

from __future__ import annotations

import random

import pytest

from app.engine import Game, preset
from app.engine.bots import choose_command
from app.engine.commands import NextRound

from .invariants import check_conservation


@pytest.mark.parametrize("name", ["official", "house", "seeded", "party"])
def test_o_bots_play_a_whole_match_legally_under_each_preset(name: str) -> None:
    for seed in range(5):
        game, _ = Game.start(4, preset(name, {"turn_seconds": 0, "target": 150}), seed=seed)
        rng = random.Random(seed)
        for step in range(50_000):
            if game.phase == "match_over":
                break
            if game.phase == "round_over":
                game.apply(0, NextRound())
                continue
            seat = game.waiting_on()[0]
            command = choose_command(game, seat, rng)
            assert command is not None, game.view(None)["pending"]
            game.apply(seat, command, step * 1000)  # a refused command would raise here
            check_conservation(game)
        assert game.phase == "match_over"
