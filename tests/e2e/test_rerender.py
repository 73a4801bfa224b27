"""The table re-renders on every frame from the server, patching the page in place
(static/js/dom.js). A press that a frame splits (the mouse goes down, a frame arrives, the mouse
comes up) still does what was pressed: a card is played, UNO is called, a player is caught. Each
was lost when every frame made the table anew (the mouse went down on one button and up on its
copy: no click). The host typing in the rules form goes on typing while people sit down; the
last test holds replaceChildren to what it keeps and what it changes.

The deal (dealer seat 2, so Ann starts on a Red 5):
    Ann (0): R7 R8 G2      Bea (1): R2 R3 B2      Cid (2): R1 G1 B5
"""

from __future__ import annotations

from playwright.sync_api import Locator, Page, expect

from .conftest import PageFactory, Server, say

DEAL = {
    "dealer": 2,
    "hands": [["R7", "R8", "G2"], ["R2", "R3", "B2"], ["R1", "G1", "B5"]],
    "discard": "R5",
    "draw_pile": ["Y4", "B8", "R4", "G8", "Y5", "G9"],
}


def seated(new_page: PageFactory, server: Server) -> tuple[Page, Page, Page]:
    room = server.post("/api/rooms", {"name": "Ann", "deal": DEAL, "rules": {"turn_seconds": 120}})
    code = room["code"]
    bea = server.post(f"/api/rooms/{code}/join", {"name": "Bea"})
    cid = server.post(f"/api/rooms/{code}/join", {"name": "Cid"})
    pages = (new_page(seat=(code, room["token"], 0)), new_page(seat=(code, bea["token"], 1)),
             new_page(seat=(code, cid["token"], 2)))
    for page in pages:
        page.goto(f"{server.url}/#/room/{code}")
        expect(page.get_by_test_id("connection")).to_have_text("Connected")
    pages[0].get_by_role("button", name="Start the game").click()
    expect(pages[0].get_by_test_id("turn-status")).to_have_text("Your turn")
    return pages


def press_through_a_frame(page: Page, target: Locator, other: Page, line: str) -> None:
    """Mouse down on ``target``; ``other`` says ``line`` (a frame: the table re-renders); up."""
    target.hover()
    page.mouse.down()
    say(other, "Chat message", line)
    expect(page.locator(".log-list")).to_contain_text(line)
    page.mouse.up()


def card(page: Page, text: str) -> Locator:
    return page.locator(f'ul.hand button.card[data-card="{text}"]')


def test_a_card_pressed_while_a_frame_arrives_is_played(new_page: PageFactory,
                                                        server: Server) -> None:
    ann, bea, _ = seated(new_page, server)
    press_through_a_frame(ann, card(ann, "R7"), bea, "nice hand")
    expect(ann.locator('.discard-pile .card[data-card="R7"]')).to_be_visible()
    expect(ann.locator("ul.hand button.card")).to_have_count(2)


def test_uno_and_catch_pressed_while_frames_arrive_still_count(new_page: PageFactory,
                                                               server: Server) -> None:
    ann, bea, cid = seated(new_page, server)
    card(ann, "R7").click()
    card(bea, "R2").click()
    card(cid, "R1").click()
    expect(ann.get_by_test_id("turn-status")).to_have_text("Your turn")

    uno = ann.locator('button[data-key="uno"]')
    press_through_a_frame(ann, uno, bea, "go on")
    expect(ann.locator(".log-list")).to_contain_text("Ann (you) called UNO!")
    card(ann, "R8").click()
    expect(uno).to_have_text("UNO called")
    expect(bea.locator("button.catch")).to_have_count(0)

    card(bea, "R3").click()  # her last card but one, and no UNO
    catch = ann.get_by_role("button", name="Catch Bea: they did not say UNO")
    press_through_a_frame(ann, catch, cid, "oh no")
    expect(ann.locator(".log-list")).to_contain_text("Ann (you) caught Bea without UNO")
    expect(ann.locator('li.seat[data-seat="1"] .seat-count')).to_have_text("3 cards")
    expect(ann.locator("button.catch")).to_have_count(0)


def test_the_hosts_rules_form_keeps_its_focus_while_players_sit_down(
        new_page: PageFactory, server: Server) -> None:
    """The lobby re-renders as people sit down; the host typing a target goes on typing in it
    (the form was taken out of the page and put back on every frame: the focus went)."""
    room = server.post("/api/rooms", {"name": "Ann"})
    code = room["code"]
    ann = new_page(seat=(code, room["token"], 0))
    ann.goto(f"{server.url}/#/room/{code}")
    ann.get_by_text("Rules", exact=True).click()
    target = ann.locator(".rules-form").get_by_label("Target")
    target.fill("")
    target.press_sequentially("25")
    for name in ("Bea", "Cid"):
        server.post(f"/api/rooms/{code}/join", {"name": name})
        expect(ann.locator(".lobby-seats")).to_contain_text(name)
    expect(target).to_be_focused()
    target.press_sequentially("0")
    expect(target).to_have_value("250")
    ann.get_by_role("button", name="Apply rules").click()
    expect(ann.locator(".notice")).to_have_text("Rules updated.")


MORPH_SCRIPT = """async () => {
  const { h, replaceChildren, stable } = await import("/js/dom.js");
  const root = document.body.appendChild(h("div#rerender"));
  const clicks = [];
  const view = (n, on) => [
    h("button.b", { key: "b", onclick: () => clicks.push(n), disabled: !on,
      "aria-pressed": on ? "true" : false, class: on ? "on" : "" }, `press ${n}`),
    h("input", { key: "typed", type: "text", value: `v${n}` }),
    h("input", { key: "plain", type: "text", value: `v${n}` }),
    h("input", { key: "box", type: "checkbox", checked: on }),
    h("dialog", { key: "dialog" }, "asked"),
    h("ul", {}, (on ? ["a", "b", "c"] : ["c", "b", "a"]).map((k) => h("li", { key: k }, k))),
  ];
  replaceChildren(root, view(1, false));
  const old = [...root.children];
  const [button, typed, plain, box, dialog, list] = old;
  const items = [...list.children];
  dialog.show();
  typed.focus();
  typed.value = "hello";
  typed.setSelectionRange(2, 2);
  let blurs = 0;
  typed.addEventListener("blur", () => blurs++);
  replaceChildren(root, view(2, true));
  const on = {
    same: [...root.children].every((el, i) => el === old[i]),
    order: [...list.children].map((li) => items.indexOf(li)),
    disabled: button.disabled, pressed: button.getAttribute("aria-pressed"),
    classes: button.className, text: button.textContent,
    focused: document.activeElement === typed && blurs === 0,
    typed: typed.value, caret: typed.selectionStart, plain: plain.value,
    checked: box.checked, open: dialog.open,
  };
  button.click();
  typed.blur();
  replaceChildren(root, view(3, false));
  const off = {
    disabled: button.disabled, pressed: button.hasAttribute("aria-pressed"),
    classes: button.className, typed: typed.value, checked: box.checked, open: dialog.open,
  };
  const cache = {};
  const panel = (signature) => stable(cache, "form", signature, () => h("form", {}, h("input")));
  const slot = document.body.appendChild(h("div#stable-slot"));
  replaceChildren(slot, h("section", {}, panel("x")));
  const form = slot.querySelector("form");
  const field = form.querySelector("input");
  field.focus();
  field.value = "abc";
  let left = 0;
  field.addEventListener("blur", () => left++);
  replaceChildren(slot, h("section.more", {}, h("p", {}, "first"), panel("x")));
  const kept = slot.querySelector("form") === form && document.activeElement === field
    && left === 0 && field.value === "abc";
  replaceChildren(slot, h("section", {}, panel("y")));
  const remade = slot.querySelector("form") !== form && !form.isConnected;
  return { on, clicks, off, kept, remade };
}"""


def test_a_re_render_changes_what_changed_and_keeps_what_the_person_is_doing(
        new_page: PageFactory, server: Server) -> None:
    """replaceChildren (static/js/dom.js) patches the page: the same elements, moved by their
    keys; the new handlers, classes, aria and properties both ways; a focused field's text,
    caret and focus, an open dialog, and a stable panel (with its focused field) untouched."""
    page = new_page()
    page.goto(f"{server.url}/#/")
    expect(page.get_by_role("button", name="Create room")).to_be_visible()
    result = page.evaluate(MORPH_SCRIPT)
    assert result["on"] == {
        "same": True, "order": [2, 1, 0], "disabled": False, "pressed": "true",
        "classes": "b on", "text": "press 2", "focused": True, "typed": "hello", "caret": 2,
        "plain": "v2", "checked": True, "open": True,
    }
    assert result["clicks"] == [2]
    assert result["off"] == {"disabled": True, "pressed": False, "classes": "b", "typed": "v3",
                             "checked": False, "open": True}
    assert result["kept"] and result["remade"]
