"""Rooms opened in-process the way the HTTP route opens them: the creator in seat 0, the host."""

from __future__ import annotations

from typing import Any

from app.rooms import RoomRegistry
from app.rooms.codes import new_token, token_hash
from app.rooms.spec import RoomSpec, SeatSpec


async def open_room(registry: RoomRegistry, name: str, *, player_key: str | None = None,
                    creator: str | None = None, **spec: Any) -> tuple[str, int, str]:
    """A new room with ``name`` in seat 0: (code, seat, token), as ``POST /api/rooms``."""
    token = new_token()
    seat = SeatSpec(name, token_hash(token), await registry.profile_id(player_key))
    code = await registry.create(RoomSpec(seats=(seat,), **spec), creator=creator)
    return code, 0, token
