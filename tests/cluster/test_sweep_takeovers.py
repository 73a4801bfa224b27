"""A dead worker's rooms are rebuilt several at a time (each waits on Redis and the store): one
at a time, the 500 rooms of a killed worker took the reconnect storm past 10 s. Rooms a live
worker holds stay where they are."""

from __future__ import annotations

import asyncio
from typing import Any, cast

from app.cluster.leases import lease_key
from app.cluster.sweep import TAKEOVERS_AT_ONCE, Sweep


class Keys:
    def __init__(self, holders: dict[str, tuple[str, int] | None]) -> None:
        self.holders = holders
        self.released: list[str] = []

    async def lease_holders(self, keys: list[str]) -> list[tuple[str, int] | None]:
        return [self.holders[key] for key in keys]

    async def release(self, key: str, worker: str) -> None:
        assert self.holders[key] is not None and self.holders[key][0] == worker  # type: ignore[index]
        self.released.append(key)


class Registry:
    def __init__(self, codes: list[str]) -> None:
        self.codes = codes
        self.running: set[str] = set()
        self.in_flight = 0
        self.most_at_once = 0
        self.store = self

    async def rooms_to_run(self) -> list[str]:
        return self.codes

    def local(self, code: str) -> object | None:
        return code if code in self.running else None

    def loading(self, code: str) -> bool:
        return False

    async def get(self, code: str, known: bool = False) -> object:
        self.in_flight += 1
        self.most_at_once = max(self.most_at_once, self.in_flight)
        await asyncio.sleep(0.01)  # a lease, a fence and a load
        self.in_flight -= 1
        self.running.add(code)
        return code


async def test_a_dead_workers_rooms_are_taken_over_several_at_a_time() -> None:
    dead = [f"D{i:03}" for i in range(40)]
    alive = ["LIVE1", "LIVE2"]
    holders: dict[str, tuple[str, int] | None] = {lease_key(c): ("w0", 1) for c in dead}
    holders.update({lease_key(c): ("w1", 1) for c in alive})
    keys = Keys(holders)
    registry = Registry(dead + alive)
    ownership = cast(Any, type("Ownership", (), {"keys": keys})())
    sweep = Sweep(cast(Any, registry), cast(Any, None), ownership, cast(Any, None), 3.0)

    taken = await sweep.sweep(dead=frozenset({"w0"}))

    assert taken == len(dead)
    assert registry.running == set(dead)  # the live worker's rooms stay with it
    assert sorted(keys.released) == sorted(lease_key(c) for c in dead)
    assert 1 < registry.most_at_once <= TAKEOVERS_AT_ONCE
