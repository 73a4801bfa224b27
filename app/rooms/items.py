"""What a room's inbox holds."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from typing import Any

from .commands import ClientCommand
from .hub import Viewer


@dataclass(frozen=True, slots=True)
class JoinRequest:
    """Take the next free seat: ``name`` made safe at the edge; ``player_key`` proves a
    profile (never stored)."""

    name: str
    player_key: str | None = None


@dataclass(slots=True)
class Item:
    kind: str  # command | join | connect | disconnect | sync | bot | host_check | idle_check
    seat: int | None = None
    command: ClientCommand | None = None  # kind "command"
    seen: int | None = None  # kind "command": the last seq its sender had seen
    join: JoinRequest | None = None  # kind "join"
    viewer: Viewer | None = None
    since: int | None = None
    future: asyncio.Future[Any] | None = None
    arrived: float = field(default_factory=time.perf_counter)
