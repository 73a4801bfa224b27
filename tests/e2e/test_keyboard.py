"""Keys and a screen reader: a whole round played by keyboard alone, the focus going to the hand
when the turn comes and into each question, and back; what the live regions say after a play,
your turn and a catch; a spectator who arrives mid-round reads the story so far."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from .conftest import PageFactory, Server, shot


def seated(new_page: PageFactory, server: Server, deal: dict[str, object],
           rules: dict[str, object] | None = None) -> tuple[str, Page, Page]:
    room = server.post("/api/rooms", {"name": "Ann", "deal": deal,
                                      "rules": rules or {"turn_seconds": 0}})
    bea = server.post(f"/api/rooms/{room['code']}/join", {"name": "Bea"})
    pages = (new_page(seat=(room["code"], room["token"], 0)),
             new_page(seat=(room["code"], bea["token"], 1)))
    for page in pages:
        page.goto(f"{server.url}/#/room/{room['code']}")
        expect(page.get_by_test_id("connection")).to_have_text("Connected")
    return room["code"], *pages


def focused(page: Page) -> str:
    """What has the keyboard's focus: a card of the hand by its card, else its dialog or tag."""
    found: str = page.evaluate("""(() => { const e = document.activeElement;
      if (e.matches('ul.hand button.card')) return 'hand:' + e.dataset.card;
      const dialog = e.closest('[data-dialog]');
      if (dialog) return 'dialog:' + dialog.dataset.dialog;
      return e.tagName.toLowerCase() + (e.dataset.key ? ':' + e.dataset.key : ''); })()""")
    return found


def expect_focus(page: Page, where: str) -> None:
    page.wait_for_function(
        "(where) => { const e = document.activeElement; const d = e.closest('[data-dialog]');"
        " return (e.matches('ul.hand button.card') ? 'hand:' + e.dataset.card"
        " : d ? 'dialog:' + d.dataset.dialog : '') === where; }", arg=where, timeout=10_000)
    assert focused(page) == where


def my_turn(page: Page) -> None:
    expect(page.get_by_test_id("turn-status")).to_have_text("Your turn")


def test_a_whole_round_by_keyboard_alone(new_page: PageFactory, server: Server) -> None:
    deal = {"dealer": 1, "hands": [["R1", "W", "G5"], ["R2", "G2", "B4", "Y6", "Y8"]],
            "discard": "R9", "draw_pile": ["G2", "B1", "B7", "Y0"]}
    _, ann, bea = seated(new_page, server, deal)
    for _ in range(40):  # the host reaches Start by Tab alone
        ann.keyboard.press("Tab")
        if focused(ann) == "button:start":
            break
    assert focused(ann) == "button:start"
    ann.keyboard.press("Enter")

    # The turn comes: the focus is on the first card the server lets her play.
    my_turn(ann)
    expect_focus(ann, "hand:R1")
    ann.keyboard.press("Enter")
    expect(ann.locator("ul.hand button.card")).to_have_count(2)
    my_turn(bea)
    bea.locator('ul.hand button[data-card="R2"]').click()

    # "?" lists the keys; Esc closes the list and the focus is back where it was.
    my_turn(ann)
    expect_focus(ann, "hand:W")
    ann.keyboard.press("?")
    keys = ann.locator("dialog.keys-dialog")
    expect(keys).to_be_visible()
    for word in ("Draw", "Keep", "Pass", "Call UNO", "Catch", "Challenge", "Choose red"):
        expect(keys).to_contain_text(word)
    shot(ann, "keys-overlay", full_page=False)
    ann.keyboard.press("Escape")
    expect(keys).to_be_hidden()
    expect_focus(ann, "hand:W")

    # D draws a card that fits: its question takes the focus; K keeps it; focus is back.
    ann.keyboard.press("d")
    expect_focus(ann, "dialog:drawn")
    ann.keyboard.press("k")
    expect(ann.locator(".prompt.drawn")).to_have_count(0)
    assert focused(ann).startswith("hand:")
    my_turn(bea)
    bea.locator('ul.hand button[data-card="G2"]').click()

    # Arrows move through the hand; the Wild's colour is a dialog that 1-4 answer.
    my_turn(ann)
    expect_focus(ann, "hand:G2")
    ann.keyboard.press("ArrowRight")
    expect_focus(ann, "hand:G5")
    ann.keyboard.press("End")
    expect_focus(ann, "hand:W")
    ann.keyboard.press("Enter")
    expect_focus(ann, "dialog:color-picker")
    ann.keyboard.press("3")
    expect(ann.get_by_test_id("current-color")).to_have_text("Color: green")
    my_turn(bea)
    bea.locator('button[data-key="draw"]').click()  # nothing green: B1 does not fit either

    # U calls UNO before the second-to-last card; the last one ends the round.
    my_turn(ann)
    expect_focus(ann, "hand:G2")
    ann.keyboard.press("u")
    expect(ann.get_by_test_id("live-polite")).to_contain_text("Ann (you) called UNO!")
    ann.keyboard.press("Enter")
    expect(ann.locator("ul.hand button.card")).to_have_count(1)
    my_turn(bea)
    bea.locator('button[data-key="draw"]').click()
    my_turn(ann)
    expect_focus(ann, "hand:G5")
    ann.keyboard.press("Enter")
    expect(ann.locator("section.results")).to_contain_text("Ann won the round")


def polite(page: Page) -> str:
    text: str = page.get_by_test_id("live-polite").inner_text()
    return text


def test_the_live_regions_say_a_play_your_turn_and_a_catch(
    new_page: PageFactory, server: Server
) -> None:
    deal = {"dealer": 0, "hands": [["R1", "R3"], ["R2", "R4", "Y7"]], "discard": "R9",
            "draw_pile": ["B1", "B2", "B3", "B4"]}
    _, ann, bea = seated(new_page, server, deal)
    ann.locator('button[data-key="start"]').click()
    my_turn(bea)  # the dealer is Ann: Bea plays first
    assertive = ann.get_by_test_id("live-assertive")
    bea.locator('ul.hand button[data-card="R2"]').click()
    expect(ann.get_by_test_id("live-polite")).to_contain_text("Bea played Red 2.")
    expect(assertive).to_have_text("Your turn.")
    assert "Your turn" not in polite(ann)  # said once, at once, not again in the log's words

    # Ann plays her second-to-last card without UNO: she can be caught, then she is.
    ann.locator('ul.hand button[data-card="R1"]').click()
    expect(assertive).to_have_text("You can be caught: call UNO!")
    bea.locator("button.catch").click()
    expect(assertive).to_have_text("You were caught without UNO: you draw 2.")
    expect(ann.get_by_test_id("live-polite")).to_contain_text(
        "Bea caught Ann (you) without UNO: Ann (you) draws.")
    expect(ann.get_by_test_id("live-polite")).to_contain_text("You drew Blue 1, Blue 2.")
    # Only these two regions speak on the table page.
    regions = ann.evaluate("[...document.querySelectorAll('[aria-live]:not([aria-live=off]),"
                           " [role=status], [role=alert], [role=log]')].map((e) => e.id)")
    assert sorted(regions) == ["live-assertive", "live-polite"]


def test_a_spectator_joining_mid_round_reads_the_story_so_far(
    new_page: PageFactory, server: Server
) -> None:
    deal = {"dealer": 1, "hands": [["R1", "R3", "G7"], ["R2", "R4", "Y7"]], "discard": "R9",
            "draw_pile": ["B1", "B2", "B3", "B4"]}
    _, ann, bea = seated(new_page, server, deal)
    ann.locator('button[data-key="start"]').click()
    ann.locator('ul.hand button[data-card="R1"]').click()
    my_turn(bea)
    bea.locator('ul.hand button[data-card="R2"]').click()
    my_turn(ann)

    watcher = new_page()
    watcher.goto(f"{server.url}{ann.url[ann.url.index('/#'):].replace('/room/', '/watch/')}")
    log = watcher.locator(".log-list li")
    expect(log.filter(has_text="Ann played Red 1.")).to_have_count(1)
    lines = log.all_inner_texts() if log.first.is_visible() else log.all_text_contents()
    assert lines.index("The game starts!") < lines.index("Ann played Red 1.") \
        < lines.index("Bea played Red 2.")
    assert "Bea sat down." not in lines  # the lobby's story is not this match's
    # The story so far is written, not spoken, and makes no sound.
    assert "played" not in polite(watcher)
    cues = watcher.evaluate("import('/js/sound.js').then((m) => m.playedCues().length)")
    assert cues == 0
    # What happens next is said as usual.
    ann.locator('ul.hand button[data-card="R3"]').click()
    expect(watcher.get_by_test_id("live-polite")).to_contain_text("Ann played Red 3.")
    expect(log.filter(has_text="Ann played Red 3.")).to_have_count(1)
    shot(watcher, "spectator-story-so-far")
