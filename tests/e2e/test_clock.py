"""The turn countdown follows the server's clock: a browser whose clock is minutes off still shows
the seconds really left (the state carries the server's now_ms next to deadline_ms)."""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import expect

from .conftest import PageFactory, Server, shot

TURN = 60
DEAL = {"dealer": 1, "hands": [["R1", "G2", "B3"], ["B4", "Y5", "G6"]], "discard": "R9",
        "draw_pile": []}


@pytest.mark.parametrize("skew_minutes", [10, -10])
def test_the_countdown_is_right_on_a_browser_whose_clock_is_off(
    skew_minutes: int, new_page: PageFactory, server: Server
) -> None:
    room = server.post("/api/rooms", {"name": "Ann", "deal": DEAL,
                                      "rules": {"turn_seconds": TURN}})
    server.post(f"/api/rooms/{room['code']}/join", {"name": "Bea"})
    page = new_page(seat=(room["code"], room["token"], 0))
    skew_ms = skew_minutes * 60_000
    page.context.add_init_script(
        f"(() => {{ const real = Date.now.bind(Date); Date.now = () => real() + {skew_ms}; }})()"
    )
    page.goto(f"{server.url}/#/room/{room['code']}")
    assert abs(page.evaluate("Date.now()") - time.time() * 1000 - skew_ms) < 5_000  # really off
    page.locator('button[data-key="start"]').click()
    expect(page.get_by_test_id("turn-status")).to_have_text("Your turn")
    started = time.monotonic()
    timer = page.locator(".turn-status .timer-text")
    expect(timer).to_have_text(re.compile(rf"^({TURN}|{TURN - 1}|{TURN - 2})$"))  # all of it

    # Mid-turn, a reload gets a state whose deadline is already 4 s nearer: the countdown starts
    # from what is left on the server's clock, not from the full turn, nor from 0.
    time.sleep(4)
    page.reload()
    expect(page.get_by_test_id("turn-status")).to_have_text("Your turn")
    expect(timer).not_to_have_text("")
    shown = int(timer.inner_text())
    elapsed = time.monotonic() - started
    # Not the full turn (a clock read as behind) nor 0 (read as ahead): the seconds really left,
    # give or take the time the start took to show on a busy machine.
    assert TURN - elapsed - 5 <= shown <= TURN - 3, (shown, elapsed)
    label = page.locator(".turn-status [data-timer]").get_attribute("aria-label") or ""
    match = re.fullmatch(r"Time left: (\d+) seconds", label)
    assert match and shown - 2 <= int(match[1]) <= shown, label
    shot(page, f"clock-skew-{skew_minutes:+d}min")
