"""The rules form's schema is the server's (app/rules_schema.py from app/engine/rules.py): the
client's copy is the generator's output, and every key it lists has its group, name and
explanation in English, Korean and Ukrainian (static/js/rules-words.js)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from app.engine.errors import InvalidRules
from app.engine.rules import PRESETS, RULE_KEYS, RuleSet, rules_from_dict
from app.rules_schema import CUSTOM_KEY, client_module, rule_entries

ROOT = Path(__file__).resolve().parent.parent
LANGUAGES = ("en", "ko", "uk")


def rule_words() -> dict[str, object]:
    """The WORDS table of static/js/rules-words.js (strict JSON between its braces)."""
    text = (ROOT / "static/js/rules-words.js").read_text(encoding="utf-8")
    body = re.search(r"^export const WORDS = (\{.*?^\});$", text, re.MULTILINE | re.DOTALL)
    assert body, "rules-words.js: no `export const WORDS = {...};` block"
    words: dict[str, object] = json.loads(body.group(1))
    return words


def test_the_clients_copy_of_the_rules_schema_is_current() -> None:
    assert (ROOT / "static/js/rules-schema.js").read_text(encoding="utf-8") == client_module(), (
        "run: python -m app.rules_schema > static/js/rules-schema.js")


def accepted(key: str, value: object) -> bool:
    """The server takes ``value`` for ``key`` (a combination it refuses still counts: the
    value itself is one the key may have)."""
    try:
        rules_from_dict({key: value})
    except InvalidRules as refused:
        return refused.code != "bad_rules"
    return True


def test_the_schema_lists_every_toggle_with_the_servers_limits() -> None:
    entries = {entry["key"]: entry for entry in rule_entries()}
    assert set(entries) == RULE_KEYS - {CUSTOM_KEY}
    defaults = RuleSet()
    for key, entry in entries.items():
        assert entry["default"] == getattr(defaults, key), key
        if entry["type"] == "int":  # the form's limits are the ones the server enforces
            assert accepted(key, entry["min"]) and accepted(key, entry["max"]), key
            assert not accepted(key, entry["min"] - 1), key
            assert not accepted(key, entry["max"] + 1), key
        elif entry["type"] == "choice":
            assert all(accepted(key, choice) for choice in entry["choices"]), key
            assert not accepted(key, "no_such_choice"), key
        else:
            assert entry["type"] == "bool" and not accepted(key, 1), key


def test_every_rule_and_choice_has_words_in_three_languages() -> None:
    words = rule_words()
    rules = words["rules"]
    groups = words["groups"]
    assert isinstance(rules, dict) and isinstance(groups, list)
    keys = {entry["key"] for entry in rule_entries()}
    assert set(rules) == keys, (f"without words: {sorted(keys - set(rules))}; "
                                f"words for no key: {sorted(set(rules) - keys)}")
    for key, entry in rules.items():
        assert entry["group"] in groups, key
        for part in ("label", "about"):
            for lang in LANGUAGES:
                assert entry[part].get(lang, "").strip(), f"{key} {part} lacks {lang}"
    choices = words["choices"]
    assert isinstance(choices, dict)
    needed = {c for entry in rule_entries() if entry["type"] == "choice" for c in entry["choices"]}
    assert needed - set(choices) == set(), "choices without words"
    for value in needed:
        for lang in LANGUAGES:
            assert choices[value].get(lang, "").strip(), f"choice {value} lacks {lang}"


def test_every_preset_names_only_keys_of_the_schema() -> None:
    keys = {entry["key"] for entry in rule_entries()}
    for name, values in PRESETS.items():
        assert set(values) <= keys, name
