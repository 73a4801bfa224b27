"""One table of error and close codes (app/codes.py): every code the server can send is in it,
and the client's copy, its three languages and docs/protocol.md agree with it."""

from __future__ import annotations

import re
from pathlib import Path

from app.codes import CLOSES, ERRORS, Close, Err, client_module

ROOT = Path(__file__).resolve().parent.parent
LANGUAGES = ("en", "ko", "uk")
BASE_CLASS_CODES = {"error", "store_error"}  # defaults of base classes that are never raised


def sent_codes() -> set[str]:
    """Every error code literal the server's sources raise or answer with."""
    found: set[str] = set()
    raising = re.compile(
        r'(?:RoomError|RuleError|ApiError|EngineError|TournamentError|error_response|_error)\((?:[^()"]|\n)*?'
        r'(?<!\[)"([a-z_]+)"(?!\])')  # a literal, not a key read from a dict
    constant = re.compile(r'^\s*(?:[A-Z_]+: Final|code) = "([a-z_]+)"', re.MULTILINE)
    for path in (ROOT / "app").rglob("*.py"):
        text = path.read_text()
        found.update(raising.findall(text))
        if path.name == "errors.py":
            found.update(constant.findall(text))
    return found - BASE_CLASS_CODES


def test_every_code_the_server_sends_is_in_the_table() -> None:
    sent = sent_codes()
    assert {"not_your_turn", "bad_message", "forbidden", "bad_rules"} <= sent  # the scan works
    assert sent - {e.value for e in Err} == set()


def test_every_code_has_a_meaning() -> None:
    assert set(ERRORS) == set(Err) and all(ERRORS.values())
    assert set(CLOSES) == set(Close) and all(CLOSES.values())


def test_the_clients_copy_of_the_codes_is_current() -> None:
    assert (ROOT / "static/js/codes.js").read_text() == client_module(), (
        "run: python -m app.codes > static/js/codes.js")


def test_the_client_explains_every_code_in_english_korean_and_ukrainian() -> None:
    for lang in LANGUAGES:
        text = (ROOT / f"static/js/lang/{lang}.js").read_text()
        keys = set(re.findall(r'^\s*"([a-z_.0-9]+)":', text, re.MULTILINE))
        missing = {f"error.{e.value}" for e in Err} | {f"close.{c.value}" for c in Close}
        assert missing - keys == set(), lang


def test_the_protocol_document_lists_every_code() -> None:
    doc = (ROOT / "docs/protocol.md").read_text()
    for error in Err:
        assert re.search(rf"^\| `{error.value}` \|", doc, re.MULTILINE), error.value
    for close in Close:
        assert re.search(rf"^\| {close.value} \|", doc, re.MULTILINE), close.value
