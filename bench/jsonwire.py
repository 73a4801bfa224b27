"""The cost of encoding one frame: the standard library's compact encoder (one shared
``JSONEncoder``, what app/jsonwire.py used before) against orjson (what it uses), on the frames a
move sends: an event with its public part, a seat's private part and its new legal moves, and a
state of a four-player table.

    .venv/bin/python -m bench.jsonwire [--number 100000]
"""

from __future__ import annotations

import argparse
import json
import timeit
from functools import partial
from typing import Any

from app.engine import Game, preset
from app.jsonwire import compact_json

STDLIB = json.JSONEncoder(separators=(",", ":"))


def frames() -> dict[str, Any]:
    game, _ = Game.start(4, preset("official"), seed=7)
    return {
        "public event": {"type": "event", "seq": 1234, "event": {
            "kind": "played", "public": {"seat": 2, "card": "R7", "hand_count": 5, "next": 3}}},
        "seat's event with legal moves": {"type": "event", "seq": 1234, "event": {
            "kind": "drew", "public": {"seat": 1, "count": 1}, "private": {"cards": ["G4"]}},
            "legal": [{"type": "play", "card": "G4"}, {"type": "play", "card": "R1"},
                      {"type": "pass"}]},
        "state of a 4-player table": {"type": "state", "seq": 1234,
                                      "state": game.view(0)},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--number", type=int, default=100_000)
    args = parser.parse_args()
    for name, frame in frames().items():
        assert json.loads(compact_json(frame)) == json.loads(STDLIB.encode(frame))
        number = args.number // (10 if "state" in name else 1)
        old = timeit.timeit(partial(STDLIB.encode, frame), number=number) / number
        new = timeit.timeit(partial(compact_json, frame), number=number) / number
        print(f"{name}: stdlib {old * 1e6:.2f} us, orjson {new * 1e6:.2f} us "
              f"({old / new:.1f}x)")


if __name__ == "__main__":
    main()
