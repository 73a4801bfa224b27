"""``MatchRecorder`` on the SQL history store (app.store.history)."""

from __future__ import annotations

import re
from typing import Any

from app.store.history import HistoryStore, MatchPlayer

from .meta import RoomMeta

LEAGUE_ID = re.compile(r"[0-9]{1,15}")


class HistoryRecorder:
    def __init__(self, history: HistoryStore) -> None:
        self.history = history

    async def start(self, meta: RoomMeta, seed: int, first_seq: int) -> str:
        seats = []
        taken: set[int] = set()
        for info in meta.seats:
            player_id = info.player_id if info.player_id not in taken else None
            if player_id is not None:
                taken.add(player_id)
            seats.append(MatchPlayer(info.name, player_id, info.bot))
        league = int(meta.league) if meta.league and LEAGUE_ID.fullmatch(meta.league) else None
        match_id = await self.history.start_match(
            meta.code, seed=seed, rules=meta.rules, seats=seats, first_seq=first_seq,
            league_id=league, deal=meta.deal if meta.matches_started == 0 else None,
        )
        return str(match_id)

    async def round_over(self, match: str, result: dict[str, Any]) -> None:
        await self.history.record_round(int(match), result)

    async def match_over(self, match: str, result: dict[str, Any], last_seq: int) -> None:
        await self.history.finish_match(int(match), result, last_seq)

    async def left(self, match: str, seat: int) -> None:
        await self.history.leave_match(int(match), seat)

    async def profile_id(self, key: str | None) -> int | None:
        if not key:
            return None
        profile = await self.history.player_by_key(key)
        return profile.id if profile is not None else None
