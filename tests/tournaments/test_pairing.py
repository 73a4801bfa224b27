"""TR-TABLES, TR-SWISS and TR-KNOCKOUT as a host would notice them: everyone seated once,
tables balanced, the leaders together, as few repeat tablemates as possible."""

from __future__ import annotations

from itertools import combinations, permutations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.tournaments.knockout import advancing, final_ranking, is_final, seeded_round
from app.tournaments.standings import Seat, TableResult
from app.tournaments.swiss import met_counts, random_round, repeats, swiss_round
from app.tournaments.tables import plan_tables

people_counts = st.integers(min_value=1, max_value=220)
table_sizes = st.integers(min_value=3, max_value=10)


def names(n: int) -> list[str]:
    return [f"p{i}" for i in range(n)]


@given(people_counts, table_sizes)
def test_tables_are_as_few_as_fit_balanced_and_never_short_of_three(n: int, size: int) -> None:
    plans = plan_tables(n, size)
    assert sum(p.people for p in plans) == n
    assert len(plans) == -(-n // size)
    assert max(p.people for p in plans) - min(p.people for p in plans) <= 1
    assert all(p.people <= size and p.seats >= 3 for p in plans)
    assert all(p.bots == max(0, 3 - p.people) for p in plans)


def test_two_people_get_one_bot_and_no_one_gets_no_table() -> None:
    assert [(p.people, p.bots) for p in plan_tables(2, 4)] == [(2, 1)]
    assert plan_tables(0, 4) == []
    with pytest.raises(ValueError):
        plan_tables(5, 2)


def seated_once(tables: list[list[str]], people: list[str], size: int) -> None:
    flat = [who for table in tables for who in table]
    assert sorted(flat) == sorted(people)
    assert [len(t) for t in tables] == [p.people for p in plan_tables(len(people), size)]


@given(people_counts, table_sizes, st.text(min_size=1, max_size=8))
def test_round_one_seats_everyone_once_and_the_seed_decides(n: int, size: int, seed: str
                                                             ) -> None:
    people = names(n)
    tables = random_round(people, size, seed, 1)
    seated_once(tables, people, size)
    assert random_round(people, size, seed, 1) == tables


def test_another_seed_seats_another_way() -> None:
    people = names(40)
    assert random_round(people, 4, "a", 1) != random_round(people, 4, "b", 1)


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=1, max_value=120), table_sizes, st.randoms(use_true_random=False))
def test_later_rounds_seat_everyone_once(n: int, size: int, rnd: object) -> None:
    people = names(n)
    past = random_round(people, size, "s", 1) + random_round(people, size, "s", 2)
    ranked = list(people)
    rnd.shuffle(ranked)  # type: ignore[attr-defined]
    seated_once(swiss_round(ranked, size, met_counts(past)), people, size)


def test_with_no_one_met_yet_the_leaders_sit_together_at_table_one() -> None:
    ranked = names(12)
    assert swiss_round(ranked, 4, met_counts([])) == [ranked[:4], ranked[4:8], ranked[8:]]


def brute_force_fewest_repeats(people: list[str], sizes: list[int], met: object) -> int:
    best = None
    for order in permutations(people):
        tables, start = [], 0
        for s in sizes:
            tables.append(list(order[start:start + s]))
            start += s
        cost = repeats(tables, met)  # type: ignore[arg-type]
        best = cost if best is None else min(best, cost)
    assert best is not None
    return best


@settings(max_examples=40, deadline=None)
@given(st.integers(min_value=3, max_value=8), st.sampled_from([3, 4]),
       st.lists(st.integers(min_value=0, max_value=10_000), min_size=1, max_size=3),
       st.randoms(use_true_random=False))
def test_repeat_tablemates_are_as_few_as_brute_force_finds(n: int, size: int,
                                                           seeds: list[int], rnd: object
                                                           ) -> None:
    people = names(n)
    met = met_counts(t for i, s in enumerate(seeds) for t in random_round(people, size, str(s), i))
    ranked = list(people)
    rnd.shuffle(ranked)  # type: ignore[attr-defined]
    tables = swiss_round(ranked, size, met)
    sizes = [len(t) for t in tables]
    assert repeats(tables, met) == brute_force_fewest_repeats(people, sizes, met)


def test_a_big_round_swaps_neighbours_to_avoid_repeats() -> None:
    people = names(200)
    ranked = list(people)
    past = [ranked[i:i + 4] for i in range(0, 200, 4)]  # last round exactly by standings
    tables = swiss_round(ranked, 4, met_counts(past))
    seated_once(tables, people, 4)
    assert repeats(tables, met_counts(past)) < repeats(past, met_counts(past)) // 4


def result(*places: tuple[str | None, int]) -> TableResult:
    return TableResult(1, tuple(Seat(who, place) for who, place in places))


def test_the_top_two_of_each_table_go_on_and_bots_never_do() -> None:
    joined = ["a", "b", "c", "d"]
    assert advancing(result(("c", 1), ("a", 2), ("b", 3), ("d", 4)), 2, joined) == ["c", "a"]
    assert advancing(result((None, 1), ("b", 2), ("a", 3)), 2, joined) == ["b"]


@settings(max_examples=80, deadline=None)
@given(st.integers(min_value=2, max_value=80), table_sizes, st.integers(1, 3))
def test_a_knockout_shrinks_every_round_until_its_final_table(n: int, size: int,
                                                              advance: int) -> None:
    people = names(n)
    rounds: list[list[TableResult]] = []
    while not is_final(len(people), size):
        tables = seeded_round(people, size)
        seated_once(tables, people, size)
        results = [result(*((who, place) for place, who in enumerate(t, 1))) for t in tables]
        rounds.append(results)
        left = [w for r in results for w in advancing(r, advance, names(n))]
        assert len(left) < len(people)
        people = left
    assert len(people) <= size
    final = [result(*((who, place) for place, who in enumerate(people, 1)))]
    ranking = final_ranking([*rounds, final], names(n))
    assert ranking[: len(people)] == people
    assert sorted(ranking) == sorted(names(n))


def test_knockout_seeds_the_leaders_apart() -> None:
    tables = seeded_round(names(8), 4)
    assert tables == [["p0", "p3", "p4", "p7"], ["p1", "p2", "p5", "p6"]]
    assert all(len(set(a) & set(b)) == 0 for a, b in combinations(tables, 2))
