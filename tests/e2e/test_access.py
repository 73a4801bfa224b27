"""Everyone at the table: axe-core (through axe-playwright-python, every rule it runs by default,
WCAG 2.1 A and AA among them) finds nothing on any screen, in English, Korean and Ukrainian:
home, lobby (with the host's rules form), a table mid-round (with the keys overlay and the
log's drawer open), the colour choice, round over, the podium, the party screen, the watch
page, leagues, history and a replay; in the light palette, and again in the dark one, in
high contrast and on a phone."""

from __future__ import annotations

import json
from typing import Any, Literal

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page, expect

from .conftest import PageFactory, Server, open_log, shot

AXE = Axe()
# Room A: Ann calls UNO, plays the Wild (the colour choice), Bea cannot follow and draws, Ann
# goes out: the round is over, the match (to 500) is not.
ROUND = {"dealer": 1, "hands": [["W", "G1"], ["B5", "B6", "B7"]], "discard": "R5",
         "draw_pile": ["B9", "B8", "Y3", "Y4"]}
# Room B: one card each way to the podium (a target of 1 point).
MATCH = {"dealer": 1, "hands": [["R1"], ["G4", "Y6"]], "discard": "R5", "draw_pile": []}


def violations(page: Page) -> list[str]:
    found: list[dict[str, Any]] = AXE.run(page).response["violations"]
    return [f"{v['id']} ({v['impact']}): {v['help']} at {[n['target'] for n in v['nodes']][:4]}"
            for v in found]


def seat_in(server: Server, deal: dict[str, Any], rules: dict[str, Any],
            key: str) -> tuple[str, str, str]:
    room = server.post("/api/rooms", {"name": "Ann", "player_key": key, "deal": deal,
                                      "rules": rules})
    bea = server.post(f"/api/rooms/{room['code']}/join", {"name": "Bea"})
    return room["code"], room["token"], bea["token"]


LOOKS: dict[str, tuple[Literal["light", "dark"], dict[str, str], tuple[int, int]]] = {
    "light": ("light", {}, (1280, 860)), "dark": ("dark", {}, (1280, 860)),
    "dark-high-contrast": ("dark", {"uno.contrast": "more"}, (1280, 860)),
    "light-phone": ("light", {}, (390, 844)),
}


@pytest.mark.parametrize(("lang", "look"), [("en", "light"), ("ko", "light"), ("uk", "light"),
                                            ("en", "dark"), ("ko", "dark-high-contrast"),
                                            ("uk", "light-phone")])
def test_axe_finds_nothing_on_any_screen(lang: str, look: str, new_page: PageFactory,
                                         server: Server) -> None:
    found: dict[str, list[str]] = {}
    scheme, storage, screen = LOOKS[look]

    def new_page_in(lang: str, **kwargs: Any) -> Page:
        return new_page(**{"lang": lang, "color_scheme": scheme, "storage": storage,
                           "viewport": screen, **kwargs})

    def check(page: Page, screen: str) -> None:
        found[screen] = violations(page)
        if found[screen]:
            shot(page, f"axe-{lang}-{look}-{screen}")

    player = server.post("/api/players", {"name": "Ann"})
    profile = {"name": "Ann", "id": player["id"], "key": player["key"]}
    code, ann_token, bea_token = seat_in(server, ROUND, {"turn_seconds": 120}, player["key"])
    ann = new_page_in(lang, seat=(code, ann_token, 0))
    ann.goto(f"{server.url}/#/")
    ann.evaluate("(p) => localStorage.setItem('uno.profile', p)", json.dumps(profile))
    ann.reload()
    expect(ann.locator("h1")).to_be_visible()
    check(ann, "home")

    ann.goto(f"{server.url}/#/room/{code}")
    bea = new_page_in(lang, seat=(code, bea_token, 1))
    bea.goto(f"{server.url}/#/room/{code}")
    ann.locator(".rules-details summary").click()
    expect(ann.locator(".rules-form")).to_be_visible()
    check(ann, "lobby")
    ann.locator('button[data-key="start"]').click()
    expect(ann.locator("ul.hand button.card")).to_have_count(2)
    check(ann, "table")
    ann.keyboard.press("?")
    expect(ann.locator("dialog.keys-dialog")).to_be_visible()
    check(ann, "keys")
    ann.keyboard.press("Escape")
    open_log(ann)  # a drawer on a laptop's screen, in the page on a phone
    expect(ann.locator("#log-area")).to_be_visible()
    check(ann, "drawer")
    ann.keyboard.press("Escape")

    watcher = new_page_in(lang)
    watcher.goto(f"{server.url}/#/watch/{code}")
    expect(watcher.locator(".discard-pile .card")).to_be_visible()
    check(watcher, "watch")
    tv = new_page_in(lang, viewport=(1920, 1080))
    tv.goto(f"{server.url}/#/tv/{code}")
    expect(tv.locator(".discard-pile .card")).to_be_visible()
    tv.wait_for_function("document.querySelector('.tv-qr img').naturalWidth > 0")
    check(tv, "party")

    ann.locator('button[data-key="uno"]').click()
    ann.locator('ul.hand button[data-card="W"]').click()
    expect(ann.locator(".color-picker")).to_be_visible()
    check(ann, "colour-choice")
    ann.locator('.color-picker button[data-color="G"]').click()
    bea.locator('button[data-key="draw"]').click()
    ann.locator('ul.hand button[data-card="G1"]').click()
    expect(ann.locator("section.results")).to_be_visible()
    check(ann, "round-over")

    code, ann_token, bea_token = seat_in(server, MATCH, {"turn_seconds": 0, "target": 1},
                                         player["key"])
    ann.evaluate("([c, t]) => localStorage.setItem('uno.seat.' + c, JSON.stringify({token: t,"
                 " seat: 0}))", [code, ann_token])
    ann.goto(f"{server.url}/#/room/{code}")
    ann.locator('button[data-key="start"]').click()
    ann.locator('ul.hand button[data-card="R1"]').click()
    expect(ann.get_by_test_id("podium")).to_be_visible()
    check(ann, "podium")
    replay = ann.locator('section.results a[href^="#/match/"]').get_attribute("href")

    league = server.post("/api/leagues", {"name": "Friday", "scoring": "winner_takes"})
    ann.goto(f"{server.url}/#/leagues")
    expect(ann.locator("table").first).to_be_visible()
    check(ann, "leagues")
    ann.goto(f"{server.url}/#/league/{league['id']}")
    expect(ann.locator("h1")).to_be_visible()
    check(ann, "league")
    ann.goto(f"{server.url}/#/history")
    expect(ann.locator("table.history tbody tr").first).to_be_visible()
    check(ann, "history")
    ann.goto(f"{server.url}/{replay}")
    expect(ann.locator(".replay-controls")).to_be_visible()
    for _ in range(5):
        ann.locator(".replay-controls button.primary").click()
    expect(ann.locator(".replay-board .discard-pile")).to_be_visible()
    check(ann, "replay")

    assert {screen: v for screen, v in found.items() if v} == {}
