"""Tournaments in the browser (RULES.md section 11): one opened from the home page, four phones
joining by the link the party screen's QR code holds, the host starting each round, every phone
shown its table (and its Play link opening its seat), the party screen at 1920x1080 (and 4K)
following the tables as they finish and the standings as they change, up to the podium; axe on
every tournament screen, in English, Korean and Ukrainian."""

from __future__ import annotations

import json
import re
import urllib.request
from collections.abc import Iterator
from typing import Any, Literal

import pytest
from playwright.sync_api import Dialog, Page, expect

from .conftest import PageFactory, Server, read_qr, serving, shot
from .test_access import violations

PHONE = (390, 844)
TV = (1920, 1080)
NAMES = ("Ann", "Bea", "Cy", "Dee")
# Tables of bots and absent seats play a one-round match (round_limit) in seconds.
PLAY_OUT = 90_000


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    """This module's own server, its bots (and those playing away seats) slower than the other
    browser tests': a table plays for some seconds, while the phones and the party screen look
    at it, not for a blink."""
    with serving(UNO_BOT_DELAY_MS="[250,350]") as running:
        yield running


def fits(page: Page, width: int, height: int | None = None) -> None:
    """Nothing wider than the screen; on a party screen nothing taller either."""
    size = page.evaluate("[document.scrollingElement.scrollWidth,"
                         " document.scrollingElement.scrollHeight]")
    assert size[0] <= width, f"the page scrolls sideways: {size}"
    if height is not None:
        assert size[1] <= height, f"the party screen scrolls: {size}"


def get(server: Server, path: str) -> Any:
    with urllib.request.urlopen(server.url + path, timeout=10) as response:
        return json.load(response)


def decoded_qr(new_page: PageFactory, server: Server, code: str) -> str:
    """The tournament's QR code as a browser draws it, read back by a decoder."""
    found = read_qr(new_page, f"{server.url}/api/tournaments/{code}/qr.svg",
                    "tournament-qr.png")
    assert len(found) == 1
    return found[0]


def axe_clean(page: Page, screen: str, found: dict[str, list[str]]) -> None:
    found[screen] = violations(page)
    if found[screen]:
        shot(page, f"axe-tournament-{screen}")


def test_a_tournament_from_the_home_page_to_the_podium(new_page: PageFactory,
                                                        server: Server) -> None:
    problems: dict[str, list[str]] = {}
    host = new_page(viewport=(1366, 768))
    host.goto(f"{server.url}/#/")
    panel = host.locator("section.tournament")
    expect(panel.get_by_role("heading", name="Open a tournament")).to_be_visible()
    axe_clean(host, "home", problems)
    panel.get_by_label("Tournament name").fill("Friday cup")
    panel.get_by_label("Players per table").select_option("3")
    panel.get_by_label("Rounds").select_option("2")
    panel.get_by_label("Length of a table's match").select_option("1")
    panel.get_by_role("button", name="Open tournament").click()
    expect(host).to_have_url(re.compile(r"#/t/[A-Z0-9]+$"))
    code = host.url.rsplit("/", 1)[1]
    expect(host.get_by_role("heading", level=1)).to_have_text("Friday cup")
    expect(host.get_by_test_id("tour-host")).to_be_visible()
    fits(host, 1366)
    assert json.loads(host.evaluate(f"localStorage.getItem('uno.thost.{code}')"))["token"]

    tv = new_page(viewport=TV)
    tv.goto(f"{server.url}/#/tv/tournament/{code}")
    expect(tv.get_by_test_id("tv-code")).to_have_text(code)
    expect(tv.get_by_test_id("connection")).to_have_text("Connected")
    tv.wait_for_function("document.querySelector('.tv-qr img').naturalWidth > 0")
    link = decoded_qr(new_page, server, code)
    assert link == f"{server.url}/#/t/{code}"

    phones = []
    for name in NAMES:
        phone = new_page(viewport=PHONE)
        phone.goto(link)
        form = phone.locator("form.tour-join")
        form.get_by_label("Your name").fill(name)
        form.get_by_role("button", name="Join").click()
        expect(phone.get_by_test_id("tour-me")).to_contain_text(f"You: {name}")
        expect(phone.get_by_test_id("tour-me")).to_contain_text("The host starts the first round.")
        phones.append(phone)
    expect(tv.get_by_test_id("ttv-count")).to_have_text("4 players")
    expect(tv.locator(".ttv-people li")).to_have_text(list(NAMES))
    expect(host.locator(".tour-host .person-name")).to_have_text(list(NAMES))
    expect(phones[0].get_by_test_id("tour-people")).to_contain_text("Dee")
    fits(phones[0], PHONE[0])
    axe_clean(phones[0], "phone-lobby", problems)
    axe_clean(host, "host-lobby", problems)
    axe_clean(tv, "party-lobby", problems)
    shot(tv, "tournament-tv-lobby")

    # Round 1: four players at tables of three make two tables, each topped up by a bot.
    host.get_by_role("button", name="Start the tournament").click()
    expect(tv.get_by_test_id("ttv-round")).to_have_text("Round 1 of 2")
    expect(tv.locator(".tour-table")).to_have_count(2)
    expect(tv.get_by_test_id("ttv-clock")).to_have_text(re.compile(r"^Playing for \d+:\d\d$"))
    rooms = {}
    for phone, name in zip(phones, NAMES, strict=True):
        play = phone.get_by_test_id("play-table")
        expect(play).to_have_text(re.compile(r"^Play at table [12]$"))
        number = play.inner_text().rsplit(" ", 1)[1]
        table = phone.locator(f'.tour-table[data-table="{number}"]')
        expect(table).to_contain_text(name)
        room = table.get_attribute("data-room")
        assert room and play.get_attribute("href") == f"#/room/{room}"
        rooms[name] = room
        fits(phone, PHONE[0])
        expect(phone.get_by_test_id("live-polite")).to_contain_text(
            f"Round 1 has started: you play at table {number}.")
    assert len(set(rooms.values())) == 2
    expect(phones[0].get_by_test_id("tour-phase")).to_have_text("Round 1 of 2 is being played")
    shot(phones[0], "tournament-phone-table")

    # Play opens the seat the tournament gave: the table page knows this phone's seat.
    phones[0].get_by_test_id("play-table").click()
    expect(phones[0]).to_have_url(re.compile(rf"#/room/{rooms['Ann']}$"))
    phones[0].wait_for_function("typeof window.unoTable?.model?.mySeat === 'number'")
    seated_as = phones[0].evaluate(
        "(() => { const m = window.unoTable.model; return m.state.seats[m.mySeat].name; })()")
    assert seated_as == "Ann"
    shot(phones[0], "tournament-phone-room")
    # While Ann sits at her table it waits for her: the party screen shows it live (a spectator
    # of each table), who leads and everyone's cards.
    ann_room = rooms["Ann"]
    live = tv.locator(f'.tour-table[data-room="{ann_room}"] [data-testid="leader"]')
    expect(live).to_contain_text(re.compile("Leading: |All even"))
    expect(live.locator(".tour-live")).to_contain_text(re.compile(r"Ann: \d+ cards?"))
    shot(tv, "tournament-tv-live")
    axe_clean(tv, "party-playing", problems)
    axe_clean(phones[1], "phone-playing", problems)
    phones[0].get_by_role("link", name=f"Tournament {code}").click()
    expect(phones[0].get_by_test_id("tour-me")).to_be_visible()

    # Nobody sits at the tables' pages, so their seats are played away: the party screen
    # follows each table to its end and the standings with it.
    finished = tv.locator(".tour-table.phase-over")
    expect(finished).not_to_have_count(0, timeout=PLAY_OUT)
    # The first table to finish has moved the standings, on the screen, with no reload.
    tv.wait_for_function("[...document.querySelectorAll('table.standings td.points')]"
                         ".some((cell) => cell.textContent !== '0')")
    expect(finished.first.get_by_test_id("leader")).to_contain_text("Won: ")
    expect(finished).to_have_count(2, timeout=PLAY_OUT)
    expect(tv.get_by_test_id("tour-phase")).to_have_text("Between rounds")
    top = tv.locator("table.standings tbody tr").first
    expect(top.locator("td.points")).not_to_have_text("0")
    expect(tv.locator("table.standings tbody tr")).to_have_count(4)
    fits(tv, *TV)
    shot(tv, "tournament-tv-between")
    for phone in phones:
        expect(phone.get_by_test_id("your-place")).to_contain_text(
            re.compile(r"You are in place \d"))
        expect(phone.get_by_test_id("tour-me")).to_contain_text("Wait for the next round.")

    # The party screen's socket drops, as a flaky network's would: it comes back by itself.
    with tv.expect_websocket(lambda ws: "/ws/tournaments/" in ws.url):  # a new socket
        tv.evaluate("window.unoTournament.dropForTest()")
    expect(tv.get_by_test_id("connection")).to_have_text("Connected")

    # Round 2, then the podium everywhere.
    host.get_by_role("button", name="Start the next round").click()
    expect(tv.get_by_test_id("ttv-round")).to_have_text("Round 2 of 2")
    for phone in phones:
        expect(phone.get_by_test_id("play-table")).to_be_visible()
    second_room = phones[0].get_by_test_id("play-table").get_attribute("href")
    podium = tv.get_by_test_id("podium")
    expect(podium).to_be_visible(timeout=2 * PLAY_OUT)
    expect(tv.get_by_test_id("tour-phase")).to_have_text("Finished")
    for place in (1, 2, 3):
        step = podium.locator(f".podium-step.place-{place}")
        expect(step).to_contain_text(f"#{place}")
        expect(step.locator(".podium-name")).to_have_text(re.compile("|".join(NAMES)))
    standings = tv.locator("table.standings tbody tr")
    first = standings.first.locator("th.player").inner_text()
    expect(podium.locator(".podium-step.place-1 .podium-name")).to_have_text(first)
    expect(tv.locator(".tv-qr figcaption")).to_have_text("Scan to see the results")
    fits(tv, *TV)
    axe_clean(tv, "party-podium", problems)
    shot(tv, "tournament-tv-podium")
    for phone in phones:
        expect(phone.get_by_test_id("podium")).to_be_visible()
        expect(phone.get_by_test_id("play-table")).to_have_count(0)
    fits(phones[1], PHONE[0])
    axe_clean(phones[1], "phone-podium", problems)
    # Ann's table of round 2, played away, ended: its results lead back to the tournament.
    phones[0].goto(f"{server.url}/{second_room}")
    results = phones[0].locator("section.results")
    expect(results.get_by_role("heading", name="Match over")).to_be_visible()
    expect(results).not_to_contain_text("Waiting for the host")
    expect(results.get_by_role("button", name="Rematch")).to_have_count(0)
    results.get_by_role("link", name=f"Tournament {code}").click()
    expect(phones[0].get_by_test_id("podium")).to_be_visible()
    shot(phones[1], "tournament-phone-podium")

    tv4k = new_page(viewport=(3840, 2160))
    tv4k.goto(f"{server.url}/#/tv/tournament/{code}")
    expect(tv4k.get_by_test_id("podium")).to_be_visible()
    fits(tv4k, 3840, 2160)
    size = tv4k.locator(".podium-step.place-1 .podium-name").evaluate(
        "(el) => parseFloat(getComputedStyle(el).fontSize)")
    assert size >= 0.03 * 2160, size  # read from across the room
    shot(tv4k, "tournament-tv-4k")
    laptop = new_page(viewport=(1366, 768))
    laptop.goto(f"{server.url}/#/tv/tournament/{code}")
    expect(laptop.get_by_test_id("podium")).to_be_visible()
    fits(laptop, 1366, 768)
    assert {screen: v for screen, v in problems.items() if v} == {}


def opened(server: Server, name: str = "Cup", **settings: Any) -> tuple[str, str]:
    made = server.post("/api/tournaments", {"name": name, **settings})
    return made["code"], made["token"]


def test_the_host_plays_too_removes_one_and_another_withdraws_by_keyboard(
        new_page: PageFactory, server: Server) -> None:
    code, host_token = opened(server, "Tuesday")
    host = new_page(viewport=PHONE,
                    storage={f"uno.thost.{code}": json.dumps({"token": host_token})})
    host.goto(f"{server.url}/#/t/{code}")
    expect(host.get_by_test_id("tour-host")).to_be_visible()
    # The host is no participant until they join too; then one page is both.
    expect(host.locator("form.tour-join")).to_contain_text("You host this tournament.")
    host.locator("form.tour-join").get_by_label("Your name").fill("Hal")
    host.locator("form.tour-join").get_by_role("button", name="Join").click()
    expect(host.get_by_test_id("tour-me")).to_contain_text("You: Hal")
    expect(host.get_by_test_id("tour-host")).to_be_visible()
    phones = {}
    for name in ("Eve", "Fay", "Gus"):
        phone = new_page(viewport=PHONE)
        phone.goto(f"{server.url}/#/t/{code}")
        phone.locator("form.tour-join").get_by_label("Your name").focus()
        phone.keyboard.type(name)
        phone.keyboard.press("Enter")  # the form is sent from the keyboard
        expect(phone.get_by_test_id("tour-me")).to_be_visible()
        expect(phone.get_by_test_id("live-polite")).to_contain_text(f"You joined as {name}.")
        expect(phone.locator("#me-title")).to_be_focused()  # where the form was
        phones[name] = phone
    expect(host.locator(".tour-host .person-name")).to_have_text(["Hal", "Eve", "Fay", "Gus"])
    # A public tournament is listed on the home page, to open from there.
    home = new_page(viewport=PHONE)
    home.goto(f"{server.url}/#/")
    listed = home.locator(f'li.tour-item[data-tournament="{code}"]')
    expect(listed).to_contain_text("Tuesday")
    expect(listed).to_contain_text("4 players")
    listed.get_by_role("link", name="Open").click()
    expect(home.locator("form.tour-join")).to_be_visible()

    def accept(dialog: Dialog) -> None:
        dialog.accept()

    host.once("dialog", accept)
    host.get_by_role("button", name="Remove Fay").focus()
    host.keyboard.press("Enter")
    expect(host.locator(".tour-host .person-name")).to_have_text(["Hal", "Eve", "Gus"])
    expect(phones["Fay"].get_by_test_id("tour-me")).to_contain_text(
        "You withdrew from the tournament.")
    phones["Gus"].once("dialog", accept)
    phones["Gus"].get_by_role("button", name="Withdraw from the tournament").focus()
    phones["Gus"].keyboard.press("Space")
    expect(phones["Gus"].get_by_test_id("tour-me")).to_contain_text(
        "You withdrew from the tournament.")
    expect(phones["Gus"].locator("#me-title")).to_be_focused()
    expect(host.locator(".tour-host .person-name")).to_have_text(["Hal", "Eve"])
    view = get(server, f"/api/tournaments/{code}")
    assert [p["withdrawn"] for p in view["participants"]] == [False, False, True, True]
    for page in (host, *phones.values()):
        fits(page, PHONE[0])
    # A code that is no tournament's says so, and stops trying.
    lost = new_page(viewport=PHONE)
    lost.goto(f"{server.url}/#/t/QQQQQ")
    expect(lost.get_by_test_id("connection")).to_have_text("There is no tournament with that code.")


# Korean in the dark palette, Ukrainian in high contrast (as test_access.py's looks).
LOOKS: dict[str, tuple[Literal["light", "dark"], dict[str, str]]] = {
    "ko": ("dark", {}), "uk": ("dark", {"uno.contrast": "more"})}
WORDS = {"ko": ("토너먼트 열기", "토너먼트 참가", "순위", "스캔해서 토너먼트 참가"),
         "uk": ("Відкрити турнір", "Приєднатися до турніру", "Турнірна таблиця",
                "Скануйте, щоб приєднатися до турніру")}


@pytest.mark.parametrize("lang", ["ko", "uk"])
def test_the_tournament_screens_speak_korean_and_ukrainian(lang: str, new_page: PageFactory,
                                                            server: Server) -> None:
    scheme, storage = LOOKS[lang]
    opens, joins, standings, scan = WORDS[lang]

    def page_in(viewport: tuple[int, int], **more: str) -> Page:
        return new_page(lang=lang, viewport=viewport, color_scheme=scheme,
                        storage={**storage, **more})

    problems: dict[str, list[str]] = {}
    home = page_in(PHONE)
    home.goto(f"{server.url}/#/")
    expect(home.get_by_role("heading", name=opens)).to_be_visible()
    fits(home, PHONE[0])
    axe_clean(home, f"{lang}-home", problems)
    code, host_token = opened(server, "Cup", table_size=3, round_limit=1)
    for name in NAMES:
        server.post(f"/api/tournaments/{code}/join", {"name": name})
    phone = page_in(PHONE)
    phone.goto(f"{server.url}/#/t/{code}")
    expect(phone.get_by_role("heading", name=joins)).to_be_visible()
    expect(phone.get_by_role("heading", name=standings)).to_be_visible()
    tv = page_in(TV)
    tv.goto(f"{server.url}/#/tv/tournament/{code}")
    expect(tv.locator(".tv-qr figcaption")).to_have_text(scan)
    tv.wait_for_function("document.querySelector('.tv-qr img').naturalWidth > 0")
    host = page_in(PHONE, **{f"uno.thost.{code}": json.dumps({"token": host_token})})
    host.goto(f"{server.url}/#/t/{code}")
    axe_clean(host, f"{lang}-host", problems)
    host.locator('button[data-key="tour-start"]').click()
    expect(tv.locator(".tour-table")).to_have_count(2)
    expect(phone.locator(".tour-table")).to_have_count(2)
    for screen, page in (("phone", phone), ("tv", tv)):
        axe_clean(page, f"{lang}-{screen}", problems)
    fits(phone, PHONE[0])
    fits(tv, *TV)
    shot(tv, f"tournament-tv-{lang}")
    shot(phone, f"tournament-phone-{lang}")
    assert {screen: v for screen, v in problems.items() if v} == {}


def test_a_knockout_plays_to_its_final_and_tells_who_is_out(new_page: PageFactory,
                                                          server: Server) -> None:
    code, host_token = opened(server, "Cup final", format="knockout", table_size=3, advance=1,
                              round_limit=1)
    phones = {}
    for name in NAMES:
        joined = server.post(f"/api/tournaments/{code}/join", {"name": name})
        entry = {"token": joined["token"], "participant": joined["participant"]}
        phone = new_page(viewport=PHONE, storage={f"uno.tentry.{code}": json.dumps(entry)})
        phone.goto(f"{server.url}/#/t/{code}")
        expect(phone.get_by_test_id("tour-me")).to_contain_text(f"You: {name}")
        phones[name] = phone
    host = new_page(viewport=PHONE,
                    storage={f"uno.thost.{code}": json.dumps({"token": host_token})})
    host.goto(f"{server.url}/#/t/{code}")
    tv = new_page(viewport=TV)
    tv.goto(f"{server.url}/#/tv/tournament/{code}")
    expect(tv.get_by_test_id("ttv-round")).to_have_text("Knockout")

    host.get_by_role("button", name="Start the tournament").click()
    expect(tv.get_by_test_id("ttv-round")).to_have_text("Round 1")
    expect(phones["Ann"].get_by_test_id("tour-phase")).to_have_text("Round 1 is being played")
    expect(tv.get_by_test_id("tour-phase")).to_have_text("Between rounds", timeout=PLAY_OUT)
    host.get_by_role("button", name="Start the next round").click()

    # The best of each table of three meet at the final; the others are told they are out.
    expect(tv.get_by_test_id("ttv-round")).to_have_text("The final")
    expect(tv.locator(".tour-table")).to_have_count(1)
    told = []
    for phone in phones.values():
        expect(phone.get_by_test_id("tour-phase")).to_have_text("The final is being played")
        play = phone.get_by_test_id("play-table")
        out = phone.get_by_text("You are out of the knockout: follow the rest here.")
        expect(play.or_(out)).to_be_visible()
        told.append("play" if play.count() else "out")
    assert sorted(told) == ["out", "out", "play", "play"], told
    expect(tv.get_by_test_id("podium")).to_be_visible(timeout=PLAY_OUT)
    for place in (1, 2, 3):
        expect(tv.locator(f".podium-step.place-{place}")).to_contain_text(f"#{place}")
    fits(tv, *TV)
    shot(tv, "tournament-tv-knockout")
