"""This worker's tournament sockets: each gets a state of the tournament when it connects and,
whenever the stored course changes (here or on another worker), the events of the change and
a fresh state. Their participants are marked present in the store for the owner, wherever it
runs, to seat them as present (TR-ABSENT).

    watch = TournamentWatch(service, settings)
    await watch.follow("QWERT", follower)   # follower.send(frame) for every frame
    watch.unfollow("QWERT", follower)
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any, Protocol

from app.config import Settings
from app.jsonwire import compact_json

from .commands import Who
from .progress import Course
from .service import TournamentService, UnknownTournament
from .ticks import tick
from .view import changes, table_of, tournament_view

log = logging.getLogger("uno.tournaments")


class Follower(Protocol):
    @property
    def who(self) -> Who: ...

    @property
    def token(self) -> str | None: ...

    def send(self, frame: str) -> None:
        """Queue ``frame`` for the socket (never waits)."""


def stamped(view: dict[str, Any]) -> dict[str, Any]:
    """The view with the server's clock (``now_ms``), as a room's state has it."""
    return {**view, "now_ms": int(time.time() * 1000)}


def you(course: Course, follower: Follower) -> dict[str, Any]:
    who = follower.who
    table = table_of(course, who.participant)
    return {"participant": who.participant, "host": who.host,
            "table": None if table is None else {"room": table.room, "token": follower.token}}


def state_frame(view: dict[str, Any] | str, course: Course, follower: Follower) -> str:
    """A state frame for ``follower``; ``view`` may come encoded already (one encoding for
    every socket of a tournament, only ``you`` apart)."""
    encoded = view if isinstance(view, str) else compact_json(view)
    return (f'{{"type":"state","state":{encoded[:-1]},"you":'
            f'{compact_json(you(course, follower))}}}}}')


class TournamentWatch:
    def __init__(self, service: TournamentService, settings: Settings) -> None:
        self._service = service
        self._settings = settings
        self._followers: dict[str, set[Follower]] = {}
        self._sent: dict[str, tuple[int, Course]] = {}  # the revision each code's sockets saw
        self._wake = asyncio.Event()
        service.on_change.append(lambda code: self._wake.set())

    def connected(self, code: str) -> set[str]:
        """The participants of ``code`` with a socket open here."""
        return {f.who.participant for f in self._followers.get(code, ())
                if f.who.participant is not None}

    def sockets(self) -> int:
        return sum(len(followers) for followers in self._followers.values())

    async def follow(self, code: str, follower: Follower) -> None:
        row, course = await self._service.load(code)
        self._followers.setdefault(row.code, set()).add(follower)
        self._sent.setdefault(row.code, (row.revision, course))
        seen, shown = self._sent[row.code]
        if seen != row.revision:  # the others get this version's events at the next look
            course = shown
        follower.send(state_frame(stamped(tournament_view(row.code, row.name, course)),
                                  course, follower))
        if follower.who.participant is not None:
            self._wake.set()  # marked present before the owner next seats a table

    def unfollow(self, code: str, follower: Follower) -> None:
        followers = self._followers.get(code)
        if followers is None:
            return
        followers.discard(follower)
        if not followers:
            del self._followers[code]
            self._sent.pop(code, None)

    async def run(self) -> None:
        await tick(self.look, self._wake, self._settings.tournament_seconds,
                   "tournament sockets: a look")

    async def look(self) -> None:
        """Tell each tournament's sockets what changed; mark their participants present."""
        for code in list(self._followers):
            present = self.connected(code)
            if present:
                await self._service.store.mark_seen(code, present)
            await self.refresh(code)

    async def refresh(self, code: str) -> None:
        try:
            row, course = await self._service.load(code)
        except UnknownTournament:
            return
        seen = self._sent.get(code)
        if seen is not None and seen[0] == row.revision:
            return
        if code not in self._followers:
            return
        self._sent[code] = (row.revision, course)
        frames = [compact_json({"type": "event", "event": event})
                  for event in changes(seen[1] if seen else None, course)]
        view = compact_json(stamped(tournament_view(row.code, row.name, course)))
        for follower in list(self._followers.get(code, ())):
            for frame in frames:
                follower.send(frame)
            follower.send(state_frame(view, course, follower))
