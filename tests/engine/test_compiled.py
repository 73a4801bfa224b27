"""The compiled engine (``app.engine._build``, what the Docker image runs) behaves exactly like its
sources: the same events, views, errors and snapshots over seeded games under every preset."""

from __future__ import annotations

import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from app.engine import _build

ROOT = Path(__file__).resolve().parents[2]

# Plays seeded bot games (with random legal commands and timeouts mixed in) and prints whether
# the engine is compiled and a digest of everything that came out of it.
PLAY = """
import hashlib, json, random
import app.engine as engine
from app.engine import EngineError, Game, parse_command, preset
from app.engine.bots import choose_command
from app.engine.commands import NextRound, Timeout

digest = hashlib.sha256()
def feed(value):
    digest.update(json.dumps(value, sort_keys=True, default=repr).encode())
def refused(error):
    return [type(error).__name__, error.code, str(error)]
for bad in ({"type": "play", "card": "X9"}, {"type": "fly"}, {"type": "catch", "target": "me"}):
    try:
        parse_command(bad)
    except EngineError as error:
        feed(refused(error))
try:
    preset("official", {"nope": 1})
except EngineError as error:
    feed(refused(error))
for name in ("official", "house", "seeded", "party", "crazy", "teams", "fast"):
    for g in range(30):
        players = 4 if name == "teams" else 2 + g % 4
        rng = random.Random(g)
        game, events = Game.start(players, preset(name, {"deck": "modern"}), seed=g, now_ms=0)
        now = 0
        for step in range(300):
            if game.phase == "match_over":
                break
            now += rng.choice((0, 100, 40000))
            if game.phase == "round_over":
                seat, command = 0, NextRound()
            elif rng.random() < 0.1:
                seat = rng.randrange(players)
                legal = game.legal_commands(seat) or [Timeout()]
                command = rng.choice(legal)
            else:
                seat = rng.choice(game.waiting_on() or [0])
                command = choose_command(game, seat, rng) or Timeout()
            try:
                events = game.apply(seat, command, now)
            except EngineError as error:
                feed(refused(error))
                continue
            feed([e.to_dict() for e in events])
            feed([game.view(s, now) for s in (None, *range(players))])
            feed([game.playable(s) for s in range(players)])
        feed(game.snapshot())
print(engine.COMPILED, digest.hexdigest())
"""


def _play(cwd: Path) -> list[str]:
    done = subprocess.run(
        [sys.executable, "-c", PLAY], cwd=cwd, capture_output=True, text=True, check=True
    )
    return done.stdout.split()


def compiled_build() -> Path:
    """The compiled engine of the current sources, in scripts/serve.sh's cache (built once)."""
    compiler = shutil.which((sysconfig.get_config_var("CC") or "cc").split()[0])
    if compiler is None or not (Path(sysconfig.get_paths()["include"]) / "Python.h").exists():
        pytest.skip("no C compiler or Python headers to build the compiled engine with")
    return _build.cached(ROOT / ".venv" / "engine-build")


@pytest.mark.slow
def test_the_compiled_engine_plays_exactly_like_the_source() -> None:
    build = compiled_build()
    source = _play(ROOT)
    compiled = _play(build)
    assert source[0] == "False" and compiled[0] == "True"
    assert compiled[1] == source[1]
