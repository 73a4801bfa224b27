"""TR-KNOCKOUT: the top ``advance`` people of each table go on until ``table_size`` or fewer
are left, who play the final table."""

from __future__ import annotations

from collections.abc import Sequence

from app.tournaments.standings import Seat, TableResult
from app.tournaments.tables import plan_tables

DEFAULT_ADVANCE = 2


def advancing(result: TableResult, advance: int, joined: Sequence[str]) -> list[str]:
    """Who goes on from one table: the best ``advance`` people by place, card points and earlier
    join. At least one person of a table always drops out (a table of two sends one on), so
    every round of a knockout shrinks the field; bots never go on."""
    rank = {who: i for i, who in enumerate(joined)}
    people = [seat for seat in result.seats if seat.who is not None]
    people.sort(key=lambda s: (s.place, -s.card_net, rank.get(s.who or "", len(rank))))
    keep = advance if len(people) <= 1 else min(advance, len(people) - 1)
    return [seat.who for seat in people[:keep] if seat.who is not None]


def is_final(left: int, table_size: int) -> bool:
    """When so few are left that they fit one table, that table is the final."""
    return left <= table_size


def seeded_round(ranked: Sequence[str], table_size: int) -> list[list[str]]:
    """A knockout round seats by standings in a snake (1st, 2nd, .. at tables 1, 2, .., then
    back), so that the leaders meet as late as they can."""
    plans = plan_tables(len(ranked), table_size)
    tables: list[list[str]] = [[] for _ in plans]
    order = list(range(len(plans)))
    index = 0
    for who in ranked:
        while True:
            lap, pos = divmod(index, len(plans))
            table = order[pos] if lap % 2 == 0 else order[len(plans) - 1 - pos]
            index += 1
            if len(tables[table]) < plans[table].people:
                tables[table].append(who)
                break
    return tables


def final_ranking(rounds: Sequence[Sequence[TableResult]], joined: Sequence[str]) -> list[str]:
    """Everyone who played, best first: who went out later ranks higher; within one round,
    the better place, then card points, then the earlier join."""
    rank = {who: i for i, who in enumerate(joined)}
    best: dict[str, tuple[int, int, int, int]] = {}
    for round_no, results in enumerate(rounds):
        for result in results:
            for seat in result.seats:
                if seat.who is not None:
                    best[seat.who] = _key(round_no, seat, rank)
    return sorted(best, key=lambda who: best[who])


def _key(round_no: int, seat: Seat, rank: dict[str, int]) -> tuple[int, int, int, int]:
    return (-round_no, seat.place, -seat.card_net, rank.get(seat.who or "", len(rank)))
