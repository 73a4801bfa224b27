"""Tournaments as HTTP handlers and sockets use them, on any worker: open one, join, look, and
the host's and participants' commands. A change is made by compare-and-set on the stored course
(read, change, write if nobody wrote meanwhile, else again), so a command may arrive at any
worker; the rounds' work (opening tables, reading their results) is the owner's alone
(app/tournaments/owner.py), which a change wakes when it runs here.

    service = TournamentService(store, settings)
    code, host_token = await service.create(Opening(name="Friday", rules_of=spec))
    participant, token = await service.join(code, "Ann")
    await service.act(code, Who(host=True), Start())
"""

from __future__ import annotations

import asyncio
import random
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy.exc import IntegrityError

from app.config import Settings
from app.rooms.codes import CODE_ALPHABET, new_token, token_hash
from app.store.tournaments import TournamentRow, TournamentStore

from .commands import NextRound, Remove, Start, TournamentCommand, Who, Withdraw
from .progress import BETWEEN, LOBBY, OVER, Course, TournamentError
from .progress import Settings as CourseSettings
from .record import course_from_json, course_to_json
from .view import tournament_view

CODE_LENGTH = 5  # room codes have 4 letters: no code is both
CHANGE_ATTEMPTS = 20


def new_tournament_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def is_tournament_code(text: str) -> bool:
    return len(text) == CODE_LENGTH and all(ch in CODE_ALPHABET for ch in text.upper())


class NotOwner(TournamentError):
    """Another worker took the tournament over: this one may write nothing more for it."""

    def __init__(self, code: str) -> None:
        super().__init__("unavailable", f"tournament {code} is run by another worker now")


class UnknownTournament(TournamentError):
    def __init__(self, code: str) -> None:
        super().__init__("not_found", f"there is no tournament {code}")


@dataclass(frozen=True, slots=True)
class Opening:
    """A tournament to open: its course's settings and what each table is opened with."""

    name: str
    settings: CourseSettings
    tables: dict[str, Any]  # {"preset", "rules", "fixed", "league"}: each table's RoomSpec
    public: bool = True
    league_id: int | None = None


@dataclass(slots=True)
class Changed:
    """A change made: the course after it, and what the change returned."""

    course: Course
    row: TournamentRow
    value: Any = None
    woken: list[Callable[[str], None]] = field(default_factory=list)


@dataclass(slots=True)
class _Turn:
    """The changes of one tournament waiting on this worker, one at a time."""

    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    users: int = 0


def wall_ms() -> int:
    return int(time.time() * 1000)


class TournamentService:
    def __init__(self, store: TournamentStore, settings: Settings) -> None:
        self.store = store
        self.settings = settings
        # Told of every change made here (the owner, if it runs here; this worker's sockets).
        self.on_change: list[Callable[[str], None]] = []
        # One change at a time per tournament on this worker: thirty phones joining from the
        # party screen's QR code at once would otherwise mostly redo each other's reads.
        self._turns: dict[str, _Turn] = {}

    async def create(self, opening: Opening) -> tuple[str, str]:
        """A new tournament: its code and the host's token (only its hash is kept)."""
        token = new_token()
        course = Course(opening.settings, seed=secrets.token_hex(16))
        for _ in range(20):
            code = new_tournament_code()
            try:
                await self.store.create(
                    code, opening.name, public=opening.public, league_id=opening.league_id,
                    host_token_hash=token_hash(token), rules=opening.tables,
                    record=course_to_json(course))
            except IntegrityError:
                continue  # the code is taken: draw another
            return code, token
        raise TournamentError("server_full", "no free tournament code found; try again")

    async def load(self, code: str) -> tuple[TournamentRow, Course]:
        row = await self.store.load(code.upper()) if is_tournament_code(code) else None
        if row is None:
            raise UnknownTournament(code.upper() if is_tournament_code(code) else "?")
        return row, course_from_json(row.record)

    async def view(self, code: str) -> dict[str, Any]:
        row, course = await self.load(code)
        return tournament_view(row.code, row.name, course)

    async def listing(self) -> list[dict[str, Any]]:
        found = []
        for row in await self.store.public():
            course = course_from_json(row.record)
            found.append({"code": row.code, "name": row.name, "phase": course.phase,
                          "format": course.settings.format, "round": len(course.rounds),
                          "participants": len(course.participants)})
        return found

    async def identify(self, code: str, token: str | None) -> Who | None:
        """Who ``token`` proves in tournament ``code`` (no token: a watcher); None: nobody."""
        row, course = await self.load(code)
        if token is None:
            return Who()
        hashed = token_hash(token)
        if secrets.compare_digest(hashed, row.host_token_hash):
            return Who(host=True)
        for person in course.participants:
            if person.token_hash and secrets.compare_digest(hashed, person.token_hash):
                return Who(participant=person.id)
        return None

    async def join(self, code: str, name: str, player_id: int | None = None
                   ) -> tuple[str, str]:
        """TR-JOIN: a new participant's id and token."""
        token = new_token()
        hashed = token_hash(token)

        def join(course: Course) -> str:
            if len(course.participants) >= self.settings.tournament_people:
                raise TournamentError("tournament_full", "this tournament is full "
                                      f"({self.settings.tournament_people} players)")
            taken = {p.id for p in course.participants}
            participant = next(who for who in iter(lambda: "p" + secrets.token_hex(4), "")
                               if who not in taken)
            course.join(participant, name, hashed, player_id)
            return participant

        changed = await self.change(code, join)
        return str(changed.value), token

    async def act(self, code: str, who: Who, command: TournamentCommand) -> None:
        """A host's or participant's command (TournamentError: refused, nothing changed)."""
        now = wall_ms()

        def apply(course: Course) -> None:
            match command:
                case Start() | NextRound():
                    _host_only(who, command)
                    wanted = LOBBY if isinstance(command, Start) else BETWEEN
                    if course.phase != wanted:
                        raise TournamentError("wrong_phase", _not_now(command, course.phase))
                    course.start_round(now)
                case Remove(participant):
                    _host_only(who, command)
                    course.withdraw(participant)
                case Withdraw():
                    if who.participant is None:
                        raise TournamentError("forbidden", "only a participant may withdraw")
                    course.withdraw(who.participant)

        await self.change(code, apply)

    async def change(self, code: str, work: Callable[[Course], Any], *,
                     generation: int | None = None) -> Changed:
        """Apply ``work`` to the stored course and write it, again on a newer course while
        another write got in first (TournamentError from ``work``: nothing written)."""
        key = code.upper()
        turn = self._turns.setdefault(key, _Turn())
        turn.users += 1
        try:
            async with turn.lock:
                return await self._change(code, work, generation)
        finally:
            turn.users -= 1
            if not turn.users:
                del self._turns[key]

    async def _change(self, code: str, work: Callable[[Course], Any], generation: int | None
                      ) -> Changed:
        for attempt in range(CHANGE_ATTEMPTS):
            if attempt:  # another worker wrote meanwhile: let it finish its turn
                await asyncio.sleep(random.uniform(0, 0.005 * attempt))
            row, course = await self.load(code)
            if row.finished:
                raise TournamentError("wrong_phase", "this tournament is over")
            if generation is not None and row.generation > generation:
                raise NotOwner(row.code)
            value = work(course)
            if await self.store.save(row.code, course_to_json(course), row.revision,
                                     generation=generation, finished=course.phase == OVER):
                for hook in self.on_change:
                    hook(row.code)
                return Changed(course, row, value)
        raise TournamentError("unavailable", "this tournament is changing fast: try again")


def _host_only(who: Who, command: TournamentCommand) -> None:
    if not who.host:
        raise TournamentError("forbidden", f"only the host may send {_name(command)!r}")


def _name(command: TournamentCommand) -> str:
    return {Start: "start", NextRound: "next_round", Remove: "remove"}.get(
        type(command), "withdraw")


def _not_now(command: TournamentCommand, phase: str) -> str:
    if isinstance(command, Start):
        return "the tournament has started already" if phase != OVER else "it is over"
    return "the round is still being played" if phase != OVER else "the tournament is over"
