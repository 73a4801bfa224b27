"""The people of a room besides its seats: named spectators (an identity that outlives a socket,
a worker and a seat change), the queue for the next match (O-QUEUE), join requests
(O-APPROVAL) and bans (O-BAN). Plain data, stored with the room's meta (``RoomMeta.audience``)
and so rebuilt after a failover; the pure handlers change copies of it, never the original.

A person proves who they are by their token (stored only as its hash): a seat's, a named
spectator's or a join request's. The same token carries a person from the queue or a request
to a seat: nothing new has to reach them in secret.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from typing import Any


@dataclass(frozen=True, slots=True)
class Person:
    """Who holds a socket or sent a command: a seat, a named spectator (``spectator``: their id
    in the room), an anonymous spectator (``watcher``: the number its chat lines carry), or a
    person waiting for the host to let them in (``request``, O-APPROVAL)."""

    seat: int | None = None
    spectator: int | None = None
    watcher: int | None = None
    request: int | None = None

    @property
    def seated(self) -> bool:
        return self.seat is not None


@dataclass(slots=True)
class Spectator:
    """A spectator who asked for a token (``POST /api/rooms/{code}/watch``). Whether they are
    connected is the actor's to know (their sockets), not stored."""

    id: int
    name: str | None
    token_hash: str
    player_id: int | None = None
    device: str | None = None  # the hash of the browser's device key (O-BAN)


@dataclass(slots=True)
class JoinAsk:
    """O-APPROVAL: a person waiting for the host to admit them to a seat (or, ``watch``, to
    the stands)."""

    id: int
    name: str
    token_hash: str
    asked_ms: int
    player_id: int | None = None
    device: str | None = None
    watch: bool = False


@dataclass(slots=True)
class Ban:
    """O-BAN: a person the host banned, by what identifies them (never by name or address);
    ``name`` is for the host's list only."""

    name: str
    token_hashes: list[str] = field(default_factory=list)
    player_id: int | None = None
    device: str | None = None

    def matches(self, token_hash: str | None, player_id: int | None,
                device: str | None) -> bool:
        return ((token_hash is not None and token_hash in self.token_hashes)
                or (player_id is not None and player_id == self.player_id)
                or (device is not None and device == self.device))


@dataclass(slots=True)
class Audience:
    spectators: list[Spectator] = field(default_factory=list)
    queue: list[int] = field(default_factory=list)  # spectator ids, first to sit first
    requests: list[JoinAsk] = field(default_factory=list)
    bans: list[Ban] = field(default_factory=list)
    next_id: int = 1  # spectators and requests draw their ids from here

    def spectator(self, spectator_id: int) -> Spectator | None:
        for found in self.spectators:
            if found.id == spectator_id:
                return found
        return None

    def spectator_of_token(self, token_hash: str) -> Spectator | None:
        for found in self.spectators:
            if found.token_hash == token_hash:
                return found
        return None

    def request_of_token(self, token_hash: str) -> JoinAsk | None:
        for found in self.requests:
            if found.token_hash == token_hash:
                return found
        return None

    def banned(self, token_hash: str | None = None, player_id: int | None = None,
               device: str | None = None) -> bool:
        return any(ban.matches(token_hash, player_id, device) for ban in self.bans)

    def queued(self, spectator_id: int) -> int | None:
        """The spectator's place in the queue (0: next to sit), or None."""
        try:
            return self.queue.index(spectator_id)
        except ValueError:
            return None

    def copy(self) -> Audience:
        return Audience([replace(s) for s in self.spectators], list(self.queue),
                        [replace(r) for r in self.requests],
                        [replace(b, token_hashes=list(b.token_hashes)) for b in self.bans],
                        self.next_id)

    def to_dict(self) -> dict[str, Any]:
        return {
            "spectators": [_plain(s) for s in self.spectators],
            "queue": list(self.queue),
            "requests": [_plain(r) for r in self.requests],
            "bans": [{**_plain(b), "token_hashes": list(b.token_hashes)} for b in self.bans],
            "next_id": self.next_id,
        }

    @staticmethod
    def from_dict(data: dict[str, Any] | None) -> Audience:
        """As ``to_dict`` wrote it; a meta stored before people were kept has none."""
        if not data:
            return Audience()
        return Audience(
            [Spectator(**s) for s in data.get("spectators", [])],
            [int(s) for s in data.get("queue", [])],
            [JoinAsk(**r) for r in data.get("requests", [])],
            [Ban(**{**b, "token_hashes": list(b.get("token_hashes", []))})
             for b in data.get("bans", [])],
            int(data.get("next_id", 1)),
        )


def _plain(item: Spectator | JoinAsk | Ban) -> dict[str, Any]:
    return {f.name: getattr(item, f.name) for f in fields(item)}
