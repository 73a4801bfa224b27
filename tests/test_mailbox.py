"""A room's inbox waits with a deadline: a room waits for its next message or its turn's clock
(O-TIMER), whichever comes first (app/mailbox.py)."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from app.mailbox import Inbox, Mailbox


async def test_an_item_that_arrives_in_time_is_taken() -> None:
    box: Inbox[str] = Inbox()
    asyncio.get_running_loop().call_later(0.01, box.put, "move")
    assert await box.get_within(1.0) == "move"


async def test_nothing_within_the_delay_gives_none_after_it() -> None:
    box: Inbox[str] = Inbox()
    started = time.monotonic()
    assert await box.get_within(0.05) is None
    assert time.monotonic() - started >= 0.05


async def test_a_wake_without_an_item_does_not_end_the_wait_early() -> None:
    box: Inbox[str] = Inbox()
    loop = asyncio.get_running_loop()
    loop.call_later(0.01, box.wake)
    loop.call_later(0.03, box.put, "late")
    assert await box.get_within(1.0) == "late"


async def test_waiting_items_come_first_even_past_the_deadline() -> None:
    box: Inbox[str] = Inbox()
    box.put("first")
    assert await box.get_within(0.0) == "first"
    assert await box.get_within(0.0) is None


async def test_a_cancelled_wait_leaves_the_item_for_the_next() -> None:
    box: Inbox[str] = Inbox()
    waiting = asyncio.create_task(box.get_within(5.0))
    await asyncio.sleep(0.01)
    waiting.cancel()
    box.put("kept")
    assert await box.get_within(None) == "kept"


async def test_an_arrival_is_done_once_an_item_is_put_or_at_once_if_one_waits() -> None:
    box: Mailbox[str] = Mailbox()
    arrival = box.arrival()
    assert not arrival.done()
    box.put("a")
    assert arrival.done()
    assert box.take() == "a"
    box.put("b")
    assert box.arrival().done()  # an item waits already


async def test_a_later_deadline_is_kept_though_an_earlier_wait_set_a_timer() -> None:
    box: Inbox[str] = Inbox()
    loop = asyncio.get_running_loop()
    loop.call_later(0.01, box.put, "move")
    assert await box.get_within(0.05) == "move"  # its timer (at 0.05 s) is still set
    started = time.monotonic()
    assert await box.get_within(0.15) is None  # that timer rings first: the wait goes on
    assert time.monotonic() - started >= 0.15


async def test_an_earlier_deadline_than_the_timer_set_before_is_kept() -> None:
    box: Inbox[str] = Inbox()
    asyncio.get_running_loop().call_later(0.01, box.put, "move")
    assert await box.get_within(5.0) == "move"  # a timer at 5 s stays set
    started = time.monotonic()
    assert await box.get_within(0.05) is None
    assert time.monotonic() - started < 1.0


async def test_a_room_sets_no_timer_per_message_while_its_deadline_only_moves_later() -> None:
    box: Inbox[str] = Inbox()
    loop = asyncio.get_running_loop()
    timers = 0
    call_at = loop.call_at

    def counted(when: float, callback: Any, *args: Any) -> asyncio.TimerHandle:
        nonlocal timers
        timers += 1
        return call_at(when, callback, *args)

    loop.call_at = counted  # type: ignore[method-assign, assignment]
    try:
        for n in range(50):  # a message each turn, each turn's clock 30 s
            loop.call_soon(box.put, f"move {n}")
            assert await box.get_within(30.0) == f"move {n}"
    finally:
        del loop.call_at
        box.close()
    assert timers == 1
