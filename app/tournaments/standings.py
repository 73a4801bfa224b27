"""TR-POINTS: tournament points from each table's places, and the standings' order (points,
then Buchholz, then card points won minus lost, then the earlier join)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction


@dataclass(frozen=True, slots=True)
class Seat:
    """One seat's result at a finished table: ``who`` is a participant id, or None for a bot;
    ``place`` is 1-based and equal for a tie; ``card_net`` is card points won minus lost."""

    who: str | None
    place: int
    card_net: int = 0


@dataclass(frozen=True, slots=True)
class TableResult:
    round: int
    seats: tuple[Seat, ...]


@dataclass(frozen=True, slots=True)
class Standing:
    who: str
    points: Fraction
    buchholz: Fraction
    card_net: int
    tables: int


def table_points(seats: Sequence[Seat]) -> list[Fraction]:
    """The n - k points of the k-th place at a table of n, a tie sharing its places' points."""
    n = len(seats)
    by_place: dict[int, int] = defaultdict(int)
    for seat in seats:
        by_place[seat.place] += 1
    order = sorted(by_place)
    shares: dict[int, Fraction] = {}
    taken = 0  # seats ranked above this place
    for place in order:
        tied = by_place[place]
        # the tied seats hold places taken+1 .. taken+tied
        total = sum(n - k for k in range(taken + 1, taken + tied + 1))
        shares[place] = Fraction(total, tied)
        taken += tied
    return [shares[seat.place] for seat in seats]


def standings(joined: Sequence[str], results: Iterable[TableResult]) -> list[Standing]:
    """Everyone in ``joined`` (in join order), best first. Bots score nothing and count in no
    one's Buchholz."""
    results = list(results)
    points: dict[str, Fraction] = {who: Fraction(0) for who in joined}
    card_net: dict[str, int] = {who: 0 for who in joined}
    tables: dict[str, int] = {who: 0 for who in joined}
    mates: dict[str, list[str]] = {who: [] for who in joined}
    for result in results:
        people = [seat.who for seat in result.seats if seat.who is not None]
        for seat, share in zip(result.seats, table_points(result.seats), strict=True):
            if seat.who is None or seat.who not in points:
                continue
            points[seat.who] += share
            card_net[seat.who] += seat.card_net
            tables[seat.who] += 1
            mates[seat.who].extend(m for m in people if m != seat.who and m in points)
    rank = {who: i for i, who in enumerate(joined)}
    rows = [Standing(who, points[who], sum((points[m] for m in mates[who]), Fraction(0)),
                     card_net[who], tables[who]) for who in joined]
    rows.sort(key=lambda s: (-s.points, -s.buchholz, -s.card_net, rank[s.who]))
    return rows
