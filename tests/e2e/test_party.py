"""The party: the party screen (TV mode) with its QR code and big moments, a phone that joins by
the QR code, spectators who chat among themselves, reactions for everyone, the podium and the
host's rematch, and the round's results on a phone."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import Locator, Page, expect

from .conftest import PageFactory, Server, read_qr, say, shot


def room_with(server: Server, deal: dict[str, Any], rules: dict[str, Any],
              names: tuple[str, ...] = ("Ann", "Bea")) -> tuple[str, list[str]]:
    room = server.post("/api/rooms", {"name": names[0], "deal": deal, "rules": rules})
    code = room["code"]
    tokens = [room["token"]] + [
        server.post(f"/api/rooms/{code}/join", {"name": name})["token"] for name in names[1:]
    ]
    return code, tokens


def at_table(new_page: PageFactory, server: Server, code: str, tokens: list[str],
             viewport: tuple[int, int] = (1280, 860)) -> list[Page]:
    pages = [new_page(seat=(code, token, seat), viewport=viewport)
             for seat, token in enumerate(tokens)]
    for page in pages:
        page.goto(f"{server.url}/#/room/{code}")
        expect(page.get_by_test_id("connection")).to_have_text("Connected")
    return pages


def card(page: Page, text: str) -> Locator:
    return page.locator(f'ul.hand button.card[data-card="{text}"]')


def no_sideways_scroll(page: Page) -> None:
    width, inner = page.evaluate(
        "[document.scrollingElement.scrollWidth, window.innerWidth]")
    assert width <= inner, f"the page scrolls sideways: {width} > {inner}"


def cues(page: Page) -> list[str]:
    played: list[str] = page.evaluate(
        "import('/js/sound.js').then((m) => m.playedCues().map((c) => c.cue))")
    return played


def test_a_phone_joins_by_the_party_screens_qr_code(new_page: PageFactory, server: Server) -> None:
    code, (host_token,) = room_with(server, {"dealer": 0, "hands": [["R1"], ["G2"]],
                                             "discard": "R5", "draw_pile": []}, {}, ("Ann",))
    host = at_table(new_page, server, code, [host_token])[0]
    tv = new_page(viewport=(1920, 1080))
    tv.goto(f"{server.url}/#/tv/{code}")
    expect(tv.get_by_test_id("tv-code")).to_have_text(code)
    qr = tv.locator(".tv-qr img")
    expect(qr).to_have_attribute("src", f"/api/rooms/{code}/qr.svg")
    tv.wait_for_function("document.querySelector('.tv-qr img').naturalWidth > 0")

    # The QR code, drawn by a browser and read back by a decoder, is the room's join link.
    found = read_qr(new_page, f"{server.url}/api/rooms/{code}/qr.svg", "qr-code.png")
    assert found == [f"{server.url}/#/room/{code}"]

    phone = new_page(viewport=(390, 844))
    phone.goto(found[0])
    expect(phone.get_by_text(f"You are not seated in room {code} yet.")).to_be_visible()
    phone.get_by_label("Your name").fill("Pia")
    phone.get_by_role("button", name="Join", exact=True).click()
    expect(phone.get_by_text("Waiting for the host to start the game.")).to_be_visible()
    expect(phone.locator(".lobby-seats")).to_contain_text("Pia (you)")
    expect(host.locator(".lobby-seats")).to_contain_text("Pia")
    expect(tv.locator('li.seat[data-seat="1"]')).to_contain_text("Pia")
    no_sideways_scroll(phone)
    shot(phone, "phone-joined-by-qr")
    shot(tv, "tv-lobby")


def test_the_party_screen_fills_the_screen_and_shows_the_big_moments(
    new_page: PageFactory, server: Server
) -> None:
    deal = {"dealer": 1, "hands": [["R1", "R2"], ["R7", "B7"]], "discard": "R5",
            "draw_pile": ["Y1", "Y2", "Y3"]}
    code, tokens = room_with(server, deal, {"turn_seconds": 60})
    ann, bea = at_table(new_page, server, code, tokens)
    tv = new_page(viewport=(1920, 1080))
    tv.goto(f"{server.url}/#/tv/{code}")
    expect(tv.get_by_test_id("connection")).to_have_text("Connected")
    ann.get_by_role("button", name="Start the game").click()
    expect(tv.get_by_test_id("turn-status")).to_have_text("Ann's turn")
    expect(tv.locator(".turn-status [data-timer]")).to_be_visible()

    # The table fills the 16:9 screen: no half-empty screen, nothing to scroll.
    def fills(page: Page, width: int, height: int) -> None:
        # Measured in one go in the page: the table re-renders on each frame, so an element
        # found first and measured after may already have been replaced.
        stage, pile, qr_box = page.evaluate(
            "['.tv-stage', '.discard-pile .card', '.tv-qr img'].map((s) => {"
            " const r = document.querySelector(s)?.getBoundingClientRect();"
            " return r && {x: r.x, y: r.y, width: r.width, height: r.height}; })")
        assert stage and pile and qr_box
        assert stage["width"] >= 0.6 * width and stage["height"] >= 0.8 * height, stage
        assert pile["height"] >= 0.2 * height, pile  # a big discard pile
        assert qr_box["width"] >= 0.12 * height, qr_box
        scroll = page.evaluate("[document.scrollingElement.scrollWidth,"
                               " document.scrollingElement.scrollHeight]")
        assert scroll[0] <= width and scroll[1] <= height, scroll
        seats: list[dict[str, float]] = page.evaluate(
            "[...document.querySelectorAll('li.seat')].map((el) => el.getBoundingClientRect())"
            ".map((r) => ({x: r.x, y: r.y, width: r.width, height: r.height}))")
        assert len(seats) == 2
        for box in seats:  # every seat on the screen, around the table
            assert box["x"] >= stage["x"] - 1 and box["y"] >= stage["y"] - 1, box
            assert box["x"] + box["width"] <= stage["x"] + stage["width"] + 1, box
            assert box["y"] + box["height"] <= stage["y"] + stage["height"] + 1, box

    fills(tv, 1920, 1080)
    expect(tv.get_by_test_id("tv-code")).to_have_text(code)

    # UNO: shown large for a few seconds, then gone.
    ann.get_by_role("button", name="UNO!").click()
    moment = tv.get_by_test_id("big-moment")
    expect(moment).to_contain_text("UNO!")
    expect(moment).to_contain_text("Ann")
    size = tv.locator(".moment-title").evaluate("(el) => parseFloat(getComputedStyle(el).fontSize)")
    assert size >= 0.1 * 1080, size
    shot(tv, "tv-uno")
    card(ann, "R1").click()
    expect(moment).to_have_count(0, timeout=8000)

    # Bea plays her second-to-last card without UNO; Ann catches her: "Caught!", then gone.
    card(bea, "R7").click()
    ann.get_by_role("button", name="Catch Bea: they did not say UNO").click()
    expect(moment).to_contain_text("Caught!")
    expect(moment).to_contain_text("Ann caught Bea")
    expect(tv.locator('li.seat[data-seat="1"] .seat-count')).to_have_text("3 cards")
    shot(tv, "tv-caught")
    expect(moment).to_have_count(0, timeout=8000)
    assert {"uno", "caught"} <= set(cues(tv))
    assert "penalty" in cues(bea) and "turn" in cues(bea)

    # The same screen at 3840x2160 is filled the same way.
    tv4k = new_page(viewport=(3840, 2160))
    tv4k.goto(f"{server.url}/#/tv/{code}")
    expect(tv4k.get_by_test_id("turn-status")).to_have_text("Ann's turn")
    fills(tv4k, 3840, 2160)
    shot(tv4k, "tv-4k")

    # Ann goes out: the round's results cover the table, on the screen.
    card(ann, "R2").click()
    results = tv.locator(".tv-stage section.results")
    expect(results).to_contain_text("Ann won the round")
    box = results.bounding_box()
    assert box and box["y"] + box["height"] <= 1080 and box["x"] + box["width"] <= 1920, box
    shot(tv, "tv-round-over")

    # The sound switch is remembered.
    tv.get_by_test_id("mute").click()
    expect(tv.get_by_test_id("mute")).to_have_attribute("aria-pressed", "true")
    tv.reload()
    expect(tv.get_by_test_id("mute")).to_have_text(re.compile("Sound off"))


def test_spectators_chat_among_themselves_and_reactions_reach_everyone(
    new_page: PageFactory, server: Server
) -> None:
    deal = {"dealer": 1, "hands": [["R1", "R2", "G4"], ["R7", "B7", "G9"]], "discard": "R5",
            "draw_pile": []}
    code, tokens = room_with(server, deal, {"turn_seconds": 0})
    ann, bea = at_table(new_page, server, code, tokens)
    ann.get_by_role("button", name="Start the game").click()
    watchers = [new_page(), new_page(viewport=(390, 844))]
    for watcher in watchers:
        watcher.goto(f"{server.url}/#/watch/{code}")
        expect(watcher.get_by_test_id("turn-status")).to_have_text("Ann's turn")
    expect(ann.get_by_test_id("spectators")).to_have_text(re.compile("2 watching"))

    # A spectator's line reaches the spectators, never a player.
    say(watchers[0], "Chat with the other spectators", "Bea is bluffing")
    for watcher in watchers:
        expect(watcher.locator(".log-list")).to_contain_text(
            re.compile(r"Spectator \d+: Bea is bluffing"))
    say(ann, "Chat message", "good luck")
    for page in (ann, bea, *watchers):
        expect(page.locator(".log-list")).to_contain_text("good luck")
    # The players' frames came after the spectator's line would have: it never came.
    for player in (ann, bea):
        expect(player.locator(".log-list")).not_to_contain_text("bluffing")
    shot(watchers[1], "spectator-chat-phone")

    # A reaction from a player, and one from a spectator, float over every table (as emoji,
    # or as their words where the machine has no emoji font, as this one may not).
    bea.get_by_role("button", name="React fire").click()
    for page in (ann, bea, *watchers):
        expect(page.locator('.reaction-float[data-emoji="🔥"]')).to_have_count(1)
    expect(ann.locator('.reaction-float[data-emoji="🔥"]')).to_contain_text("Bea")
    expect(ann.locator('.reaction-float[data-emoji="🔥"]')).to_have_accessible_name(
        "fire from Bea")
    watchers[1].get_by_role("button", name="React clap").click()
    for page in (ann, bea, *watchers):
        expect(page.locator('.reaction-float[data-emoji="👏"]')).to_contain_text(
            "a spectator")
    shot(ann, "reactions")
    for page in (ann, bea, *watchers):
        expect(page.locator(".reaction-float")).to_have_count(0, timeout=8000)
    no_sideways_scroll(watchers[1])


def test_a_rematch_starts_a_new_match_with_the_same_seats(
    new_page: PageFactory, server: Server
) -> None:
    deal = {"dealer": 2, "hands": [["R1"], ["G2", "G3"], ["B2", "B3"]], "discard": "R5",
            "draw_pile": []}
    code, tokens = room_with(server, deal, {"turn_seconds": 0, "target": 1})
    ann, bea = at_table(new_page, server, code, tokens)
    ann.get_by_role("button", name="Add a bot").click()
    expect(bea.locator(".lobby-seats li")).to_have_count(3)
    ann.get_by_role("button", name="Start the game").click()
    card(ann, "R1").click()

    results = bea.locator("section.results")
    expect(results.get_by_role("heading", name="Match over")).to_be_visible()
    podium = results.get_by_test_id("podium")
    expect(podium.locator(".podium-step.place-1")).to_contain_text("Ann")
    expect(podium.locator(".podium-step.place-1")).to_contain_text("#1")
    expect(podium.locator(".podium-step.place-1")).to_contain_text("10 pts")
    expect(podium.locator(".podium-step.place-2")).to_have_count(2)  # Bea and the bot tie
    first_match = ann.evaluate("window.unoTable.model.state.match")
    expect(bea.get_by_role("button", name="Rematch")).to_have_count(0)
    shot(bea, "podium")

    ann.get_by_role("button", name="Rematch").click()
    for page in (ann, bea):
        heading = page.get_by_role("heading", name=re.compile(r"^Your hand: \d+ cards$"))
        expect(heading).to_be_visible()
        expect(page.locator("section.results")).to_have_count(0)
    assert ann.evaluate("window.unoTable.model.state.match") != first_match
    for seat, name in ((0, "Ann"), (2, "Bot 1")):
        expect(bea.locator(f'li.seat[data-seat="{seat}"] .seat-name')).to_have_text(name)
    expect(ann.locator('li.seat[data-seat="1"] .seat-name')).to_have_text("Bea")
    expect(bea.locator(".log-list li", has_text="The game starts!")).to_have_count(2)
    shot(bea, "rematch")


def test_the_round_results_fit_a_phone(new_page: PageFactory, server: Server) -> None:
    many = [["B1", "B2", "B3", "B4", "B6", "B7", "B8", "B9", "G1", "G2", "G3", "G4", "G6",
             "G7", "G8"],
            ["Y1", "Y2", "Y3", "Y4", "Y6", "Y7", "Y8", "Y9", "G1", "G2", "G3", "G4", "G6",
             "G7", "G8"]]
    deal = {"dealer": 2, "hands": [["R1"], *many], "discard": "R5", "draw_pile": []}
    code, tokens = room_with(server, deal, {"turn_seconds": 0}, ("Ann", "Bea", "Cid"))
    phone = at_table(new_page, server, code, tokens[:1], viewport=(390, 844))[0]
    phone.get_by_role("button", name="Start the game").click()
    expect(phone.locator("ul.hand button.card")).to_have_count(1)
    # The hand (and its UNO button) stays within the thumb's reach, at the bottom of the screen.
    phone.mouse.wheel(0, -2000)
    area = phone.locator(".hand-area").bounding_box()
    assert area and area["y"] + area["height"] <= 844 + 1 and area["y"] >= 844 / 2, area
    card(phone, "R1").click()
    results = phone.locator("section.results")
    expect(results.get_by_role("heading", name="Round 1 is over")).to_be_visible()
    expect(results.locator("tbody tr").nth(1).locator(".card")).to_have_count(15)
    no_sideways_scroll(phone)
    for total in results.locator("td.total").all():
        box = total.bounding_box()
        assert box and box["x"] + box["width"] <= 390, box
    height = results.bounding_box()
    assert height and height["height"] < 1400, height
    shot(phone, "phone-round-over")
