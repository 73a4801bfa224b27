"""Quick match: which rooms a person asking to "play now" may be seated in, best first. A room
qualifies when it is public, plays the official rules untouched, waits for players in its
lobby with a seat free, and lets anyone in (no approval, no league, no tournament); the
fullest goes first (the sooner it can start), then the oldest. Pure: read from the room list's
summaries."""

from __future__ import annotations

from functools import cache
from typing import Any

from app.engine import preset

from .meta import LOBBY


@cache
def official_rules() -> dict[str, Any]:
    return preset("official").to_dict()


def candidates(rooms: list[dict[str, Any]]) -> list[str]:
    """The codes of the rooms a quick match may seat someone in, best first."""
    fitting = [room for room in rooms
               if room.get("public") and room.get("phase") == LOBBY and room.get("open")
               and room.get("preset") == "official" and room.get("rules") == official_rules()
               and not room.get("approval") and room.get("tournament") is None
               and room.get("league") is None
               and int(room.get("players", 0)) < int(room.get("max_players", 0))]
    fitting.sort(key=lambda room: (-int(room["players"]), int(room.get("created_ms") or 0),
                                   room["code"]))
    return [room["code"] for room in fitting]
