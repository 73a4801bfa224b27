"""A game's random stream, small between commands.

``random.Random(seed)`` keeps the Mersenne Twister's state, 2.5 KB, for the game's life: at a
worker holding thousands of tables, most of them waiting for a player, that was a sixth of a
table's memory. A game draws from it only to deal, to shuffle the discard pile back in and for
a few house rules and time-outs, so ``GameRandom`` keeps the seed and the number of 32-bit words
drawn so far instead; the generator is made again when a draw comes (seeded, then the words
already drawn skipped in one C call) and let go after it: ``choice`` lets it go itself, a
shuffle (``table.shuffle``) when it is done, so a deal (the dealer by ``below``, then the
shuffle) seeds it once. The numbers are those of one ``random.Random(seed)`` drawn from without
a break (tests/engine/test_randomness.py).
"""

from __future__ import annotations

import base64
import random
import struct
from collections.abc import Sequence
from typing import Any, TypeVar

T = TypeVar("T")


class GameRandom:
    __slots__ = ("_generator", "seed", "words")

    def __init__(self, seed: int | None, words: int = 0,
                 generator: random.Random | None = None) -> None:
        self.seed = seed  # None: a generator restored from its state, kept (``kept``)
        self.words = words  # 32-bit words drawn since the seed
        self._generator = generator

    @classmethod
    def kept(cls, generator: random.Random) -> GameRandom:
        """A generator known only by its state (snapshots stored before this class): it stays."""
        return cls(None, 0, generator)

    def generator(self, words: int) -> random.Random:
        """The generator, for a caller about to draw ``words`` 32-bit words from it (two for each
        ``random()``, one for each ``getrandbits(k)`` with k <= 32)."""
        generator = self._generator
        if generator is None:
            generator = self._generator = random.Random(self.seed)
            if self.words:
                generator.getrandbits(32 * self.words)  # the words drawn before: one call
        self.words += words
        return generator

    def release(self) -> None:
        """Let the generator go until the next draw (kept if restored from its state alone)."""
        if self.seed is not None:
            self._generator = None

    def below(self, n: int) -> int:
        """A number in range(n), n > 0, drawn as ``random.Random.randrange(n)`` draws it; the
        generator is kept for the draws that follow (``release`` when they are done)."""
        k = n.bit_length()
        generator = self.generator(1)
        r = generator.getrandbits(k)
        while r >= n:
            self.words += 1
            r = generator.getrandbits(k)
        return r

    def choice(self, seq: Sequence[T]) -> T:
        if not seq:
            raise IndexError("Cannot choose from an empty sequence")
        drawn = seq[self.below(len(seq))]
        self.release()
        return drawn

    def to_json(self) -> Any:
        """For a snapshot: the seed (as text: any int) and the words drawn; a kept generator's
        state with its 625 words packed into one string."""
        if self.seed is not None:
            return {"seed": str(self.seed), "words": self.words}
        assert self._generator is not None
        version, internal, gauss = self._generator.getstate()
        packed = base64.b64encode(struct.pack(f"<{len(internal)}I", *internal)).decode("ascii")
        return [version, packed, gauss]

    @classmethod
    def from_json(cls, data: Any) -> GameRandom:
        if isinstance(data, dict):
            return cls(int(data["seed"]), int(data["words"]))
        version, internal, gauss = data  # a generator's state (snapshots before the seed's)
        if isinstance(internal, str):  # packed (older snapshots hold the list of numbers)
            raw = base64.b64decode(internal)
            internal = struct.unpack(f"<{len(raw) // 4}I", raw)
        generator = random.Random()
        generator.setstate((version, tuple(internal), gauss))
        return cls.kept(generator)
