"""Text from clients, made safe once at the edge for every store we run on and every screen.

Postgres refuses NUL in text and JSON, and no store keeps a lone surrogate; control characters
and bidirectional overrides let one player garble or spoof what others read. So:

- a **name** (player, room seat, league, a custom card's label, any other string a client
  sends) that holds a control character, a lone surrogate or a bidirectional control is
  refused with a message naming the problem;
- a **chat** line has them removed (tabs and line breaks become spaces), then is trimmed; a line
  with nothing left is refused.

Format characters other than the bidirectional ones stay: emoji sequences need U+200D.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Annotated

from pydantic import AfterValidator, StringConstraints

# Bidirectional embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069).
_BIDI = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
_SPACES = re.compile(r"[\t\n\r\v\f]+")


def unsafe_character(text: str) -> str | None:
    """The first character that may not appear in client text, described; None: all fine."""
    for ch in text:
        category = unicodedata.category(ch)
        if category == "Cc":
            return f"control character U+{ord(ch):04X}"
        if category == "Cs":
            return f"lone surrogate U+{ord(ch):04X}"
        if ch in _BIDI:
            return f"bidirectional control U+{ord(ch):04X}"
    return None


def safe_text(text: str) -> str:
    """``text`` unchanged, or ValueError naming the character a client may not send."""
    problem = unsafe_character(text)
    if problem is not None:
        raise ValueError(f"text may not contain a {problem}")
    return text


def clean_chat(text: str) -> str:
    """A chat line with every unsafe character removed, trimmed; ValueError if none is left."""
    if unsafe_character(text) is not None:
        text = _SPACES.sub(" ", text)
        text = "".join(
            ch for ch in text
            if unicodedata.category(ch) not in ("Cc", "Cs") and ch not in _BIDI
        )
    text = text.strip()
    if not text:
        raise ValueError("a chat line needs visible characters")
    return text


MAX_NAME = 32


def clean_name(text: str) -> str:
    """A display name: safe, whitespace collapsed, 1 to ``MAX_NAME`` characters."""
    name = " ".join(safe_text(text).split())
    if not name:
        raise ValueError("a name needs visible characters")
    if len(name) > MAX_NAME:
        raise ValueError(f"a name is limited to {MAX_NAME} characters")
    return name


Name = Annotated[str, StringConstraints(max_length=200), AfterValidator(clean_name)]
# Any other short client string (rule keys and values, preset names, labels, ids).
SafeText = Annotated[str, StringConstraints(max_length=64), AfterValidator(safe_text)]
# A chat line: at most 300 characters as sent, cleaned.
ChatText = Annotated[str, StringConstraints(max_length=300), AfterValidator(clean_chat)]
