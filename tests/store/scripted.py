"""Matches with outcomes chosen in advance, recorded the way the room layer records them:
room log lines through ``SqlRoomStore`` and history through ``HistoryStore``."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from app.store.base import RoomRecord
from app.store.history import HistoryStore, MatchPlayer
from app.store.sql import SqlRoomStore


def hand_worth(points: int) -> list[str]:
    """Number cards worth exactly ``points`` (P-VALUES: face value)."""
    cards = ["G9"] * (points // 9)
    if points % 9:
        cards.append(f"G{points % 9}")
    return cards


def places_of(keys: Sequence[int]) -> list[int]:
    """1-based, best (highest key) first, ties shared."""
    return [1 + sum(1 for other in keys if other > k) for k in keys]


@dataclass
class ScriptedMatch:
    """Rounds as (winner, hand points of every seat); scores follow RULES.md section 7."""

    scoring: str
    target: int
    rounds: list[tuple[int, list[int]]]
    left: dict[int, int] = field(default_factory=dict)  # seat -> leaves after this many rounds
    abandon_after: int | None = None  # rounds played before the room gives up


class Recorder:
    def __init__(self, rooms: SqlRoomStore, history: HistoryStore) -> None:
        self.rooms = rooms
        self.history = history
        self.seq: dict[str, int] = {}

    async def open_room(self, code: str) -> None:
        await self.rooms.create_room(code, {"name": f"room {code}"})
        self.seq[code] = 0
        await self.log(code, None, {"type": "chat", "text": "hello"}, "chat")  # lobby talk

    async def log(
        self, code: str, by: int | None, command: dict[str, Any], kind: str, **public: Any
    ) -> int:
        self.seq[code] += 1
        seq = self.seq[code]
        event = {"kind": kind, "public": public, "private": {}, "seq": seq}
        await self.rooms.append(code, RoomRecord(seq, by, command, seq * 10, [event]), None)
        return seq

    async def play(
        self,
        code: str,
        seats: Sequence[MatchPlayer],
        script: ScriptedMatch,
        league_id: int | None = None,
    ) -> int:
        rules = {"scoring": script.scoring, "target": script.target}
        first = await self.log(code, 0, {"type": "start"}, "round_started", round=1)
        match_id = await self.history.start_match(
            code, seed=42, rules=rules, seats=seats, first_seq=first, league_id=league_id
        )
        n = len(seats)
        scores = [0] * n
        for number, (winner, hand_points) in enumerate(script.rounds, start=1):
            if script.abandon_after is not None and number > script.abandon_after:
                await self.history.abandon_match(match_id)
                return match_id
            for seat, after in script.left.items():
                if after == number - 1:
                    await self.log(code, seat, {"type": "left"}, "seat_left", seat=seat)
                    await self.history.leave_match(match_id, seat)
            if script.scoring == "winner_takes":
                points = [sum(hand_points) if s == winner else 0 for s in range(n)]
            else:
                points = list(hand_points)
            scores = [a + b for a, b in zip(scores, points, strict=True)]
            round_over = {
                "round": number,
                "winner": winner,
                "hands": [hand_worth(p) for p in hand_points],
                "hand_points": hand_points,
                "points": points,
                "scores": list(scores),
            }
            await self.log(code, winner, {"type": "play", "card": "G1"}, "round_over", **round_over)
            await self.history.record_round(match_id, round_over)
            if max(scores) >= script.target:
                break
            await self.log(code, 0, {"type": "next_round"}, "round_started", round=number + 1)
        else:
            raise AssertionError("the script ends before the target is reached")
        keys = scores if script.scoring == "winner_takes" else [-s for s in scores]
        places = places_of(keys)
        losers = [
            s for s in range(n) if script.scoring == "lowest_wins" and scores[s] >= script.target
        ]
        match_over = {
            "winners": [s for s in range(n) if places[s] == 1],
            "losers": losers,
            "places": places,
            "scores": scores,
            "round_wins": [sum(1 for w, _ in script.rounds[:number] if w == s) for s in range(n)],
            "rounds": number,
        }
        last = await self.log(code, None, {"type": "timeout"}, "match_over", **match_over)
        await self.history.finish_match(match_id, match_over, last)
        return match_id
