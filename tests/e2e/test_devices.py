"""A phone, a party TV, and a keyboard: the same table works for each."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from .conftest import PageFactory, Server, shot

DEAL = {
    "dealer": 1,
    "hands": [
        ["R1", "G2", "W", "B+2", "Y5", "RS", "G9"],
        ["R6", "G7", "B8", "Y9", "G1", "BR", "W+4"],
    ],
    "discard": "R9",
    "draw_pile": ["B1", "B2", "B3"],
}


def started(server: Server) -> tuple[str, str, str]:
    # Bea never connects: with idle_timeouts 0 her seat waits for her, not played (O-IDLE).
    room = server.post("/api/rooms", {"name": "Ann", "deal": DEAL, "rules": {"idle_timeouts": 0}})
    guest = server.post(f"/api/rooms/{room['code']}/join", {"name": "Bea"})
    return room["code"], room["token"], guest["token"]


def test_a_phone_shows_the_whole_table_without_sideways_scrolling(
    new_page: PageFactory, server: Server
) -> None:
    code, host_token, _ = started(server)
    phone = new_page(seat=(code, host_token, 0), viewport=(390, 844))
    phone.goto(f"{server.url}/#/room/{code}")
    phone.get_by_role("button", name="Start the game").click()
    expect(phone.locator("ul.hand button.card")).to_have_count(7)
    expect(phone.get_by_role("button", name="UNO!")).to_be_visible()
    expect(phone.get_by_role("button", name="Draw", exact=True)).to_be_visible()
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the page scrolls sideways: {width}px"
    box = phone.get_by_role("button", name="Red 1").bounding_box()
    assert box is not None and box["height"] >= 44
    shot(phone, "phone-table")
    phone.goto(f"{server.url}/#/")
    expect(phone.get_by_role("button", name="Create room")).to_be_visible()
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    shot(phone, "phone-home")


def test_tv_mode_is_a_large_spectator_view(new_page: PageFactory, server: Server) -> None:
    code, host_token, _ = started(server)
    host = new_page(seat=(code, host_token, 0))
    host.goto(f"{server.url}/#/room/{code}")
    host.get_by_role("button", name="Start the game").click()
    tv = new_page(viewport=(1920, 1080))
    tv.goto(f"{server.url}/#/tv/{code}")
    expect(tv.get_by_test_id("turn-status")).to_have_text("Ann's turn")
    expect(tv.locator("ul.hand")).to_have_count(0)
    expect(tv.locator("#site-header")).to_be_hidden()
    top = tv.locator(".discard-pile .card").bounding_box()
    assert top is not None and top["width"] >= 120
    host.locator('ul.hand button[data-card="R1"]').click()
    expect(tv.locator(".log-list")).to_contain_text("Ann played Red 1.")
    expect(tv.get_by_test_id("current-color")).to_have_text("Color: red")
    shot(tv, "tv-mode")


def test_the_table_is_playable_by_keyboard(new_page: PageFactory, server: Server) -> None:
    code, host_token, _ = started(server)
    page = new_page(seat=(code, host_token, 0))
    page.goto(f"{server.url}/#/room/{code}")
    start = page.get_by_role("button", name="Start the game")
    start.focus()
    page.keyboard.press("Enter")
    expect(page.locator("ul.hand button.card")).to_have_count(7)
    # The hand can show before the frame with the legal moves: Enter on a card not yet
    # playable does nothing (on a busy machine the Tab and Enter came in between).
    r1 = page.locator('ul.hand button[data-card="R1"]')
    expect(r1).to_have_class(re.compile(r"\bplayable\b"))
    # Tab through the page until a playable card has focus: disabled cards are skipped.
    for _ in range(40):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.dataset.card") == "R1":
            break
    assert page.evaluate("document.activeElement.dataset.card") == "R1"
    page.keyboard.press("Enter")
    expect(page.locator("ul.hand button.card")).to_have_count(6)
    expect(page.get_by_test_id("turn-status")).to_have_text("Bea's turn")
    # Focus stays in the hand (not lost to the page) and is visible.
    assert page.evaluate("document.activeElement.closest('.hand-area') !== null")
    ring = page.evaluate("(() => { const s = getComputedStyle(document.activeElement);"
                         " return [s.outlineStyle, parseFloat(s.outlineWidth)]; })()")
    assert ring[0] != "none" and ring[1] >= 2, f"the focused element shows no focus ring: {ring}"
