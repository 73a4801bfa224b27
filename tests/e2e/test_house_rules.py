"""House rules at the table: a jump-in (H-JUMPIN), a 7 swap (H-SEVENO), a stack (H-STACK)."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import Locator, Page, expect

from .conftest import PageFactory, Server, say, shot


def seated(
    new_page: PageFactory, server: Server, deal: dict[str, Any], rules: dict[str, Any]
) -> list[Page]:
    """A started room with the rigged deal, one page per seat (all connected)."""
    names = ["Ann", "Bea", "Cid"][: len(deal["hands"])]
    room = server.post("/api/rooms", {"name": names[0], "deal": deal, "rules": rules})
    tokens = [room["token"]] + [
        server.post(f"/api/rooms/{room['code']}/join", {"name": name})["token"]
        for name in names[1:]
    ]
    pages = [new_page(seat=(room["code"], token, seat)) for seat, token in enumerate(tokens)]
    for page in pages:
        page.goto(f"{server.url}/#/room/{room['code']}")
        expect(page.get_by_test_id("connection")).to_have_text("Connected")
    pages[0].get_by_role("button", name="Start the game").click()
    for page in pages:
        expect(page.locator("ul.hand button.card")).to_have_count(len(deal["hands"][0]))
    return pages


def card(page: Page, text: str) -> Locator:
    return page.locator(f'ul.hand button.card[data-card="{text}"]')


def test_a_jump_in_with_the_identical_card(new_page: PageFactory, server: Server) -> None:
    deal = {"dealer": 2, "hands": [["R3", "G1"], ["R7", "B2"], ["R3", "Y4"]], "discard": "R5",
            "draw_pile": []}
    ann, bea, cid = seated(new_page, server, deal, {"jump_in": True, "turn_seconds": 0})
    expect(card(cid, "R3")).to_be_disabled()  # no jump-in on the first discard
    card(ann, "R3").click()
    expect(bea.get_by_test_id("turn-status")).to_have_text("Your turn")
    # Cid holds the identical Red 3: it lights up out of turn and plays with one click.
    jump = card(cid, "R3")
    expect(jump).to_be_enabled()
    expect(jump).to_have_class("card c-R jump-in")
    expect(cid.get_by_text("Identical card: you can jump in now.")).to_be_visible()
    expect(card(cid, "Y4")).to_be_disabled()
    shot(cid, "jump-in")
    jump.click()
    expect(ann.locator(".log-list")).to_contain_text("Cid jumped in with Red 3!")
    expect(ann.get_by_test_id("turn-status")).to_have_text("Your turn")  # play goes on from Cid
    expect(bea.get_by_test_id("turn-status")).to_have_text("Ann's turn")
    expect(cid.locator("ul.hand button.card")).to_have_count(1)


def test_a_seven_swaps_hands_with_a_chosen_player(new_page: PageFactory, server: Server) -> None:
    deal = {"dealer": 1, "hands": [["R7", "G1", "G2"], ["B1", "B2", "B3", "B4"]],
            "discard": "R5", "draw_pile": []}
    ann, bea = seated_two(new_page, server, deal)
    card(ann, "R7").click()
    picker = ann.get_by_role("dialog", name="Choose a player to swap hands with")
    expect(picker).to_be_visible()
    shot(ann, "seat-picker")
    bea_button = picker.get_by_role("button", name=re.compile("^Bea"))
    expect(bea_button).to_have_text("Bea · 4 cards")
    bea_button.click()
    expect(ann.locator(".log-list")).to_contain_text("Ann (you) swapped hands with Bea.")
    expect(ann.locator("ul.hand button.card")).to_have_count(4)
    expect(card(ann, "B1")).to_be_visible()
    expect(bea.locator("ul.hand button.card")).to_have_count(2)
    expect(card(bea, "G1")).to_be_visible()


def seated_two(new_page: PageFactory, server: Server, deal: dict[str, Any]) -> list[Page]:
    names = ["Ann", "Bea"]
    room = server.post("/api/rooms", {"name": names[0], "deal": deal,
                                      "rules": {"seven_zero": True, "turn_seconds": 0}})
    guest = server.post(f"/api/rooms/{room['code']}/join", {"name": names[1]})
    pages = [new_page(seat=(room["code"], room["token"], 0)),
             new_page(seat=(room["code"], guest["token"], 1))]
    for page in pages:
        page.goto(f"{server.url}/#/room/{room['code']}")
        expect(page.get_by_test_id("connection")).to_have_text("Connected")
    pages[0].get_by_role("button", name="Start the game").click()
    expect(pages[1].locator("ul.hand button.card")).to_have_count(4)
    return pages


def test_draw_twos_stack_up(new_page: PageFactory, server: Server) -> None:
    deal = {"dealer": 2, "hands": [["R+2", "G1"], ["B+2", "Y3"], ["Y5", "G6"]], "discard": "R5",
            "draw_pile": ["B5", "B6", "B7", "B8"]}
    ann, bea, cid = seated(new_page, server, deal,
                           {"stacking": "progressive", "turn_seconds": 0})
    card(ann, "R+2").click()
    expect(bea.locator(".prompt.stack")).to_contain_text("2 cards are coming your way")
    expect(card(bea, "B+2")).to_be_enabled()
    expect(card(bea, "Y3")).to_be_disabled()
    shot(bea, "stack")
    card(bea, "B+2").click()
    expect(cid.locator(".prompt.stack")).to_contain_text("4 cards are coming your way")
    expect(cid.locator(".prompt.stack").get_by_role("button", name="Challenge")).to_have_count(0)
    cid.locator(".prompt.stack").get_by_role("button", name="Take 4").click()
    expect(cid.locator("ul.hand button.card")).to_have_count(6)
    expect(ann.get_by_test_id("turn-status")).to_have_text("Your turn")


def test_a_five_exchanges_one_card_each_way(new_page: PageFactory, server: Server) -> None:
    deal = {"dealer": 1, "hands": [["R5", "G1", "G2"], ["B1", "B2", "B3"]], "discard": "R9",
            "draw_pile": []}
    ann, bea = seated(new_page, server, deal, {"five_exchange": True, "turn_seconds": 0})
    card(ann, "R5").click()
    ann.get_by_role("dialog", name="Choose a player to exchange a card with").get_by_role(
        "button", name="Bea · 3 cards"
    ).click()
    expect(ann.get_by_text("Choose the card you give to Bea")).to_be_visible()
    expect(bea.get_by_text("Choose the card you give to Ann")).to_be_visible()
    expect(card(bea, "B2")).to_be_enabled()  # any card may be given, out of turn
    card(ann, "G1").click()
    card(bea, "B2").click()
    expect(ann.locator(".log-list")).to_contain_text("You gave Green 1 and received Blue 2.")
    expect(card(ann, "B2")).to_be_visible()
    expect(card(bea, "G1")).to_be_visible()
    expect(bea.locator("ul.hand button.card")).to_have_count(3)


def test_everyone_slaps_when_uno_is_called(new_page: PageFactory, server: Server) -> None:
    deal = {"dealer": 2, "hands": [["R1", "R2"], ["G1", "G2"], ["B1", "B2"]], "discard": "R5",
            "draw_pile": ["Y1", "Y2", "Y3", "Y4"]}
    ann, bea, cid = seated(new_page, server, deal,
                           {"uno_slap": True, "slap_seconds": 30, "turn_seconds": 0})
    ann.get_by_role("button", name="UNO!").click()
    card(ann, "R1").click()
    slap = bea.get_by_role("button", name="Slap!")
    expect(slap).to_be_visible()
    expect(cid.get_by_role("button", name="Slap!")).to_be_visible()
    expect(ann.get_by_role("button", name="Slap!")).to_have_count(0)
    shot(bea, "slap")
    slap.click()
    expect(bea.get_by_text("Waiting for the others to slap.")).to_be_visible()
    cid.get_by_role("button", name="Slap!").click()
    expect(ann.locator(".log-list")).to_contain_text("Too slow to slap: Cid.")
    expect(cid.locator("ul.hand button.card")).to_have_count(4)
    expect(bea.get_by_test_id("turn-status")).to_have_text("Your turn")


def test_a_two_brings_silence(new_page: PageFactory, server: Server) -> None:
    deal = {"dealer": 1, "hands": [["R2", "G1", "G3"], ["B1", "B3", "B4"]], "discard": "R5",
            "draw_pile": ["Y1", "Y3", "Y4"]}
    ann, bea = seated(new_page, server, deal, {"silent": "twos", "turn_seconds": 0})
    card(ann, "R2").click()
    expect(bea.locator(".silence-chip")).to_have_text("Silence! Chat is closed.")
    shot(bea, "silence")
    say(bea, "Chat message", "oops")
    expect(bea.locator("ul.hand button.card")).to_have_count(5)
    expect(ann.locator(".log-list")).to_contain_text("The silence is over.")
    expect(ann.locator(".silence-chip")).to_have_count(0)
