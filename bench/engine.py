"""Engine speed: seeded random games (one round each), 2 players, classic deck, official rules.

Policy: play a random playable card when there is one (a random color for wilds), otherwise draw,
and play the drawn card if it can be played; accept every Wild Draw Four.

    .venv/bin/python -m bench.engine [--games N] [--json] [--compare-rlcard] [--compiled]

``--compiled`` first compiles the unchanged engine sources with mypyc (``app.engine._build``, into
bench/.mypyc/, about a minute the first time) and measures that build: the same rules, events and
views, as C; the Docker image runs that build.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import time
from pathlib import Path

from app.engine import COMPILED, Game, _build, preset
from app.engine.cards import CARD_KINDS
from app.engine.commands import Accept, ChooseColor, Draw, Play
from app.engine.state import CHALLENGE, PLAY_DRAWN, PLAYING


def play_engine_games(games: int, seed: int) -> tuple[float, int]:
    rules = preset("official", {"deck": "classic", "turn_seconds": 0})
    rnd = random.Random(seed).random
    colors = (0, 1, 2, 3)
    draw = Draw()
    # Commands are immutable: build each (card, color) play once, as a bot would.
    plays = {(c, k): Play(c, k) for c in range(CARD_KINDS) for k in colors}
    accept = Accept()
    steps = 0
    started = time.perf_counter()
    for g in range(games):
        game, _ = Game.start(2, rules, seed=seed + g)
        state = game.state
        apply = game.apply
        while state.phase == PLAYING:
            pending = state.pending
            if pending is None:
                seat = state.turn
                cards = game.playable(seat)
                if cards:
                    apply(seat, plays[cards[int(rnd() * len(cards))], int(rnd() * 4)])
                else:
                    apply(seat, draw)
            elif pending.kind == PLAY_DRAWN:
                apply(pending.seat, plays[pending.card, int(rnd() * 4)])
            elif pending.kind == CHALLENGE:
                apply(pending.seat, accept)
            else:
                apply(pending.seat, ChooseColor(colors[int(rnd() * 4)]))
            steps += 1
    return time.perf_counter() - started, steps


def play_rlcard_games(games: int, seed: int) -> tuple[float, int]:
    from rlcard.games.uno.game import UnoGame  # type: ignore[import-untyped,import-not-found,unused-ignore]  # noqa: PLC0415

    rng = random.Random(seed)
    game = UnoGame(num_players=2)
    game.np_random.seed(seed)  # RLCard deals from its own unseeded NumPy generator
    steps = 0
    started = time.perf_counter()
    for _ in range(games):
        game.init_game()
        while not game.is_over():
            legal = game.get_legal_actions()
            plays = [a for a in legal if a != "draw"]
            game.step(rng.choice(plays) if plays else "draw")
            steps += 1
    return time.perf_counter() - started, steps


def compiled_engine_dir() -> Path:
    """The engine compiled by mypyc from the current sources (rebuilt when they change)."""
    root = Path(__file__).resolve().parent.parent
    build = root / "bench" / ".mypyc" / _build.digest()
    if not (build / "done").exists():
        shutil.rmtree(build, ignore_errors=True)
        _build.build(build)
        (build / "done").write_text(_build.digest())
    return build


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--engine-build", default="python", help=argparse.SUPPRESS)
    parser.add_argument("--compare-rlcard", action="store_true")
    parser.add_argument("--compiled", action="store_true", help="measure the mypyc build")
    args = parser.parse_args()
    if args.compiled and not COMPILED:
        build = compiled_engine_dir()
        argv = [a for a in sys.argv[1:] if a != "--compiled"]
        env = {**os.environ, "PYTHONPATH": str(build)}
        code = "import sys; from bench.engine import main; sys.argv[1:] = sys.argv[2:]; main()"
        root = Path(__file__).resolve().parent.parent
        done = subprocess.run(
            [sys.executable, "-c", code, "--", *argv, "--engine-build", "mypyc"],
            check=False,  # its exit code is passed on
            env={**env, "PYTHONPATH": f"{build}:{root}"},
            cwd=build,
        )
        raise SystemExit(done.returncode)
    seconds, steps = play_engine_games(args.games, args.seed)
    result: dict[str, float | int | str] = {
        "engine": args.engine_build,
        "games": args.games,
        "seconds": round(seconds, 3),
        "games_per_second": round(args.games / seconds),
        "steps_per_second": round(steps / seconds),
        "steps_per_game": round(steps / args.games, 1),
    }
    if args.compare_rlcard:
        rl_games = max(1, args.games // 4)
        rl_seconds, _ = play_rlcard_games(rl_games, args.seed)
        result["rlcard_games_per_second"] = round(rl_games / rl_seconds)
        result["ratio_vs_rlcard"] = round(args.games / seconds / (rl_games / rl_seconds), 2)
    if args.json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            print(f"{key:>24}: {value}")


if __name__ == "__main__":
    main()
