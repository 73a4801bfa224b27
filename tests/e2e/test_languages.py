# ruff: noqa: RUF001 (Ukrainian words are written in Cyrillic on purpose)
"""English, Korean and Ukrainian: picked from the browser, switchable, remembered; every message
exists in every language (tests/test_languages.py checks that without a browser)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from .conftest import PageFactory, Server, shot

ROOT = Path(__file__).resolve().parents[2]
LANG_DIR = ROOT / "static" / "js" / "lang"
SOURCES = next((p for p in (ROOT.parent / "shared" / "sources", Path("/work/shared/sources"))
                if p.is_dir()), None)
WORDS = {
    "en": {"title": "UNO with friends", "draw_pile": "Draw pile", "discard": "Discard pile",
           "uno": "UNO!", "turn": "Your turn", "skip": "Green Skip", "wd4": "Wild Draw Four"},
    "ko": {"title": "친구들과 우노", "draw_pile": "드로우 덱", "discard": "버린 카드 더미",
           "uno": "우노!", "turn": "내 차례", "skip": "초록 스킵", "wd4": "와일드 드로우 4"},
    "uk": {"title": "УНО з друзями", "draw_pile": "Прикуп", "discard": "Скидання",
           "uno": "УНО!", "turn": "Ваш хід", "skip": "Зелена «Пропусти хід»",
           "wd4": "«Замов колір і візьми чотири»"},
}


def messages(lang: str) -> dict[str, str]:
    text = (LANG_DIR / f"{lang}.js").read_text(encoding="utf-8")
    return dict(re.findall(r'"([\w.+-]+)":\s*"((?:[^"\\]|\\.)*)"', text))


# The words Korean and Ukrainian players use (shared/sources: the rules pages in those languages):
# message key -> a word the message must hold, as the source pages write it.
TERMS = {
    "ko": {
        "card.S": "스킵", "card.R": "리버스", "card.+2": "드로우 2", "card.W": "와일드",
        "card.W+4": "와일드 드로우 4", "card.WS": "와일드 셔플 핸드", "card.WC1": "커스텀 와일드",
        "table.draw_pile": "드로우 덱", "table.discard_pile": "버린 카드 더미", "table.uno": "우노",
        "table.challenge": "도전", "table.your_hand": "패", "log.drew_penalty": "패널티",
        "log.skipped": "차례를 잃", "table.jump_in": "가로채", "table.slap": "센터",
        "table.direction.1": "시계",
    },
    "uk": {
        "card.S": "Пропусти хід", "card.R": "Навпаки", "card.+2": "Візьми дві",
        "card.W": "Замов колір", "card.W+4": "Замов колір і візьми чотири", "card.WB": "Пустуш",
        "card.WC1": "чорн", "table.draw_pile": "Прикуп", "table.discard_pile": "Скидання",
        "table.uno": "УНО", "table.challenge": "на чесність", "table.jump_in": "Перехоп",
        "table.slap": "центр", "log.drew_penalty": "штрафн", "log.silence_on": "Мовчанк",
        "table.direction.1": "за годинниковою стрілкою",
    },
}
# Words the client once used that the source pages never do.
NOT_USED = {"ko": ["슬랩", "벌칙", "손패", "끼어들"], "uk": ["ляпас", "плеск", "дика карта"]}


@pytest.mark.parametrize("lang", ["ko", "uk"])
def test_uno_words_are_the_ones_the_rules_pages_use(lang: str) -> None:
    texts = messages(lang)
    for key, word in TERMS[lang].items():
        text = texts[key]
        assert word.casefold() in text.casefold(), f"{lang} {key}: {text!r} lacks {word!r}"
    everything = "\n".join(texts.values()).casefold()
    for word in NOT_USED[lang]:
        assert word.casefold() not in everything, f"{lang} still says {word!r}"
    if SOURCES is None:
        pytest.skip("shared/sources is not beside the repository")
    pages = "\n".join(p.read_text(encoding="utf-8") for p in SOURCES.glob(f"rules-{lang}-*.txt"))
    pages = pages.casefold()
    for key, word in TERMS[lang].items():
        assert word.casefold() in pages, f"{lang} {key}: {word!r} is not in the rules pages"
    for word in NOT_USED[lang]:
        assert word.casefold() not in pages, f"{lang}: the rules pages do say {word!r}"


@pytest.mark.parametrize("lang", ["en", "ko", "uk"])
def test_each_language_renders_the_home_and_the_table(
    lang: str, new_page: PageFactory, server: Server
) -> None:
    words = WORDS[lang]
    room = server.post("/api/rooms", {"name": "Ann", "deal": {
        "dealer": 1, "hands": [["R1", "GS", "W+4"], ["B3", "Y4"]], "discard": "R9",
        "draw_pile": []}})
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
    # Cards are named as the players of each language name them.
    expect(page.locator('ul.hand button[data-card="GS"]')).to_have_attribute("title", words["skip"])
    expect(page.locator('ul.hand button[data-card="W+4"]')).to_have_attribute("title", words["wd4"])
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
