"""Seat tokens' hashes: the SHA-256 of the token, one string however often it is hashed while
held (a socket's hash is its seat's, not a copy of it)."""

from __future__ import annotations

import hashlib

from app.rooms.codes import new_token, token_hash


def test_a_tokens_hash_is_its_sha256_and_one_string_while_held() -> None:
    token = new_token()
    held = token_hash(token)
    assert held == hashlib.sha256(token.encode()).hexdigest()
    assert token_hash(token) is held
    assert token_hash(new_token()) != held
