"""10,000 random complete games (rounds, played within complete matches) across 2-10 players,
every first_card, challenge and scoring mode and every house rule (sections 8 and 8b), alone, in
groups, and all at once; every invariant is checked after every step."""

from __future__ import annotations

import os
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import pytest

from .invariants import HOUSE_TOGGLES, play_match

GAMES = 10_000
CHUNK = 50


def _play_chunk(first_seed: int) -> list[dict[str, Any]]:
    return [play_match(seed) for seed in range(first_seed, first_seed + CHUNK)]


@pytest.mark.slow
def test_ten_thousand_random_games_keep_every_invariant_and_all_end() -> None:
    results: list[dict[str, Any]] = []
    seed = 0
    with ProcessPoolExecutor(max_workers=min(4, os.cpu_count() or 1)) as pool:
        while sum(r["rounds"] for r in results) < GAMES:
            seeds = range(seed, seed + CHUNK * 8, CHUNK)
            for chunk in pool.map(_play_chunk, seeds):
                results.extend(chunk)
            seed += CHUNK * 8
    rounds = sum(r["rounds"] for r in results)
    assert rounds >= GAMES
    seen = {
        key: {r["rules"][key] for r in results} for key in ("first_card", "challenge", "scoring")
    }
    assert seen == {
        "first_card": {"official", "number_only"},
        "challenge": {"official", "return", "off"},
        "scoring": {"winner_takes", "lowest_wins", "lazy"},
    }
    assert {r["players"] for r in results} == set(range(2, 11))
    for key, values in HOUSE_TOGGLES.items():
        assert {r["rules"][key] for r in results} >= set(values), key
    # Every toggle on at once (H-TEAMS or H-ELIM: they do not go together).
    everything = [
        r
        for r in results
        if sum(r["rules"][key] in values for key, values in HOUSE_TOGGLES.items())
        >= len(HOUSE_TOGGLES) - 1
    ]
    assert everything


def test_no_event_changes_after_the_engine_made_it() -> None:
    """Rooms keep the engine's events and encode them again when a socket resumes."""
    for seed in range(300):
        play_match(seed, checks=False, events_stay=True)
