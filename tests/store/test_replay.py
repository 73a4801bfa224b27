"""Replay: random bot matches under random official rule mixes are recorded the way the room
records them, rebuilt from seed, rules and command log, and come out exactly as recorded."""

from __future__ import annotations

import random
from typing import Any

import pytest

from app.engine import Event, Game, command_to_wire, rules_from_dict
from app.engine import events as ev
from app.engine.commands import NextRound, Play, Timeout
from app.store.base import RoomRecord
from app.store.errors import InvalidRequest
from app.store.history import HistoryStore, MatchPlayer
from app.store.replay import replay_match, rerun
from app.store.sql import SqlRoomStore

MAX_STEPS = 4000


def random_rules(rng: random.Random) -> dict[str, Any]:
    scoring = rng.choice(["winner_takes", "lowest_wins", "lazy"])
    # Small targets: a match ends after a few rounds.
    target = {"winner_takes": rng.randint(30, 80), "lowest_wins": rng.randint(25, 50)}.get(
        scoring, rng.randint(1, 2)
    )
    return rules_from_dict(
        {
            "deck": rng.choice(["modern", "classic", "classic_blank"]),
            "first_card": rng.choice(["official", "number_only"]),
            "challenge": rng.choice(["official", "return", "off"]),
            "scoring": scoring,
            "target": target,
            "hand_size": rng.choice([5, 7]),
            "draw_until_playable": rng.random() < 0.3,
            "must_play_drawn": rng.random() < 0.3,
            "lone_zero_50": rng.random() < 0.3,
        }
    ).to_dict()


class BotTable:
    """A random legal policy driving the engine, recording like the room layer does."""

    def __init__(self, rng: random.Random, rooms: SqlRoomStore, history: HistoryStore) -> None:
        self.rng, self.rooms, self.history = rng, rooms, history
        self.seq = 0
        self.now = 1_000

    async def record(
        self, code: str, seat: int | None, command: dict[str, Any], events: list[Event]
    ) -> int:
        stored = []
        for event in events:
            self.seq += 1
            stored.append({**event.to_dict(), "seq": self.seq})
        if not stored:  # a room-level line still takes a seq
            self.seq += 1
            stored.append({"kind": "player_joined", "public": {}, "private": {}, "seq": self.seq})
        await self.rooms.append(code, RoomRecord(self.seq, seat, command, self.now, stored), None)
        return self.seq

    async def play(self, code: str, seats: int, rules: dict[str, Any], seed: int) -> int:
        game, events = Game.start(seats, rules_from_dict(rules), seed, None, self.now)
        start = {"type": "start", "players": seats, "seed": seed, "rules": rules}
        first = await self.record(code, 0, start, events)
        match_id = await self.history.start_match(
            code,
            seed=seed,
            rules=rules,
            seats=[MatchPlayer(f"bot{s}", bot=True) for s in range(seats)],
            first_seq=first,
        )
        for _ in range(MAX_STEPS):
            self.now += self.rng.randint(50, 4000)
            seat, command = self._choose(game, seats)
            if self.rng.random() < 0.02:
                await self.record(code, None, {"type": "join", "room": True}, [])
            produced = game.apply(0 if seat is None else seat, command, self.now)
            seq = await self.record(code, seat, command_to_wire(command), produced)
            for event in produced:
                if event.kind == ev.ROUND_OVER:
                    await self.history.record_round(match_id, event.public)
                elif event.kind == ev.MATCH_OVER:
                    await self.history.finish_match(match_id, event.public, seq)
                    return match_id
        raise AssertionError(f"no end after {MAX_STEPS} commands")

    def _choose(self, game: Game, seats: int) -> tuple[int | None, Any]:
        deadline = game.deadline_ms
        if deadline is not None and self.rng.random() < 0.03:
            self.now = max(self.now, deadline)
            return None, Timeout()  # the room's timer acts for the waited-on seat
        options = [(s, c) for s in range(seats) for c in game.legal_commands(s)]
        progress = [o for o in options if isinstance(o[1], Play | NextRound)]
        if progress and self.rng.random() < 0.9:  # mostly play: matches stay short
            return self.rng.choice(progress)
        return self.rng.choice(options)


@pytest.mark.parametrize("seed", [12, 13])
async def test_random_bot_matches_replay_exactly_as_recorded(
    seed: int, rooms: SqlRoomStore, history: HistoryStore
) -> None:
    rng = random.Random(seed)
    table = BotTable(rng, rooms, history)
    code = f"BOT{seed}"
    await rooms.create_room(code, {})
    for _ in range(2):  # two matches in one room: each log holds only its own match
        rules = random_rules(rng)
        match_id = await table.play(code, rng.randint(2, 4), rules, rng.randrange(2**31))
        await table.record(code, 1, {"type": "chat", "text": "gg"}, [])
        report = await replay_match(history, match_id)
        assert report.mismatches == [], rules
        match = await history.match(match_id)
        assert match is not None and report.result == match["result"]
        assert len(report.rounds) == len(match["rounds"]) >= 1


async def test_a_replay_from_another_seed_is_caught(
    rooms: SqlRoomStore, history: HistoryStore
) -> None:
    rng = random.Random(5)
    table = BotTable(rng, rooms, history)
    await rooms.create_room("TAMPER", {})
    rules = random_rules(rng)
    match_id = await table.play("TAMPER", 3, rules, 1234)
    log = await history.match_events(match_id)
    assert log is not None
    assert rerun(3, rules, 1234, None, log["log"]).ok
    assert not rerun(3, rules, 1235, None, log["log"]).ok


async def test_a_running_match_cannot_be_replayed_yet(
    rooms: SqlRoomStore, history: HistoryStore
) -> None:
    await rooms.create_room("LIVE", {})
    match_id = await history.start_match(
        "LIVE", seed=1, rules={}, seats=[MatchPlayer("a"), MatchPlayer("b")], first_seq=1
    )
    with pytest.raises(InvalidRequest):
        await replay_match(history, match_id)
