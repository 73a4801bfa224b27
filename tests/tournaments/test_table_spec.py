"""A tournament's table as the room it opens: its people seated with their own tokens (absent
ones away, TR-ABSENT), bots after them, nobody hosting, no seat for anyone else, the
tournament's fixed rules and league."""

from __future__ import annotations

from app.rooms.codes import token_hash
from app.tournaments.owner import table_spec
from app.tournaments.progress import Course, Settings


def test_a_table_seats_its_people_by_their_tokens_absent_ones_away_then_bots() -> None:
    course = Course(Settings(table_size=4), seed="s")
    for who in ("a", "b"):
        course.join(who, who.upper(), token_hash(f"token-{who}"), player_id=None)
    table = course.start_round()[0]
    assert sorted(p for p in table.seats if p) == ["a", "b"] and table.seats.count(None) == 1
    tables = {"preset": "official", "rules": {"jump_in": True}, "fixed": {"round_limit": 1},
              "league": 7}
    spec = table_spec(tables, course, "QWERT", table, present={"a"})
    by_name = {seat.name: seat for seat in spec.seats}
    assert by_name["A"].token_hash == token_hash("token-a") and not by_name["A"].away
    assert by_name["B"].away and not by_name["B"].bot
    assert spec.seats[-1].bot and spec.seats[-1].token_hash == ""
    assert spec.host is None and spec.max_players == 3
    assert spec.fixed_rules == {"round_limit": 1} and spec.league == "7"
    assert spec.table_of is not None and spec.table_of.to_dict() == {"code": "QWERT", "round": 1}
    assert spec.ruleset().to_dict()["round_limit"] == 1
