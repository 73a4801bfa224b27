"""Typed access to the app-wide objects the lifespan builds."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends, Request

from app.bus import Bus
from app.config import Settings
from app.rooms import Hub, RoomRegistry
from app.store.base import RoomStore

from .limits import KeyedRateLimiter


@dataclass(slots=True)
class Services:
    settings: Settings
    store: RoomStore
    bus: Bus
    registry: RoomRegistry
    hub: Hub
    unknown_codes: KeyedRateLimiter


def services(request: Request) -> Services:
    found: Services = request.app.state.services
    return found


ServicesDep = Annotated[Services, Depends(services)]
