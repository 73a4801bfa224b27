"""English, Korean and Ukrainian: picked from the browser, switchable, remembered; every message
exists in every language."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from .conftest import PageFactory, Server, shot

LANG_DIR = Path(__file__).resolve().parents[2] / "static" / "js" / "lang"
WORDS = {
    "en": {"title": "UNO with friends", "draw_pile": "Draw pile", "discard": "Discard pile",
           "uno": "UNO!", "turn": "Your turn"},
    "ko": {"title": "친구들과 우노", "draw_pile": "드로우 덱", "discard": "버린 카드 더미",
           "uno": "우노!", "turn": "내 차례"},
    "uk": {"title": "УНО з друзями", "draw_pile": "Прикуп", "discard": "Скидання",  # noqa: RUF001
           "uno": "УНО!", "turn": "Ваш хід"},  # noqa: RUF001
}


def message_keys(lang: str) -> set[str]:
    text = (LANG_DIR / f"{lang}.js").read_text(encoding="utf-8")
    return set(re.findall(r'"([\w.+-]+)":\s*"', text))


def test_every_message_exists_in_every_language() -> None:
    english = message_keys("en")
    assert len(english) > 250
    for lang in ("ko", "uk"):
        keys = message_keys(lang)
        assert english - keys == set(), f"{lang} lacks {sorted(english - keys)}"
        assert keys - english == set(), f"{lang} has extra {sorted(keys - english)}"


@pytest.mark.parametrize("lang", ["en", "ko", "uk"])
def test_each_language_renders_the_home_and_the_table(
    lang: str, new_page: PageFactory, server: Server
) -> None:
    words = WORDS[lang]
    room = server.post("/api/rooms", {"name": "Ann", "deal": {
        "dealer": 1, "hands": [["R1", "G2"], ["B3", "Y4"]], "discard": "R9", "draw_pile": []}})
    server.post(f"/api/rooms/{room['code']}/join", {"name": "Bea"})
    page = new_page(lang=lang, seat=(room["code"], room["token"], 0))
    page.goto(f"{server.url}/#/")
    expect(page.get_by_role("heading", level=1)).to_have_text(words["title"])
    expect(page.locator("html")).to_have_attribute("lang", lang)
    page.goto(f"{server.url}/#/room/{room['code']}")
    page.locator('button[data-key="start"]').click()
    expect(page.get_by_test_id("turn-status")).to_have_text(words["turn"])
    expect(page.locator(".draw-pile .pile-label")).to_contain_text(words["draw_pile"])
    expect(page.locator(".discard-pile .pile-label")).to_have_text(words["discard"])
    expect(page.locator("button.uno-button")).to_have_text(words["uno"])
    shot(page, f"table-{lang}")


def test_the_language_can_be_switched_and_is_remembered(
    new_page: PageFactory, server: Server
) -> None:
    page = new_page(lang="en")
    page.goto(f"{server.url}/#/")
    page.get_by_label("Language").select_option("uk")
    expect(page.get_by_role("heading", level=1)).to_have_text(WORDS["uk"]["title"])
    page.reload()
    expect(page.get_by_role("heading", level=1)).to_have_text(WORDS["uk"]["title"])
    page.get_by_label("Мова").select_option("ko")
    expect(page.get_by_role("heading", level=1)).to_have_text(WORDS["ko"]["title"])
