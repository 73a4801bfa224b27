"""Room ownership across workers: a worker runs a room only while it holds the room's lease.

    ownership = Ownership(redis_bus.keys, worker="host-1234", ttl_seconds=5.0)
    generation = await ownership.claim("ABCD")    # RoomError 503 if another worker owns it
    await store.take_over("ABCD", generation)     # fence the store's writes at it
    await ownership.check("ABCD")                 # LeaseLost if the lease moved on
    ownership.run(on_lost)                        # renews every held lease; on_lost(code)

A lease has a short TTL and is renewed every third of it, so a worker that dies (kill -9) loses
its rooms within one TTL and the next worker asked for a room (or its takeover sweep) takes the
lease and rebuilds the room from the store. Every store write is fenced twice: in SQL, by the
lease generation the store took the room over with (the store refuses it once a newer owner took
the room: ``app.store.errors.Fenced``), and before it (``GuardedStore`` with ``check_cached``)
by the lease as this worker last saw it: held, and renewed less than two thirds of a TTL ago
(older: renewed now, one Redis round trip). So a worker frozen past its lease (SIGSTOP) writes
nothing once another worker took the room, even if it wakes between its check and its insert,
and the hot path costs no Redis round trip.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import uuid
from collections.abc import Awaitable, Callable

from app.rooms.placement import RoomElsewhere
from app.store.errors import NotOwner

from .redis_keys import RedisKeys

log = logging.getLogger("uno.rooms")


class LeaseLost(NotOwner):
    """This worker no longer owns the room: it must not write or publish for it."""


class WorkerNameTaken(RuntimeError):
    """Another running process uses this worker's name: both would own the same rooms."""


def lease_key(code: str) -> str:
    return f"room:{code}"


class Ownership:
    def __init__(self, keys: RedisKeys, worker: str, ttl_seconds: float) -> None:
        self.keys = keys
        self.worker = worker
        self.ttl = ttl_seconds
        self.generations: dict[str, int] = {}  # rooms this worker owns -> lease generation
        self._renewed: dict[str, float] = {}  # room -> when its lease was last taken or renewed
        self._renewer: asyncio.Task[None] | None = None
        # Called with a room's code when this worker gives its lease up or finds it lost, before
        # anything else (no await in between): running the room here again takes a new load.
        self.on_release: list[Callable[[str], None]] = []
        # This process's token for its worker name (leases know a worker by name only).
        self.instance = uuid.uuid4().hex

    async def claim_name(self, wait: bool = False) -> None:
        """Hold this worker's name for this process, renewed with the leases: a second process
        started with the same ``UNO_WORKER_ID`` would pass every lease check of this one's
        rooms, so it is refused (WorkerNameTaken) while this one runs. With ``wait`` (at
        start-up) it first waits out a name left by a process that died: it expires within
        one TTL, where a running worker's is renewed every third of one."""
        deadline = time.monotonic() + (self.ttl * 1.5 if wait else 0)
        while not await self.keys.claim_name(self.worker, self.instance, self.ttl):
            if time.monotonic() >= deadline:
                raise WorkerNameTaken(
                    f"worker name {self.worker!r} (UNO_WORKER_ID) is in use by another running "
                    "worker: give every worker process its own name, or leave it unset"
                )
            await asyncio.sleep(self.ttl / 10)

    async def claim(self, code: str) -> int:
        generation = await self.keys.take_lease(lease_key(code), self.worker, self.ttl)
        if generation is None:
            raise RoomElsewhere(code)
        previous = self.generations.get(code)
        if previous is not None and previous != generation:
            log.warning("room %s: lease lapsed and was taken again (generation %d -> %d)",
                        code, previous, generation)
        self.generations[code] = generation
        self._renewed[code] = time.monotonic()
        return generation

    async def live_holder(self, code: str, dead: set[str]) -> tuple[str, int] | None:
        """(owner, generation) of room ``code``'s lease; None when nobody holds it, or only a
        worker in ``dead`` does: a lease that outlived its worker is broken here."""
        key = lease_key(code)
        holder = await self.keys.lease_holder(key)
        if holder is not None and holder[0] in dead:
            await self.keys.release(key, holder[0])
            return None
        return holder

    async def check(self, code: str) -> None:
        """Raise LeaseLost unless this worker still holds the lease it claimed (and renew it)."""
        generation = self.generations.get(code)
        started = time.monotonic()
        if generation is None or not await self.keys.renew(
            lease_key(code), self.worker, generation, self.ttl
        ):
            self._released(code)
            raise LeaseLost(f"room {code}: this worker no longer holds the lease")
        if code in self.generations:
            self._renewed[code] = started

    async def check_cached(self, code: str) -> None:
        """``check``, without a Redis round trip while the lease was renewed recently (the SQL
        fence refuses the writes of an owner whose room was taken over in any case)."""
        renewed = self._renewed.get(code)
        if code not in self.generations or renewed is None:
            raise LeaseLost(f"room {code}: this worker does not hold the lease")
        if time.monotonic() - renewed > self.ttl * 2 / 3:
            await self.check(code)

    async def release(self, code: str) -> None:
        if self._released(code):
            await self.keys.release(lease_key(code), self.worker)

    def _released(self, code: str) -> bool:
        """Forget the lease of ``code``; False if this worker did not hold it."""
        self._renewed.pop(code, None)
        held = self.generations.pop(code, None) is not None
        for hook in self.on_release:
            try:
                hook(code)
            except Exception:
                log.exception("room %s: a lease release hook failed", code)
        return held

    def run(self, on_lost: Callable[[str], Awaitable[None]]) -> None:
        """Renew every held lease each third of the TTL; a lease that cannot be renewed is lost."""
        if self._renewer is None:
            self._renewer = asyncio.create_task(self._renew_loop(on_lost), name="lease renewer")

    async def close(self) -> None:
        if self._renewer is not None:
            self._renewer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._renewer
            self._renewer = None
        for code in list(self.generations):
            with contextlib.suppress(Exception):  # best effort: the TTL ends it anyway
                await self.release(code)
        with contextlib.suppress(Exception):
            await self.keys.release_name(self.worker, self.instance)

    async def _renew_loop(self, on_lost: Callable[[str], Awaitable[None]]) -> None:
        while True:
            await asyncio.sleep(self.ttl / 3)
            try:
                await self.claim_name()
            except WorkerNameTaken as exc:  # this process was frozen past the name's TTL
                log.error("%s", exc)
            except Exception as exc:
                log.warning("worker name not renewed (%r)", exc)
            try:
                lost = await self.renew_all()
            except Exception as exc:  # Redis unreachable: keep trying until the TTL ends
                log.warning("leases not renewed (%r)", exc)
                continue
            for code in lost:
                log.warning("room %s: lease lost; this worker stops running it", code)
                await on_lost(code)

    async def renew_all(self) -> list[str]:
        """Renew every lease held, in one round trip (on a cluster: one per master); the rooms
        whose lease was lost."""
        held = list(self.generations.items())
        started = time.monotonic()
        renewed = await self.keys.renew_many(
            [(lease_key(code), generation) for code, generation in held], self.worker, self.ttl
        )
        lost = []
        for (code, generation), ok in zip(held, renewed, strict=True):
            if self.generations.get(code) != generation or ok is None:
                continue  # released or claimed again meanwhile, or its master did not answer
            if ok:
                self._renewed[code] = started
            else:
                self._released(code)
                lost.append(code)
        return lost


class TournamentLeases:
    """Tournaments' leases (app/tournaments/leases.py ``Leases``) held with the rooms': renewed
    with them, lost with them when this worker freezes or its Redis goes away."""

    def __init__(self, ownership: Ownership) -> None:
        self._ownership = ownership

    async def claim(self, code: str) -> int | None:
        try:
            return await self._ownership.claim(code)
        except RoomElsewhere:
            return None

    async def release(self, code: str) -> None:
        await self._ownership.release(code)

    def on_lost(self, hook: Callable[[str], None]) -> None:
        self._ownership.on_release.append(hook)
