"""TR-POINTS: the k-th place at a table of n takes n - k, a tie splits, and the standings order
points, Buchholz, card points won minus lost, then the earlier join."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from app.tournaments.standings import Seat, TableResult, standings, table_points


def test_places_take_n_minus_k_and_a_tie_splits_them() -> None:
    assert table_points([Seat("a", 1), Seat("b", 2), Seat("c", 3), Seat("d", 4)]) == [3, 2, 1, 0]
    tied = table_points([Seat("a", 1), Seat("b", 2), Seat("c", 2), Seat("d", 4)])
    assert tied == [3, Fraction(3, 2), Fraction(3, 2), 0]
    assert table_points([Seat("a", 1)] * 3) == [1, 1, 1]


def test_a_bot_takes_a_place_but_never_appears_in_the_standings() -> None:
    rows = standings(["a", "b"], [TableResult(1, (Seat(None, 1), Seat("a", 2), Seat("b", 3)))])
    assert [(r.who, r.points) for r in rows] == [("a", Fraction(1)), ("b", Fraction(0))]
    assert rows[0].buchholz == 0  # the bot's points count for no one


def test_buchholz_then_card_points_then_join_break_ties() -> None:
    joined = ["a", "b", "c", "d", "e", "f"]
    results = [
        TableResult(1, (Seat("a", 1, 50), Seat("b", 2), Seat("c", 3, -50))),
        TableResult(1, (Seat("d", 1, 10), Seat("e", 2), Seat("f", 3, -10))),
        TableResult(2, (Seat("a", 1), Seat("d", 2), Seat("b", 3))),
        TableResult(2, (Seat("e", 1), Seat("c", 2), Seat("f", 3))),
    ]
    rows = standings(joined, results)
    by = {r.who: r for r in rows}
    assert by["a"].points == 4 and by["d"].points == 3 and by["e"].points == 3
    # d met a (4) and b (1) twice-over: a, e, f, b -> Buchholz beats e's
    assert by["d"].buchholz == by["a"].points + by["e"].points + by["f"].points + by["b"].points
    assert [r.who for r in rows][:3] == ["a", "d", "e"]
    # nothing played: the earlier join leads
    assert [r.who for r in standings(joined, [])] == joined


tables = st.lists(st.permutations(["a", "b", "c", "d", "e"]).map(lambda p: p[:4]),
                  min_size=1, max_size=6)


@settings(max_examples=100, deadline=None)
@given(tables, st.lists(st.integers(-100, 100), min_size=4, max_size=4),
       st.lists(st.integers(1, 4), min_size=4, max_size=4))
def test_standings_are_ordered_by_points_buchholz_cards_join(rounds: list[list[str]],
                                                             cards: list[int],
                                                             places: list[int]) -> None:
    joined = ["a", "b", "c", "d", "e"]
    results = [TableResult(i, tuple(Seat(w, sorted(places)[k], cards[k])
                                    for k, w in enumerate(t))) for i, t in enumerate(rounds)]
    rows = standings(joined, results)
    assert sorted(r.who for r in rows) == joined
    keys = [(-r.points, -r.buchholz, -r.card_net, joined.index(r.who)) for r in rows]
    assert keys == sorted(keys)
    total = sum((r.points for r in rows), Fraction(0))
    assert total == sum(sum(table_points(res.seats)) for res in results)
