"""The rounds' work of the tournaments this worker owns: each round's tables opened as rooms
(their people seated, absent ones as away, bots topping them up), their results read once
their match is over, and the course written after each step under this worker's lease.

Every step is read from the stored course and safe to redo, so a worker taking a tournament
over (its owner died, ``kill -9``) carries on where the record says: tables already opened keep
playing (they are rooms, owned as rooms are) and their results are read from them.

    owner = TournamentOwner(service, registry, leases, settings)
    task = asyncio.create_task(owner.run())    # claims unowned tournaments, works on its own
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Any

from app.config import Settings
from app.rooms.errors import RoomError
from app.rooms.registry import RoomRegistry
from app.rooms.spec import RoomSpec, SeatSpec, TableOf
from app.store.errors import StoreError

from .leases import Leases
from .progress import OVER, PLAYING, Course, Participant, Table, TournamentError
from .record import table_outcome
from .service import NotOwner, TournamentService, UnknownTournament

log = logging.getLogger("uno.tournaments")
OPEN_AT_ONCE = 10  # tables opened side by side: a round of 50 is seated in a few crossings
SUMMARY_SECONDS = 3.0  # a table's summary taking longer is asked for again at the next step


def table_spec(tables: dict[str, Any], course: Course, code: str, table: Table,
               present: set[str]) -> RoomSpec:
    """The room a table is: its people (their tokens are their seats'), absent ones away
    (TR-ABSENT), bots; nobody hosts it and nobody else may sit at it."""
    people = {p.id: p for p in course.participants}
    seats: list[SeatSpec] = []
    bots = 0
    for who in table.seats:
        if who is None:
            bots += 1
            seats.append(SeatSpec(f"Bot {bots}", bot=True))
        else:
            person: Participant = people[who]
            seats.append(SeatSpec(person.name, person.token_hash, person.player_id,
                                  away=who not in present))
    league = tables.get("league")
    return RoomSpec(seats=tuple(seats), preset=str(tables.get("preset") or "official"),
                    rules=dict(tables.get("rules") or {}), public=True,
                    max_players=len(seats), fixed_rules=dict(tables.get("fixed") or {}),
                    host=None, table_of=TableOf(code, len(course.rounds)),
                    league=None if league is None else str(league))


class TournamentOwner:
    def __init__(self, service: TournamentService, registry: RoomRegistry, leases: Leases,
                 settings: Settings,
                 connected: Callable[[str], set[str]] | None = None) -> None:
        self._service = service
        self._registry = registry
        self._leases = leases
        self._settings = settings
        self._owned: dict[str, int] = {}  # tournament -> the lease generation it runs under
        self._wake = asyncio.Event()
        # This worker's connected participants of a tournament (app/tournaments/watch.py).
        self._connected: Callable[[str], set[str]] = connected or (lambda code: set())
        leases.on_lost(self._lost)
        service.on_change.append(lambda code: self._wake.set())

    @property
    def owned(self) -> dict[str, int]:
        return self._owned

    def _lost(self, code: str) -> None:
        if self._owned.pop(code, None) is not None:
            log.warning("tournament %s: lease lost; this worker stops running it", code)

    async def run(self) -> None:
        while True:
            try:
                await self.step()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("tournaments: a step failed; trying again")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), self._settings.tournament_seconds)
            self._wake.clear()

    async def close(self) -> None:
        for code in list(self._owned):
            self._owned.pop(code, None)
            with contextlib.suppress(Exception):
                await self._leases.release(code)

    async def step(self) -> None:
        """Claim the tournaments nobody runs, then do what each owned one needs now."""
        if self._registry.draining:
            return
        for code in await self._service.store.unfinished():
            if code not in self._owned:
                await self._claim(code)
        for code, generation in list(self._owned.items()):
            try:
                await self.work(code, generation)
            except NotOwner:
                self._owned.pop(code, None)
            except (StoreError, RoomError, TournamentError) as exc:
                log.warning("tournament %s: %s; trying again", code, exc)

    async def _claim(self, code: str) -> None:
        generation = await self._leases.claim(code)
        if generation is None:
            return
        if not await self._service.store.take_over(code, generation):
            await self._leases.release(code)
            return
        self._owned[code] = generation
        log.info("tournament %s runs here (lease generation %d)", code, generation)

    async def work(self, code: str, generation: int) -> None:
        try:
            row, course = await self._service.load(code)
        except UnknownTournament:
            row = None
        if row is None or row.finished:
            self._owned.pop(code, None)
            await self._leases.release(code)
            return
        if course.phase != PLAYING:
            return
        round_no = len(course.rounds)
        unopened = [table for table in course.rounds[-1] if not table.room]
        for start in range(0, len(unopened), OPEN_AT_ONCE):
            await self._open(code, row.rules, course, unopened[start:start + OPEN_AT_ONCE],
                             generation)
        over = False
        for table in course.rounds[-1]:
            if not table.room or table.result is not None:
                continue
            try:  # a table between workers (its owner died) is read at a later step
                async with asyncio.timeout(SUMMARY_SECONDS):
                    over = await self._read_result(code, round_no, table, generation) or over
            except (RoomError, TimeoutError) as exc:
                log.info("tournament %s: table %s not read now (%r)", code, table.room, exc)
        if over:
            self._owned.pop(code, None)
            await self._leases.release(code)
            log.info("tournament %s is over", code)

    async def _open(self, code: str, tables: dict[str, Any], course: Course,
                    batch: list[Table], generation: int) -> None:
        """Open ``batch``'s tables side by side, then write them into the course at once."""
        present = await self._present(code)
        rooms = await asyncio.gather(*(
            self._registry.create(table_spec(tables, course, code, table, present))
            for table in batch))
        round_no = len(course.rounds)

        def seated(stored: Course) -> None:
            if len(stored.rounds) != round_no:
                return
            for table, room in zip(batch, rooms, strict=True):
                if not stored.rounds[-1][table.number - 1].room:
                    stored.seated(table.number, room, present)

        changed = await self._service.change(code, seated, generation=generation)
        for table in batch:
            table.room = changed.course.rounds[round_no - 1][table.number - 1].room

    async def _present(self, code: str) -> set[str]:
        window = max(5.0, 3 * self._settings.tournament_seconds)
        return await self._service.store.present(code, window) | set(self._connected(code))

    async def _read_result(self, code: str, round_no: int, table: Table, generation: int
                           ) -> bool:
        """Read a table's result once its match is over; True when that ended the
        tournament."""
        handle = await self._registry.get(table.room, known=True)
        if handle is None:
            log.warning("tournament %s: table %d (room %s) is gone", code, table.number,
                        table.room)
            return False
        summary = await handle.summary()
        result = summary.get("result")
        if summary.get("phase") != "match_over" or not result:
            return False
        scoring = str(summary.get("rules", {}).get("scoring", "winner_takes"))
        places, net = table_outcome(scoring, result)

        def finished(stored: Course) -> None:
            if len(stored.rounds) != round_no or stored.phase != PLAYING:
                return
            if stored.rounds[-1][table.number - 1].result is None:
                stored.finish_table(table.number, places, net)

        changed = await self._service.change(code, finished, generation=generation)
        table.result = changed.course.rounds[round_no - 1][table.number - 1].result
        log.info("tournament %s: round %d table %d (room %s) finished", code, round_no,
                 table.number, table.room)
        return changed.course.phase == OVER
