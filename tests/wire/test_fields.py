"""The wire's value types (app/wire): what a client may send as an id, a name, a chat line."""

from __future__ import annotations

import pytest

from app.wire.fields import BAD_ID, message_id
from app.wire.text import clean_chat, clean_name, safe_text


@pytest.mark.parametrize("good", ["a", "x" * 64, 0, -(2**53), 2**53])
def test_an_id_is_a_short_string_or_a_whole_number_a_client_can_hold_exactly(good: object) -> None:
    assert message_id(good) == good


@pytest.mark.parametrize("bad", ["", "x" * 65, 2**53 + 1, 1.5, True, None, [1], "a\u0000"])
def test_any_other_id_is_refused_saying_what_an_id_is(bad: object) -> None:
    with pytest.raises(ValueError) as refused:
        message_id(bad)
    assert str(refused.value) == BAD_ID or "control character" in str(refused.value)


def test_names_are_trimmed_and_collapsed_and_unsafe_ones_refused() -> None:
    assert clean_name("  Ann   Lee ") == "Ann Lee"
    for unsafe in ("a\u0000", "\ud800", "evil\u202e"):
        with pytest.raises(ValueError):
            clean_name(unsafe)
    with pytest.raises(ValueError):
        clean_name("x" * 33)
    assert safe_text("🎉\u200d") == "🎉\u200d"  # emoji sequences keep their joiner


def test_chat_loses_its_unsafe_characters_and_an_empty_line_is_refused() -> None:
    assert clean_chat("hi\tthere\u0000!\u202e") == "hi there!"
    with pytest.raises(ValueError):
        clean_chat("\u0000\u0001 ")
