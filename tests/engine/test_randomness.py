"""A game's random stream (``GameRandom``): the numbers of one ``random.Random(seed)``, however
often its generator is let go, made again or stored in a snapshot between draws."""

from __future__ import annotations

import json
import random
import sys
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from app.engine import Game, preset
from app.engine.randomness import GameRandom
from app.engine.table import shuffle

# One draw each: ("random",), ("below", n), ("choice", n), ("shuffle", n), and between
# draws ("release",) or ("store",): a snapshot's JSON and back.
STEPS = st.lists(st.one_of(
    st.tuples(st.just("random")),
    st.tuples(st.sampled_from(["below", "choice"]), st.integers(1, 120)),
    st.tuples(st.just("shuffle"), st.integers(0, 230)),
    st.tuples(st.sampled_from(["release", "store"])),
), max_size=40)


@settings(max_examples=300, deadline=None)
@given(seed=st.integers(-(2**70), 2**70), steps=STEPS)
def test_the_stream_is_one_generators_however_it_is_let_go_and_stored(
        seed: int, steps: list[tuple[Any, ...]]) -> None:
    reference = random.Random(seed)
    ours = GameRandom(seed)
    for step in steps:
        kind = step[0]
        if kind == "random":  # two words, as table.shuffle draws each key
            assert ours.generator(2).random() == reference.random()
        elif kind == "below":
            assert ours.below(step[1]) == reference.randrange(step[1])
        elif kind == "choice":
            items = list(range(step[1]))
            assert ours.choice(items) == reference.choice(items)
        elif kind == "shuffle":  # table.shuffle's keys, as random.Random draws them
            cards, shuffled = list(range(step[1])), list(range(step[1]))
            shuffle(ours, cards)
            keys = [reference.random() for _ in shuffled]
            shuffled.sort(key=lambda card: keys[card])
            assert cards == shuffled
        elif kind == "release":
            ours.release()
        else:
            ours = GameRandom.from_json(json.loads(json.dumps(ours.to_json())))
    assert ours.below(2**30) == reference.randrange(2**30)


def test_a_waiting_game_holds_no_generator_and_a_small_snapshot() -> None:
    game, _ = Game.start(4, preset("official"), seed=7)
    rng = game.state.rng
    assert rng.to_json() == {"seed": "7", "words": rng.words} and rng.words > 216
    # the generator alone is 2.5 KB: between commands none is held
    assert sys.getsizeof(rng) < 100 and rng._generator is None
    assert len(json.dumps(game.snapshot()["rng"])) < 40


def test_a_snapshot_that_holds_a_generators_state_keeps_its_stream() -> None:
    """Snapshots stored before the seed was kept hold the generator's state itself."""
    generator = random.Random(11)
    generator.random()
    version, internal, gauss = generator.getstate()
    for stored in ([version, list(internal), gauss], GameRandom.kept(generator).to_json()):
        restored = GameRandom.from_json(json.loads(json.dumps(stored)))
        restored.release()  # kept: it has nothing else to be made again from
        twin = random.Random()
        twin.setstate((version, internal, gauss))
        assert [restored.choice(range(50)) for _ in range(20)] == \
            [twin.choice(range(50)) for _ in range(20)]
