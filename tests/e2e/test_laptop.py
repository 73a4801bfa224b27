"""A laptop's screen holds the whole table: at 1366x768 and 1280x720, with a 20-card hand and
the colour choice open, every opponent, both piles, whose turn and its clock, every card of the
hand (in one row or two) and every action are on the screen, and the page does not scroll. A
longer hand scrolls sideways on its own; the layout holds at 200 % text; the party screen fills
a 4K screen as it fills 1080p."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Locator, Page, expect

from .conftest import PageFactory, Server, shot

HAND20 = ["R1", "R2", "R3", "R4", "R5", "Y1", "Y2", "Y3", "Y4", "Y5",
          "G1", "G2", "G3", "G4", "G5", "B1", "B2", "B3", "W", "W+4"]
OPPONENTS = [["R9", "G9", "B9"], ["Y9", "Y8", "G8"], ["B8", "R8", "B7"], ["R6", "G6", "B6"],
             ["Y7", "G7", "Y6"]]
NAMES = ["Ann", "Bea", "Cid", "Dan", "Eve", "Flo"]


def table_with(server: Server, hand: list[str]) -> tuple[str, str]:
    """Ann (seat 0, to play first) and five opponents who are away."""
    deal = {"dealer": 5, "hands": [hand, *OPPONENTS], "discard": "R7",
            "draw_pile": ["B5", "B4", "Y0", "G0"]}
    room = server.post("/api/rooms", {"name": NAMES[0], "deal": deal, "max_players": 6,
                                      "rules": {"turn_seconds": 120}})
    for name in NAMES[1:]:
        server.post(f"/api/rooms/{room['code']}/join", {"name": name})
    return room["code"], room["token"]


def at_table(new_page: PageFactory, server: Server, hand: list[str],
             viewport: tuple[int, int]) -> Page:
    code, token = table_with(server, hand)
    page = new_page(seat=(code, token, 0), viewport=viewport, color_scheme="dark")
    page.goto(f"{server.url}/#/room/{code}")
    page.locator('button[data-key="start"]').click()
    expect(page.locator("ul.hand button.card")).to_have_count(len(hand))
    return page


def box(locator: Locator) -> dict[str, Any]:
    found = locator.bounding_box()
    assert found is not None, f"{locator} is not shown"
    return dict(found)


def outside(page: Page, locators: dict[str, Locator]) -> list[str]:
    """The named elements (each match of each locator) not wholly inside the viewport."""
    width, height = page.viewport_size["width"], page.viewport_size["height"]  # type: ignore[index]
    out = []
    for name, locator in locators.items():
        matches = locator.all()
        assert matches, f"no {name} on the page"
        for i, element in enumerate(matches):
            b = box(element)
            if b["x"] < 0 or b["y"] < 0 or b["x"] + b["width"] > width + 0.5 \
                    or b["y"] + b["height"] > height + 0.5:
                out.append(f"{name}[{i}] at {b}")
    return out


def page_scrolls(page: Page) -> bool:
    page.mouse.move(300, 300)
    page.mouse.wheel(400, 600)
    page.wait_for_timeout(100)
    moved: bool = page.evaluate(
        "scrollX !== 0 || scrollY !== 0 || document.scrollingElement.scrollHeight > innerHeight"
        " || document.scrollingElement.scrollWidth > innerWidth")
    return moved


@pytest.mark.parametrize("viewport", [(1366, 768), (1280, 720)])
def test_the_whole_table_fits_a_laptops_screen_with_20_cards_and_the_colour_choice(
    viewport: tuple[int, int], new_page: PageFactory, server: Server
) -> None:
    page = at_table(new_page, server, HAND20, viewport)
    page.locator('ul.hand button[data-card="W"]').click()
    picker = page.locator(".color-picker")
    expect(picker).to_be_visible()
    expect(picker.locator("button")).to_have_count(5)  # four colours and Cancel
    shot(page, f"laptop-{viewport[0]}x{viewport[1]}-colour-choice", full_page=False)
    assert outside(page, {
        "opponent": page.locator("li.seat"),
        "draw pile": page.locator(".draw-pile .card"),
        "discard pile": page.locator(".discard-pile .card"),
        "turn banner": page.get_by_test_id("turn-banner"),
        "turn clock": page.locator('[data-testid="turn-banner"] [data-timer]'),
        "card of the hand": page.locator("ul.hand button.card"),
        "action": page.locator(".hand-actions button"),
        "colour choice": picker.locator("button"),
        "log drawer switch": page.get_by_test_id("drawer-button"),
    }) == []
    expect(page.locator("li.seat")).to_have_count(5)
    rows = {round(box(item)["y"]) for item in page.locator("ul.hand > li").all()}
    assert len(rows) <= 2, f"the hand takes {len(rows)} rows"
    assert not page_scrolls(page), "the page scrolls"


def test_a_hand_of_more_than_20_cards_is_one_row_that_scrolls_sideways(
    new_page: PageFactory, server: Server
) -> None:
    page = at_table(new_page, server, [*HAND20, "B+2", "BS", "YR", "GS"], (1366, 768))
    hand = page.locator("ul.hand")
    rows = {round(box(item)["y"]) for item in hand.locator("li").all()}
    assert len(rows) == 1
    assert hand.evaluate("(el) => el.scrollWidth > el.clientWidth")
    page.locator('ul.hand button[data-card="R1"]').focus()
    page.keyboard.press("End")  # the arrow keys bring a card in sight
    last = page.locator("ul.hand button.card").last
    expect(last).to_be_focused()
    assert outside(page, {"last card": last}) == []
    assert not page_scrolls(page), "the page scrolls"


def test_the_table_holds_at_200_percent_text(new_page: PageFactory, server: Server) -> None:
    page = at_table(new_page, server, HAND20, (1366, 768))
    page.evaluate("document.documentElement.style.fontSize = '200%'")
    page.locator('ul.hand button[data-card="W"]').click()
    expect(page.locator(".color-picker")).to_be_visible()
    shot(page, "laptop-1366x768-text-200", full_page=False)
    width = page.evaluate("[document.scrollingElement.scrollWidth, innerWidth]")
    assert width[0] <= width[1], f"the page scrolls sideways at 200 % text: {width}"
    for name in ("li.seat", ".discard-pile .card", ".hand-actions button", ".color-picker button",
                 "ul.hand button.card"):
        for element in page.locator(name).all():
            b = box(element)
            assert b["x"] >= 0 and b["x"] + b["width"] <= 1366.5, f"{name} off the side: {b}"
    seat = box(page.locator("li.seat").first)
    assert seat["height"] > 60, "the text did not grow"


def test_the_party_screen_fills_a_4k_screen(new_page: PageFactory, server: Server) -> None:
    player = at_table(new_page, server, HAND20[:7], (1280, 720))
    code = player.url.rsplit("/", 1)[1]
    tv = new_page(viewport=(3840, 2160), color_scheme="dark")
    tv.goto(f"{server.url}/#/tv/{code}")
    expect(tv.locator(".discard-pile .card")).to_be_visible()
    shot(tv, "tv-3840x2160", full_page=False)
    assert outside(tv, {"seat": tv.locator("li.seat"), "discard": tv.locator(".discard-pile .card"),
                        "code": tv.get_by_test_id("tv-code"), "qr": tv.locator(".tv-qr img")}) == []
    assert box(tv.locator(".discard-pile .card"))["width"] >= 240
    assert not page_scrolls(tv)
