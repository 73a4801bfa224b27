"""Typed access to the app-wide objects the lifespan builds."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated

from fastapi import Depends, Request
from starlette.requests import HTTPConnection

from app.bus import Bus
from app.config import Settings
from app.rooms import Hub, RoomRegistry
from app.store.base import RoomStore
from app.tournaments.service import TournamentService
from app.tournaments.watch import TournamentWatch

from .clients import Network, client_address, trusted_networks
from .limits import KeyedRateLimiter, SocketLimits


@dataclass(slots=True)
class ClientLimits:
    """What each client (address) may do, counted apart from every other client."""

    unknown_codes: KeyedRateLimiter  # room codes that do not exist, per minute
    rooms_created: KeyedRateLimiter  # rooms created, per minute
    tokens: KeyedRateLimiter  # seats joined and spectator tokens taken, per minute
    messages: KeyedRateLimiter  # socket messages of one person (or one address's anonymous ones)
    address_messages: KeyedRateLimiter  # socket messages of one address, people included
    sockets: SocketLimits  # open sockets, per person and per address

    @classmethod
    def of(cls, settings: Settings) -> ClientLimits:
        return cls(
            KeyedRateLimiter(settings.unknown_code_rate, 60.0),
            KeyedRateLimiter(settings.rooms_per_minute, 60.0),
            KeyedRateLimiter(settings.tokens_per_minute, 60.0),
            KeyedRateLimiter(settings.client_rate, settings.rate_window_seconds,
                             settings.rate_abuse_extra * 5),
            KeyedRateLimiter(settings.address_rate, settings.rate_window_seconds,
                             settings.rate_abuse_extra * 50),
            SocketLimits(settings.sockets_per_client, settings.sockets_per_person,
                         settings.sockets_per_address),
        )


@dataclass(slots=True)
class Services:
    settings: Settings
    store: RoomStore
    bus: Bus
    registry: RoomRegistry
    hub: Hub
    limits: ClientLimits
    trusted: tuple[Network, ...] = field(default=())
    tournaments: TournamentService | None = None  # None: no database to keep them in
    tournament_watch: TournamentWatch | None = None

    def client(self, connection: HTTPConnection) -> str:
        """The address the limits count this request or socket under."""
        return client_address(connection, self.trusted)


def build_services(settings: Settings, store: RoomStore, bus: Bus, registry: RoomRegistry,
                   hub: Hub) -> Services:
    return Services(settings, store, bus, registry, hub, ClientLimits.of(settings),
                    trusted_networks(settings.trusted_proxies))


def services(request: Request) -> Services:
    found: Services = request.app.state.services
    return found


ServicesDep = Annotated[Services, Depends(services)]
