"""Three players play a rigged round through the UI; a spectator watches it.

The deal (dealer seat 2, so seat 0 starts on a Red 5):
    Ann (0): R7 W G2 G4      Bea (1): R2 B2 W+4      Cid (2): G1 G3 B5
    draw pile, top first: Y4 B8 R8 G8 | R1 R3 | G9 | Y5
Ann plays Red 7; Bea bluffs a Wild Draw Four (she holds red) and picks green; Cid challenges and
Bea draws 4; Cid plays; Ann plays a Wild and picks green; Bea plays; Cid plays his second-to-last
card without UNO and Ann catches him (he draws 2); Ann calls UNO and plays her second-to-last
card; Bea draws a playable Green 9 and keeps it; Cid draws; Ann goes out.
"""

from __future__ import annotations

import re

from playwright.sync_api import Locator, Page, expect

from .conftest import PageFactory, Server, shot

DEAL = {
    "dealer": 2,
    "hands": [["R7", "W", "G2", "G4"], ["R2", "B2", "W+4"], ["G1", "G3", "B5"]],
    "discard": "R5",
    "draw_pile": ["Y4", "B8", "R8", "G8", "R1", "R3", "G9", "Y5"],
}


def hand(page: Page) -> Locator:
    return page.locator("ul.hand button.card")


def card(page: Page, text: str) -> Locator:
    return page.locator(f'ul.hand button.card[data-card="{text}"]')


def seat_tile(page: Page, seat: int) -> Locator:
    return page.locator(f'li.seat[data-seat="{seat}"]')


def log(page: Page) -> Locator:
    return page.locator(".log-list")


def expect_my_turn(page: Page) -> None:
    expect(page.get_by_test_id("turn-status")).to_have_text("Your turn")


def test_a_rigged_round_through_the_ui(new_page: PageFactory, server: Server) -> None:
    room = server.post("/api/rooms", {"name": "Ann", "deal": DEAL, "rules": {"turn_seconds": 120}})
    code = room["code"]
    bea_seat = server.post(f"/api/rooms/{code}/join", {"name": "Bea"})
    cid_seat = server.post(f"/api/rooms/{code}/join", {"name": "Cid"})
    ann = new_page(seat=(code, room["token"], 0))
    bea = new_page(seat=(code, bea_seat["token"], 1))
    cid = new_page(seat=(code, cid_seat["token"], 2))
    watcher = new_page()
    for page in (ann, bea, cid):
        page.goto(f"{server.url}/#/room/{code}")
        expect(page.get_by_test_id("connection")).to_have_text("Connected")
    watcher.goto(f"{server.url}/#/watch/{code}")

    # The lobby: only the host may start.
    expect(ann.get_by_role("button", name="Start the game")).to_be_enabled()
    expect(bea.get_by_text("Waiting for the host to start the game.")).to_be_visible()
    expect(bea.get_by_role("button", name="Start the game")).to_have_count(0)
    shot(ann, "lobby-host")
    ann.get_by_role("button", name="Start the game").click()

    # Ann's turn: her hand is sorted, the playable cards (and only those) are enabled.
    expect_my_turn(ann)
    expect(hand(ann)).to_have_count(4)
    assert [c.get_attribute("data-card") for c in hand(ann).all()] == ["R7", "G2", "G4", "W"]
    expect(card(ann, "R7")).to_be_enabled()
    expect(card(ann, "W")).to_be_enabled()
    expect(card(ann, "G2")).to_be_disabled()
    expect(bea.get_by_test_id("turn-status")).to_have_text("Ann's turn")
    expect(hand(bea)).to_have_count(3)
    for button in hand(bea).all():
        expect(button).to_be_disabled()
    expect(ann.get_by_test_id("current-color")).to_have_text("Color: red")
    expect(seat_tile(ann, 1).locator(".seat-count")).to_have_text("3 cards")
    shot(ann, "table-first-turn")

    # A normal play.
    card(ann, "R7").click()
    expect(hand(ann)).to_have_count(3)
    expect(log(bea)).to_contain_text("Ann played Red 7.")
    expect_my_turn(bea)
    expect(seat_tile(bea, 0).locator(".seat-count")).to_have_text("3 cards")

    # A Wild Draw Four, bluffed: the color picker, then Cid is asked to challenge or accept.
    card(bea, "W+4").click()
    picker = bea.get_by_role("dialog", name=re.compile("Choose a color"))
    expect(picker).to_be_visible()
    shot(bea, "color-picker")
    picker.get_by_role("button", name="green").click()
    expect(cid.get_by_role("button", name="Challenge")).to_be_visible()
    expect(cid.get_by_role("button", name="Accept: draw 4")).to_be_visible()
    expect(cid.locator(".prompt.challenge")).to_contain_text("Bea played a Wild Draw Four on you")
    expect(cid.locator(".prompt.challenge [data-timer]")).to_be_visible()
    expect(ann.get_by_text("Cid may challenge the Wild Draw Four.")).to_be_visible()
    shot(cid, "challenge-prompt")
    cid.get_by_role("button", name="Challenge").click()

    # Guilty: Bea draws 4, Cid sees her hand and plays on green.
    expect(log(cid)).to_contain_text("Cid (you) challenged Bea: guilty!")
    expect(cid.locator(".prompt.reveal")).to_contain_text("Bea's hand")
    expect(cid.locator(".prompt.reveal .card")).to_have_count(2)
    expect(ann.locator(".prompt.reveal")).to_have_count(0)
    expect(hand(bea)).to_have_count(6)
    expect(seat_tile(ann, 1).locator(".seat-count")).to_have_text("6 cards")
    expect_my_turn(cid)
    expect(cid.get_by_test_id("current-color")).to_have_text("Color: green")
    card(cid, "G1").click()

    # A Wild with a color choice.
    expect_my_turn(ann)
    card(ann, "W").click()
    ann.get_by_role("dialog", name=re.compile("Choose a color")).get_by_role(
        "button", name="green"
    ).click()
    expect(log(bea)).to_contain_text("Ann played Wild and chose green.")
    expect(hand(ann)).to_have_count(2)

    expect_my_turn(bea)
    card(bea, "G8").click()

    # Cid plays his second-to-last card and forgets UNO: everyone else may catch him.
    expect_my_turn(cid)
    card(cid, "G3").click()
    catch = ann.get_by_role("button", name="Catch Cid: they did not say UNO")
    expect(catch).to_be_visible()
    expect(bea.get_by_role("button", name="Catch Cid: they did not say UNO")).to_be_visible()
    expect(cid.locator("button.catch")).to_have_count(0)
    expect(watcher.locator("button.catch")).to_have_count(0)
    shot(ann, "catch-button")
    catch.click()
    expect(log(ann)).to_contain_text("Ann (you) caught Cid without UNO")
    expect(ann.locator("button.catch")).to_have_count(0)
    expect(bea.locator("button.catch")).to_have_count(0)
    expect(hand(cid)).to_have_count(3)

    # Ann calls UNO holding two cards, then plays: she is safe.
    expect_my_turn(ann)
    uno = ann.get_by_role("button", name="UNO!")
    expect(uno).to_be_enabled()
    uno.click()
    expect(log(bea)).to_contain_text("Ann called UNO!")
    card(ann, "G2").click()
    expect(seat_tile(bea, 0).locator(".badge.uno")).to_have_text("UNO!")
    expect(seat_tile(bea, 0).locator(".seat-count")).to_have_text("1 card")
    expect(bea.locator("button.catch")).to_have_count(0)
    expect(ann.get_by_role("button", name="UNO called")).to_be_visible()

    # Bea draws a playable card and keeps it.
    expect_my_turn(bea)
    bea.get_by_role("button", name="Draw", exact=True).click()
    expect(bea.locator(".prompt.drawn")).to_contain_text("You drew Green 9. Play it or keep it?")
    expect(bea.get_by_role("button", name="Play it")).to_be_enabled()
    expect(card(bea, "G9")).to_be_enabled()
    expect(card(bea, "R2")).to_be_disabled()
    shot(bea, "drawn-card")
    bea.locator(".prompt.drawn").get_by_role("button", name="Keep it").click()
    expect(log(bea)).to_contain_text("Bea (you) kept the drawn card.")

    # Cid draws an unplayable card: his turn ends by itself.
    expect_my_turn(cid)
    cid.get_by_role("button", name="Draw", exact=True).click()
    expect(hand(cid)).to_have_count(4)

    # The spectator saw it all, and never a hand.
    expect(watcher.get_by_text("You are watching")).to_be_visible()
    expect(watcher.locator("ul.hand")).to_have_count(0)
    expect(watcher.locator("li.seat")).to_have_count(3)
    expect(seat_tile(watcher, 2).locator(".seat-count")).to_have_text("4 cards")
    expect(watcher.get_by_test_id("turn-status")).to_have_text("Ann's turn")
    expect(log(watcher)).to_contain_text("Ann called UNO!")
    shot(watcher, "spectator")

    # Ann goes out: every hand is shown with the points and the totals.
    expect_my_turn(ann)
    card(ann, "G4").click()
    results = bea.locator("section.results")
    expect(results.get_by_role("heading", name="Round 1 is over")).to_be_visible()
    expect(results).to_contain_text("Ann won the round")
    bea_row = results.locator("tbody tr").nth(1)
    expect(bea_row.locator(".card")).to_have_count(6)
    expect(bea_row.locator("td.total")).to_have_text("0")
    expect(results.locator("tbody tr").nth(0).locator("td.total")).to_have_text("47")
    expect(results.locator("tbody tr").nth(2).locator(".card")).to_have_count(4)
    expect(bea.get_by_text("Waiting for the host to deal the next round.")).to_be_visible()
    expect(watcher.locator("section.results")).to_contain_text("Ann won the round")
    shot(bea, "round-results")
    next_round = ann.get_by_role("button", name="Deal the next round")
    expect(next_round).to_be_enabled()
    next_round.click()
    expect(ann.get_by_text("Round 2", exact=True)).to_be_visible()
    expect(hand(ann)).to_have_count(7)  # round 2 is shuffled: Bea starts, maybe on a Draw Two
    expect(bea.get_by_role("heading", name=re.compile(r"^Your hand: [79] cards$"))).to_be_visible()
