"""Room codes (short, easy to read aloud) and seat tokens (unguessable, stored only as hashes)."""

from __future__ import annotations

import hashlib
import secrets
import sys

# Consonants only: no vowels (no words), no look-alikes (I, O, 0, 1).
CODE_ALPHABET = "BCDFGHJKLMNPQRSTVWXZ"
CODE_LENGTH = 4


def new_room_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def is_room_code(text: str) -> bool:
    """Could ``text`` be a room code (any case)? Anything else is refused before a lookup."""
    return len(text) == CODE_LENGTH and all(ch in CODE_ALPHABET for ch in text.upper())


def normalize_code(code: str) -> str:
    return code.strip().upper()


def new_token() -> str:
    return secrets.token_urlsafe(24)


def token_hash(token: str) -> str:
    """Interned: a socket's hash is then the very string its seat holds (113 bytes a socket
    less); an interned string is dropped with its last reference, as any other."""
    return sys.intern(hashlib.sha256(token.encode()).hexdigest())
