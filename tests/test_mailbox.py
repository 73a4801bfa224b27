"""The inbox's wait with a deadline: a room waits for its next message or its timer, whichever
comes first (app/mailbox.py)."""

from __future__ import annotations

import asyncio
import time

from app.mailbox import Mailbox


async def test_an_item_that_arrives_in_time_is_taken() -> None:
    box: Mailbox[str] = Mailbox()
    asyncio.get_running_loop().call_later(0.01, box.put, "move")
    assert await box.get_within(1.0) == "move"


async def test_nothing_within_the_delay_gives_none_after_it() -> None:
    box: Mailbox[str] = Mailbox()
    started = time.monotonic()
    assert await box.get_within(0.05) is None
    assert time.monotonic() - started >= 0.05


async def test_a_wake_without_an_item_does_not_end_the_wait_early() -> None:
    box: Mailbox[str] = Mailbox()
    loop = asyncio.get_running_loop()
    loop.call_later(0.01, box.wake)
    loop.call_later(0.03, box.put, "late")
    assert await box.get_within(1.0) == "late"


async def test_waiting_items_come_first_even_past_the_deadline() -> None:
    box: Mailbox[str] = Mailbox()
    box.put("first")
    assert await box.get_within(0.0) == "first"
    assert await box.get_within(0.0) is None


async def test_a_cancelled_wait_leaves_the_item_for_the_next() -> None:
    box: Mailbox[str] = Mailbox()
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
