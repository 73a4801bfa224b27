"""The lobby: a guest profile, creating a room with rules, joining by a shared link, the host's
controls, the public rooms list, refused house rules, and names that stay plain text."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from .conftest import PageFactory, Server, say, shot


def create_room_through_the_form(page: Page, server: Server, name: str) -> str:
    page.goto(f"{server.url}/#/")
    page.get_by_label("Your name").fill(name)
    page.get_by_role("button", name="Create room").click()
    expect(page).to_have_url(re.compile(r"#/room/[A-Z0-9]+$"))
    return page.url.rsplit("/", 1)[1]


def test_create_share_join_and_host_controls(new_page: PageFactory, server: Server) -> None:
    host = new_page()
    code = create_room_through_the_form(host, server, "Hana")
    expect(host.get_by_role("heading", name=f"Room {code}")).to_be_visible()
    expect(host.locator(".lobby-seats li")).to_have_count(1)
    expect(host.get_by_role("button", name="Start the game")).to_be_disabled()
    link = host.locator("input.share-link").input_value()
    assert link.endswith(f"#/room/{code}")

    # A friend opens the shared link, gives a name and sits down.
    guest = new_page()
    guest.goto(link)
    expect(guest.get_by_text(f"You are not seated in room {code} yet.")).to_be_visible()
    guest.get_by_label("Your name").fill("Oleh")
    guest.get_by_role("button", name="Join", exact=True).click()
    expect(guest.get_by_text("Waiting for the host to start the game.")).to_be_visible()
    expect(host.locator(".lobby-seats")).to_contain_text("Oleh")
    expect(host.locator(".log-list")).to_contain_text("Oleh sat down.")

    # The host adds a bot, removes it again, then starts.
    host.get_by_role("button", name="Add a bot").click()
    expect(host.locator(".lobby-seats li")).to_have_count(3)
    expect(guest.locator(".lobby-seats")).to_contain_text("Bot 1")
    shot(host, "lobby-with-bot")
    host.get_by_role("button", name="Remove Bot 1").click()
    expect(host.locator(".lobby-seats li")).to_have_count(2)
    expect(guest.get_by_role("button", name="Add a bot")).to_have_count(0)

    # The host changes the rules: every toggle has its one-line explanation.
    host.get_by_text("Rules", exact=True).click()
    expect(host.get_by_text("Play an identical card out of turn to jump in.")).to_be_visible()
    host.locator(".rules-form").get_by_label("Rules preset").select_option("house")
    expect(host.locator(".rules-form").get_by_label("Jump-in")).to_be_checked()
    host.get_by_role("button", name="Apply rules").click()
    expect(host.locator(".notice")).to_have_text("Rules updated.")
    expect(guest.locator(".log-list")).to_contain_text("The rules changed.")
    host.get_by_role("button", name="Start the game").click()
    # Seven cards each, or nine for the first player when a Draw Two is turned first.
    for page in (host, guest):
        heading = page.get_by_role("heading", name=re.compile(r"^Your hand: [79] cards$"))
        expect(heading).to_be_visible()
        assert page.locator("ul.hand button.card").count() in (7, 9)


def test_the_public_list_offers_join_and_watch(new_page: PageFactory, server: Server) -> None:
    room = server.post("/api/rooms", {"name": "Listed", "public": True})
    page = new_page()
    page.goto(f"{server.url}/#/")
    item = page.locator(f'li.room-item[data-code="{room["code"]}"]')
    expect(item).to_contain_text("Listed")
    expect(item.get_by_role("link", name="Join")).to_be_visible()
    shot(page, "home")
    item.get_by_role("link", name="Watch").click()
    expect(page.get_by_text("You are watching")).to_be_visible()
    expect(page.get_by_text("Waiting to start")).to_be_visible()


def test_refused_rules_are_explained_with_the_servers_words(
    new_page: PageFactory, server: Server
) -> None:
    page = new_page()
    page.goto(f"{server.url}/#/")
    page.get_by_label("Your name").fill("Mina")
    page.get_by_text("Adjust single rules").click()
    page.get_by_label("Blank +10").check()  # needs the deck with blanks
    page.get_by_role("button", name="Create room").click()
    error = page.locator(".create .form-error")
    expect(error).to_contain_text("The rules of this room do not allow that.")
    expect(error).to_contain_text("blank_plus10")
    shot(page, "rules-refused")
    page.get_by_label("Deck").select_option("classic_blank")
    page.get_by_role("button", name="Create room").click()
    expect(page).to_have_url(re.compile(r"#/room/[A-Z0-9]+$"))


def test_names_are_shown_as_text_never_as_markup(new_page: PageFactory, server: Server) -> None:
    evil = "<img src=x onerror=pwned=1>"
    room = server.post("/api/rooms", {"name": "Ann"})
    server.post(f"/api/rooms/{room['code']}/join", {"name": evil})
    page = new_page(seat=(room["code"], room["token"], 0))
    page.goto(f"{server.url}/#/room/{room['code']}")
    expect(page.locator(".lobby-seats")).to_contain_text(evil)
    expect(page.locator(".lobby-seats img")).to_have_count(0)
    say(page, "Chat message", "<b>hi</b>")
    expect(page.locator(".log-list")).to_contain_text("Ann (you): <b>hi</b>")
    expect(page.locator(".log-list b")).to_have_count(0)
    assert page.evaluate("window.pwned") is None


def test_custom_wild_cards_get_an_effect_and_a_name(new_page: PageFactory, server: Server) -> None:
    page = new_page()
    page.goto(f"{server.url}/#/")
    page.get_by_label("Your name").fill("Ivan")
    page.get_by_text("Adjust single rules").click()
    page.get_by_label("Wild Customizable 1: effect").select_option("swap_hands")
    page.get_by_label("Wild Customizable 1: name").fill("Trade places")
    page.get_by_role("button", name="Create room").click()
    expect(page).to_have_url(re.compile(r"#/room/[A-Z0-9]+$"))
    page.get_by_text("Rules", exact=True).click()
    rules = page.locator(".rules-form")
    expect(rules.get_by_label("Wild Customizable 1: effect")).to_have_value("swap_hands")
    expect(rules.get_by_label("Wild Customizable 1: name")).to_have_value("Trade places")
