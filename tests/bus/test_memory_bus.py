"""The in-process bus: ordered delivery to current subscribers."""

from __future__ import annotations

from typing import Any

from app.bus import InProcessBus


async def test_messages_reach_every_subscriber_in_publish_order() -> None:
    bus = InProcessBus()
    got_a: list[dict[str, Any]] = []
    got_b: list[dict[str, Any]] = []
    bus.subscribe("room:A", got_a.append)
    stop_b = bus.subscribe("room:A", got_b.append)
    await bus.publish("room:A", {"seq": 1})
    stop_b()
    await bus.publish("room:A", {"seq": 2})
    await bus.publish("room:B", {"seq": 99})
    assert got_a == [{"seq": 1}, {"seq": 2}]
    assert got_b == [{"seq": 1}]


async def test_a_failing_subscriber_does_not_stop_the_others() -> None:
    bus = InProcessBus()
    got: list[dict[str, Any]] = []

    def broken(message: dict[str, Any]) -> None:
        raise ValueError("boom")

    bus.subscribe("t", broken)
    bus.subscribe("t", got.append)
    await bus.publish("t", {"n": 1})
    assert got == [{"n": 1}]


async def test_the_in_process_bus_is_always_reachable() -> None:
    assert await InProcessBus().ping()
