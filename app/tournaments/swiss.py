"""TR-SWISS: round 1 at random from the tournament's secret seed; later rounds by standings,
then people swapped so that as few pairs as possible share a table again.

Small rounds are searched exhaustively (fewest repeats, then the least distance from the
standings' tables); larger ones swap people between neighbouring tables while that helps."""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from itertools import combinations

from app.tournaments.tables import plan_tables

Met = Counter[frozenset[str]]
# Orderings searched exhaustively at most; beyond this, neighbour swaps.
EXHAUSTIVE_LIMIT = 20_000


def met_counts(tables: Iterable[Sequence[str]]) -> Met:
    """How often each pair of participants has shared a table, from past rounds' tables."""
    met: Met = Counter()
    for table in tables:
        for a, b in combinations(table, 2):
            met[frozenset((a, b))] += 1
    return met


def repeats(tables: Sequence[Sequence[str]], met: Met) -> int:
    """How many past meetings the pairs at these tables have had."""
    return sum(met[frozenset((a, b))] for table in tables for a, b in combinations(table, 2))


def chunk(order: Sequence[str], sizes: Sequence[int]) -> list[list[str]]:
    tables: list[list[str]] = []
    start = 0
    for size in sizes:
        tables.append(list(order[start:start + size]))
        start += size
    return tables


def random_round(people: Sequence[str], table_size: int, seed: str, round_no: int
                 ) -> list[list[str]]:
    """Round one (or any unseeded round): a shuffle drawn from the secret seed."""
    order = list(people)
    random.Random(f"{seed}:{round_no}").shuffle(order)
    return chunk(order, [plan.people for plan in plan_tables(len(order), table_size)])


def swiss_round(ranked: Sequence[str], table_size: int, met: Met) -> list[list[str]]:
    """Tables for a later round: ``ranked`` is the active people best first."""
    sizes = [plan.people for plan in plan_tables(len(ranked), table_size)]
    if not sizes:
        return []
    home = {who: i for i, table in enumerate(chunk(ranked, sizes)) for who in table}
    if _orderings(sizes) <= EXHAUSTIVE_LIMIT:
        return _exhaustive(ranked, sizes, met, home)
    return _neighbour_swaps(chunk(ranked, sizes), met, home)


def _orderings(sizes: Sequence[int]) -> int:
    return math.factorial(sum(sizes)) // math.prod(math.factorial(s) for s in sizes)


def _displacement(tables: Sequence[Sequence[str]], home: dict[str, int]) -> int:
    return sum(abs(i - home[who]) for i, table in enumerate(tables) for who in table)


def _assignments(people: Sequence[str], sizes: Sequence[int]) -> Iterator[list[list[str]]]:
    if not sizes:
        yield []
        return
    for first in combinations(people, sizes[0]):
        chosen = set(first)
        rest = [who for who in people if who not in chosen]
        for tail in _assignments(rest, sizes[1:]):
            yield [list(first), *tail]


def _exhaustive(ranked: Sequence[str], sizes: Sequence[int], met: Met,
                home: dict[str, int]) -> list[list[str]]:
    best = chunk(ranked, sizes)
    best_key = (repeats(best, met), _displacement(best, home))
    if best_key[0] == 0:
        return best
    for tables in _assignments(ranked, sizes):
        key = (repeats(tables, met), _displacement(tables, home))
        if key < best_key:
            best, best_key = tables, key
    return best


def _cost_of(who: str, table: Sequence[str], met: Met) -> int:
    return sum(met[frozenset((who, other))] for other in table if other != who)


def _neighbour_swaps(tables: list[list[str]], met: Met, home: dict[str, int]
                     ) -> list[list[str]]:
    """Swap one person of a table with one of the next while that lowers (repeats, distance
    from the standings' table); a bounded number of passes keeps a huge round quick."""
    for _ in range(50):
        swapped = False
        for i in range(len(tables) - 1):
            while (swap := _better_swap(tables[i], tables[i + 1], i, met, home)) is not None:
                x, y = swap
                tables[i][x], tables[i + 1][y] = tables[i + 1][y], tables[i][x]
                swapped = True
        if not swapped:
            break
    return tables


def _better_swap(left: list[str], right: list[str], i: int, met: Met, home: dict[str, int]
                 ) -> tuple[int, int] | None:
    for x, a in enumerate(left):
        for y, b in enumerate(right):
            before = _cost_of(a, left, met) + _cost_of(b, right, met)
            after = (_cost_of(b, [w for w in left if w != a], met)
                     + _cost_of(a, [w for w in right if w != b], met))
            moved = (abs(i + 1 - home[a]) + abs(i - home[b])
                     - abs(i - home[a]) - abs(i + 1 - home[b]))
            if (after - before, moved) < (0, 0):
                return x, y
    return None
