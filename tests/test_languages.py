"""The client's three languages (static/js/lang/en.js, ko.js, uk.js) say the same things: the
same message keys, each with the same {placeholders}, read from the files themselves (no
browser). Each file is one object literal of JSON strings, so it reads as JSON."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LANG_DIR = ROOT / "static/js/lang"
LANGUAGES = ("en", "ko", "uk")
PLACEHOLDER = re.compile(r"\{(\w+)\}")


def messages(lang: str) -> dict[str, str]:
    """``export const <lang> = { "key": "text", ... };`` after its comment lines."""
    text = (LANG_DIR / f"{lang}.js").read_text(encoding="utf-8")
    found = re.fullmatch(rf"(?:\s*//[^\n]*\n)*\s*export const {lang} = (\{{.*\}});\s*", text,
                         re.DOTALL)
    assert found, f"{lang}.js is not one `export const {lang} = {{...}};` after its comments"
    body = re.sub(r",\s*\}$", "}", found.group(1))  # the one trailing comma JSON refuses

    def no_duplicates(pairs: list[tuple[str, object]]) -> dict[str, object]:
        keys = [key for key, _ in pairs]
        twice = sorted({key for key in keys if keys.count(key) > 1})
        assert not twice, f"{lang}.js says these twice: {twice}"
        return dict(pairs)

    table = json.loads(body, object_pairs_hook=no_duplicates)
    assert all(isinstance(v, str) for v in table.values()), f"{lang}.js: a value is not text"
    return {str(key): str(value) for key, value in table.items()}


def test_each_language_file_reads_as_one_table_of_messages() -> None:
    for lang in LANGUAGES:
        assert len(messages(lang)) > 250, lang


@pytest.mark.parametrize("lang", ["ko", "uk"])
def test_every_message_exists_in_every_language(lang: str) -> None:
    english = set(messages("en"))
    keys = set(messages(lang))
    assert english - keys == set(), f"{lang} lacks {sorted(english - keys)}"
    assert keys - english == set(), f"{lang} has extra {sorted(keys - english)}"


@pytest.mark.parametrize("lang", ["ko", "uk"])
def test_every_message_fills_the_same_placeholders_in_every_language(lang: str) -> None:
    english = messages("en")
    other = messages(lang)
    differ = {key: (sorted(set(PLACEHOLDER.findall(text))),
                    sorted(set(PLACEHOLDER.findall(other[key]))))
              for key, text in english.items()
              if key in other and set(PLACEHOLDER.findall(text))
              != set(PLACEHOLDER.findall(other[key]))}
    assert differ == {}, f"{lang}: placeholders differ from English (en, {lang}): {differ}"
