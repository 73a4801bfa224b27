"""POST /api/quick: "Play now". A seat in the fullest public official room waiting for players
(app/rooms/quick.py chooses), on any worker, or in a new one when none has a seat."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, Request

from app.codes import Err
from app.rooms import RoomError
from app.rooms.codes import new_token, token_hash
from app.rooms.messages import JoinRequest
from app.rooms.quick import candidates
from app.rooms.spec import RoomSpec, SeatSpec

from .deps import ServicesDep
from .rooms import count_room, count_token, device_hash
from .schemas import ERRORS, QuickMatch, SeatGranted

router = APIRouter(prefix="/api/quick", tags=["rooms"], responses=ERRORS)

# The room a quick match just joined or made is full or listed by the time the next one looks:
# one at a time on a worker, or two at once would each open a room of one.
_ONE_AT_A_TIME = asyncio.Lock()
# A room that filled up, started or banned this person between the list and the join.
_MOVED_ON = frozenset({Err.ROOM_FULL, Err.ALREADY_STARTED, Err.BANNED})


@router.post("", response_model=SeatGranted)
async def quick_match(body: QuickMatch, request: Request,
                      services: ServicesDep) -> dict[str, Any]:
    """A seat now: in the fullest public official room waiting for players, or in a new one
    (public, official rules) where this person is the host."""
    client = services.client(request)
    count_token(services, client)
    registry = services.registry
    device = device_hash(body.device)
    async with _ONE_AT_A_TIME:
        for code in candidates(await registry.listed_rooms()):
            room = await registry.get(code)
            if room is None:
                continue
            try:
                granted = await room.join(JoinRequest(body.name, body.player_key, device))
            except RoomError as exc:
                if exc.code in _MOVED_ON:
                    continue
                raise
            if granted.seat is not None:
                return {"code": room.code, "seat": granted.seat, "token": granted.token}
        count_room(services, client)
        token = new_token()
        host = SeatSpec(body.name, token_hash(token), await registry.profile_id(body.player_key),
                        device=device)
        code = await registry.create(RoomSpec(seats=(host,)), creator=client)
    return {"code": code, "seat": 0, "token": token}
