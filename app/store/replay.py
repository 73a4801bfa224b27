"""Replay: rebuild a recorded match from its seed, rules and command log by re-running the
engine, and compare what comes out with what was recorded.

    report = await replay_match(history, match_id)
    report.ok            # every event and every recorded result came out the same
    report.mismatches    # otherwise, what differed first, in words

The engine is deterministic (its RNG lives in the state), so the same start and the same
commands must give the same events, rounds and result. The room log's format is
app/store/records.py's: the first line is the room's ``start`` record; lines that did not go to
the engine are skipped. Chat events are not compared: they change nothing in the game.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Final

from app.engine import EngineError, Game, RiggedDeal, parse_command, rules_from_dict
from app.engine import events as ev

from .errors import InvalidRequest, NotFound
from .queries import HistoryReads
from .records import engine_seat, goes_to_engine

ENGINE_EVENTS: Final = frozenset(
    value for name, value in vars(ev).items() if name.isupper() and isinstance(value, str)
) - {ev.CHAT}


@dataclass
class Replay:
    """What re-running the engine gave: every ROUND_OVER and the MATCH_OVER (public parts)."""

    rounds: list[dict[str, Any]] = field(default_factory=list)
    result: dict[str, Any] | None = None
    mismatches: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.mismatches


def _plain(value: Any) -> Any:
    """As it reads back from a JSON column (tuples become lists, keys become strings)."""
    return json.loads(json.dumps(value))


def _engine_events(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [
        {"kind": e["kind"], "public": e.get("public"), "private": e.get("private", {})}
        for e in events
        if e.get("kind") in ENGINE_EVENTS
    ]


def rerun(
    seats: int,
    rules: dict[str, Any],
    seed: int,
    deal: dict[str, Any] | None,
    log: list[dict[str, Any]],
) -> Replay:
    """Re-run the engine over a match's log lines (``seq``, ``seat``, ``command``, ``now_ms``,
    ``events``) in order. Pure: no I/O."""
    out = Replay()
    if not log:
        out.mismatches.append("the match has no event log")
        return out
    ruleset = rules_from_dict(rules)
    rigged = RiggedDeal.parse(deal, seats, ruleset.deck) if deal else None
    game, events = Game.start(seats, ruleset, seed, rigged, log[0]["now_ms"])
    _compare(out, log[0], [e.to_dict() for e in events])
    for line in log[1:]:
        command = line["command"]
        if not goes_to_engine(command):
            continue
        try:
            produced = game.apply(engine_seat(line["seat"]), parse_command(command),
                                  line["now_ms"])
        except EngineError as exc:
            out.mismatches.append(f"seq {line['seq']}: the engine refused {command}: {exc}")
            return out
        _compare(out, line, [e.to_dict() for e in produced])
        for event in produced:
            if event.kind == ev.ROUND_OVER:
                out.rounds.append(_plain(event.public))
            elif event.kind == ev.MATCH_OVER:
                out.result = _plain(event.public)
    return out


def _compare(out: Replay, line: dict[str, Any], produced: list[dict[str, Any]]) -> None:
    if out.mismatches:
        return  # after the first difference everything differs: report that one
    if _engine_events(_plain(produced)) != _engine_events(line["events"]):
        out.mismatches.append(f"seq {line['seq']}: the replayed events differ from the log")


def compare_with_record(replay: Replay, match: dict[str, Any]) -> list[str]:
    """Differences between a replay and the recorded match (``HistoryReads.match``)."""
    problems: list[str] = []
    recorded = match["rounds"]
    if len(recorded) != len(replay.rounds):
        problems.append(f"{len(recorded)} rounds recorded, {len(replay.rounds)} replayed")
    for saved, again in zip(recorded, replay.rounds, strict=False):
        expected = {
            "winner": again["winner"],
            "hands": again["hands"],
            "hand_points": again["hand_points"],
            "points": again["points"],
            "totals": again["scores"],
            "places": again.get("places"),
        }
        if {key: saved[key] for key in expected} != expected:
            problems.append(f"round {saved['round']} differs from its replay")
    if match["status"] == "finished":
        if replay.result is None:
            problems.append("the replay never reached the end of the match")
        elif replay.result != match["result"] or replay.result["winners"] != match["winners"]:
            problems.append("the match result differs from its replay")
    elif replay.result is not None:
        problems.append(f"the match is {match['status']} but its replay ended it")
    return problems


async def replay_match(history: HistoryReads, match_id: int) -> Replay:
    """Rebuild a recorded match from the database and compare it with what was recorded."""
    match = await history.match(match_id)
    log = await history.match_events(match_id)
    if match is None or log is None:
        raise NotFound(f"no match {match_id}")
    if match["status"] == "running":
        raise InvalidRequest(f"match {match_id} is still running: its log is not open yet")
    replay = rerun(len(match["players"]), match["rules"], match["seed"], match["deal"], log["log"])
    replay.mismatches.extend(compare_with_record(replay, match))
    return replay
