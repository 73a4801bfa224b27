"""What a room's inbox holds."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from typing import Any

from .hub import Viewer


@dataclass(slots=True)
class Item:
    kind: str  # command | join | connect | disconnect | sync | bot | host_check | idle_check
    seat: int | None = None
    message: dict[str, Any] | None = None
    viewer: Viewer | None = None
    since: int | None = None
    future: asyncio.Future[Any] | None = None
    arrived: float = field(default_factory=time.perf_counter)
