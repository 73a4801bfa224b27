"""The room's people in the browser: the queue to the next match (O-QUEUE), rooms by approval
(O-APPROVAL), bans (O-BAN), away seats (O-IDLE) and "Play now"; each as the host or the player
sees it, with axe on the new panels."""

from __future__ import annotations

import json
import re
import urllib.request

from playwright.sync_api import Dialog, Page, expect

from .conftest import PageFactory, Server, shot
from .test_access import violations

# Bea (seat 1) moves first and never plays: her turn runs out and a bot plays it (O-IDLE).
SLOW_BEA = {"dealer": 0, "hands": [["R1", "R2", "R3", "R4", "R5", "R6", "R7"],
                                   ["G1", "G2", "G3", "G4", "G5", "G6", "B1"]],
            "discard": "Y9", "draw_pile": ["Y1", "Y2", "Y3", "Y4", "Y5", "Y6", "Y7", "Y8"]}


def seated(new_page: PageFactory, server: Server, code: str, token: str, seat: int,
           **kwargs: object) -> Page:
    page = new_page(seat=(code, token, seat), **kwargs)
    page.goto(f"{server.url}/#/room/{code}")
    return page


def fits(page: Page) -> bool:
    """Nothing wider than the screen (no sideways scrolling)."""
    return bool(page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"))


def queue_up(new_page: PageFactory, server: Server, code: str, name: str,
             viewport: tuple[int, int] = (1280, 860)) -> Page:
    page = new_page(viewport=viewport)
    page.goto(f"{server.url}/#/watch/{code}")
    panel = page.get_by_test_id("queue-panel")
    panel.get_by_label("Your name").fill(name)
    panel.get_by_role("button", name="Join the queue").click()
    return page


def test_a_spectator_queues_and_takes_the_seat_that_frees(new_page: PageFactory,
                                                          server: Server) -> None:
    room = server.post("/api/rooms", {"name": "Ann", "max_players": 2})
    code = room["code"]
    bea = server.post(f"/api/rooms/{code}/join", {"name": "Bea"})
    ann = seated(new_page, server, code, room["token"], 0, viewport=(1366, 768))
    cy = queue_up(new_page, server, code, "Cy")
    expect(cy.locator(".queue-place")).to_have_text("You are number 1 in the queue.")
    expect(cy.get_by_test_id("live-polite")).to_contain_text("You are number 1 in the queue.")
    dee = queue_up(new_page, server, code, "Dee", viewport=(390, 844))
    expect(dee.locator(".queue-place")).to_have_text("You are number 2 in the queue.")

    people = ann.get_by_test_id("people-panel")
    expect(people.locator(".queue .person-name")).to_have_text(["1. Cy", "2. Dee"])
    assert fits(ann) and fits(dee)
    assert not violations(ann), violations(ann)
    ann.get_by_role("button", name="Move Dee up").click()
    expect(people.locator(".queue .person-name")).to_have_text(["1. Dee", "2. Cy"])
    expect(dee.locator(".queue-place")).to_have_text("You are number 1 in the queue.")
    expect(cy.locator(".queue-place")).to_have_text("You are number 2 in the queue.")

    # Cy leaves the queue herself and joins it again at its end.
    cy.get_by_role("button", name="Leave the queue").click()
    expect(cy.get_by_role("button", name="Join the queue")).to_be_visible()
    expect(people.locator(".queue .person-name")).to_have_text(["1. Dee"])
    cy.get_by_role("button", name="Join the queue").click()
    expect(people.locator(".queue .person-name")).to_have_text(["1. Dee", "2. Cy"])
    ann.get_by_role("button", name="Take Cy off the queue").click()
    expect(people.locator(".queue .person-name")).to_have_text(["1. Dee"])
    expect(cy.locator(".queue-place")).to_contain_text("Join the queue to take a free seat")
    assert not violations(dee), violations(dee)

    # Bea's seat frees: Dee, first in the queue, sits down, and her page is the seat's.
    ann.get_by_role("button", name="Remove Bea").click()
    expect(dee).to_have_url(re.compile(rf"#/room/{code}$"))
    expect(dee.locator(".lobby-panel")).to_contain_text("Waiting for the host to start the game.")
    expect(ann.locator(".lobby-seats")).to_contain_text("Dee")
    dee.reload()  # the seat's token was kept like any other
    expect(dee.locator(".lobby-seats")).to_contain_text("Dee")
    expect(dee.get_by_role("button", name="Leave", exact=True)).to_be_visible()
    assert bea["token"]


def test_the_queue_panel_stays_put_while_the_table_changes(new_page: PageFactory,
                                                           server: Server) -> None:
    """Every frame re-renders the table. A spectator typing a name for the queue keeps the field,
    its focus and caret while others come and go; the Join button is the same element, so a
    click is never split between an old button (mousedown) and a new one (mouseup). Each was
    made anew on every frame before: the CI lost a "Join the queue" click that way."""
    room = server.post("/api/rooms", {"name": "Ann", "max_players": 3})  # full once Cy sits
    code = room["code"]
    ann = seated(new_page, server, code, room["token"], 0)
    dee = new_page(viewport=(390, 844))
    dee.goto(f"{server.url}/#/watch/{code}")
    panel = dee.get_by_test_id("queue-panel")
    field = panel.get_by_label("Your name")
    field.fill("De")
    button = panel.get_by_role("button", name="Join the queue").element_handle()
    for name in ("Bea", "Cy"):  # two seats taken: two frames, two renders of Dee's table
        server.post(f"/api/rooms/{code}/join", {"name": name})
        expect(ann.locator(".lobby-seats")).to_contain_text(name)
    expect(dee.locator(".lobby-seats")).to_contain_text("Cy")
    assert button.evaluate("b => b.isConnected"), "the Join button was made anew"
    expect(field).to_be_focused()
    assert field.evaluate("f => f.selectionStart") == 2
    field.press_sequentially("e")
    button.click()
    expect(dee.locator(".queue-place")).to_have_text("You are number 1 in the queue.")
    queue = ann.get_by_test_id("people-panel").locator(".queue .person-name")
    expect(queue).to_have_text(["1. Dee"])


def test_the_host_admits_one_and_turns_another_away(new_page: PageFactory,
                                                   server: Server) -> None:
    ann = new_page(viewport=(390, 844))
    ann.goto(f"{server.url}/#/")
    ann.get_by_label("Your name").fill("Ann")
    ann.get_by_label("Players need my approval to join").check()
    ann.get_by_role("button", name="Create room").click()
    expect(ann).to_have_url(re.compile(r"#/room/[A-Z0-9]+$"))
    code = ann.url.rsplit("/", 1)[1]

    guests = []
    for name in ("Bea", "Cy"):
        page = new_page()
        page.goto(f"{server.url}/#/room/{code}")
        page.get_by_label("Your name").fill(name)
        page.get_by_role("button", name="Join", exact=True).click()
        expect(page.locator(".waiting-screen")).to_contain_text(
            "Waiting for the host to let you in…")
        guests.append(page)
    bea, cy = guests
    expect(bea.locator(".seats li, .lobby-seats li")).to_have_count(0)  # nothing of the table

    people = ann.get_by_test_id("people-panel")
    expect(ann.get_by_test_id("live-polite")).to_contain_text("Cy asks to play")
    expect(people.locator(".requests .person-name")).to_have_text([re.compile("Bea asks to play"),
                                                         re.compile("Cy asks to play")])
    assert not violations(ann), violations(ann)
    shot(ann, "approval-phone")
    assert fits(ann)
    people.get_by_role("button", name="Admit Bea").click()
    people.get_by_role("button", name="Deny Cy").click()
    expect(bea.locator(".lobby-panel")).to_contain_text("Waiting for the host to start the game.")
    expect(ann.locator(".lobby-seats")).to_contain_text("Bea")
    expect(cy.get_by_role("heading", name="Not admitted")).to_be_visible()
    expect(cy.locator(".waiting-screen")).to_contain_text(
        "The host did not let you into this room.")
    expect(ann.get_by_test_id("people-panel")).to_have_count(0)


def test_a_banned_player_and_a_banned_spectator_are_told_so(new_page: PageFactory,
                                                            server: Server) -> None:
    room = server.post("/api/rooms", {"name": "Ann", "max_players": 2})
    code = room["code"]
    bea = server.post(f"/api/rooms/{code}/join", {"name": "Bea"})
    ann = seated(new_page, server, code, room["token"], 0)
    bea_page = seated(new_page, server, code, bea["token"], 1)
    cy = queue_up(new_page, server, code, "Cy")
    expect(cy.locator(".queue-place")).to_have_text("You are number 1 in the queue.")

    asked: list[str] = []

    def accept(dialog: Dialog) -> None:
        asked.append(dialog.message)
        dialog.accept()

    ann.on("dialog", accept)
    ann.get_by_role("button", name="Ban Cy").click()
    expect(cy.get_by_test_id("connection")).to_have_text("The host banned you from this room.")
    expect(ann.get_by_test_id("people-panel")).to_have_count(0)
    ann.get_by_text("Ban a player").click()
    ann.get_by_role("button", name="Ban Bea").click()
    banned = "The host banned you from this room."
    expect(bea_page.get_by_test_id("connection")).to_have_text(banned)
    expect(ann.locator(".lobby-seats li")).to_have_count(1)
    assert [re.sub(" for good.*", "", a) for a in asked] == ["Ban Cy from this room",
                                                             "Ban Bea from this room"]
    # Cy comes back with another name: the server refuses, and the page says why.
    cy.goto(f"{server.url}/#/")
    cy.goto(f"{server.url}/#/watch/{code}")
    cy.get_by_test_id("queue-panel").get_by_label("Your name").fill("Cyrus")
    cy.get_by_role("button", name="Join the queue").click()
    expect(cy.locator(".notice")).to_contain_text("The host banned you from this room.")


def test_a_seat_goes_away_and_comes_back(new_page: PageFactory, server: Server) -> None:
    room = server.post("/api/rooms", {"name": "Ann", "deal": SLOW_BEA,
                                      "rules": {"turn_seconds": 2, "idle_timeouts": 1}})
    code = room["code"]
    bea = server.post(f"/api/rooms/{code}/join", {"name": "Bea"})
    ann = seated(new_page, server, code, room["token"], 0)
    bea_page = seated(new_page, server, code, bea["token"], 1, viewport=(390, 844))
    ann.locator('button[data-key="start"]').click()
    # Bea lets her turn run out: her seat is away, marked in words for everyone.
    bea_tile = ann.locator('li.seat[data-seat="1"]')
    expect(bea_tile.get_by_test_id("away-badge")).to_have_text(re.compile("away"), timeout=15_000)
    back = bea_page.get_by_role("button", name="I'm back")
    expect(back).to_be_visible()
    expect(bea_page.locator(".away-banner")).to_contain_text(
        "You were away: a bot is playing your seat.")
    assert not violations(bea_page), violations(bea_page)
    back.focus()
    bea_page.keyboard.press("Enter")
    expect(bea_page.get_by_role("button", name="I'm back")).to_have_count(0)
    expect(bea_tile.get_by_test_id("away-badge")).to_have_count(0)


def test_play_now_seats_two_people_at_one_table(new_page: PageFactory, server: Server) -> None:
    codes = []
    for name in ("Quinn", "Rae"):
        page = new_page(lang="uk" if name == "Rae" else "en")
        page.goto(f"{server.url}/#/")
        page.locator("#profile-name").fill(name)
        page.locator("button.play-now").click()
        expect(page).to_have_url(re.compile(r"#/room/[A-Z0-9]+$"))
        expect(page.locator(".lobby-seats")).to_contain_text(name)
        codes.append(page.url.rsplit("/", 1)[1])
        if name == "Quinn":
            with urllib.request.urlopen(f"{server.url}/api/rooms/{codes[0]}", timeout=10) as answer:
                first = json.load(answer)
    # Quinn's room still had a free seat (other tests' public rooms may be fuller): Rae sits there.
    if first["players"] < first["max_players"]:
        assert codes[0] == codes[1]
        expect(page.locator(".lobby-seats")).to_contain_text("Quinn")


def test_a_spectator_asks_to_watch_a_room_by_approval_and_is_let_in(new_page: PageFactory,
                                                                     server: Server) -> None:
    room = server.post("/api/rooms", {"name": "Ann", "approval": True, "approval_watch": True})
    code = room["code"]
    ann = seated(new_page, server, code, room["token"], 0)
    eve = new_page(viewport=(390, 844))
    eve.goto(f"{server.url}/#/watch/{code}")
    expect(eve.get_by_role("heading", name=f"Ask to watch room {code}")).to_be_visible()
    assert not violations(eve), violations(eve)
    eve.get_by_label("Your name").fill("Eve")
    eve.get_by_role("button", name="Ask to watch").click()
    expect(eve.locator(".waiting-screen")).to_contain_text("Waiting for the host to let you in…")
    people = ann.get_by_test_id("people-panel")
    expect(people.locator(".requests .person-name")).to_have_text([re.compile("Eve")])
    people.get_by_role("button", name="Admit Eve").click()
    expect(eve.locator(".waiting-screen")).to_have_count(0)
    expect(eve.locator(".lobby-seats")).to_contain_text("Ann")  # the table, as a spectator
    assert fits(eve)
