"""The bus's own Redis connection: where a URL points, and commands as Redis reads them."""

from __future__ import annotations

import hiredis
import pytest

from app.cluster.resp import RedisAddress, command


def test_a_redis_url_gives_host_port_credentials_and_tls() -> None:
    assert RedisAddress.from_url("redis://127.0.0.1:6379/0") == RedisAddress("127.0.0.1", 6379)
    assert RedisAddress.from_url("rediss://bob:p%40ss@cache.example:6380/2") == RedisAddress(
        "cache.example", 6380, username="bob", password="p@ss", tls=True)
    assert RedisAddress.from_url("redis://:secret@redis/0").password == "secret"
    assert RedisAddress.from_url("unix:///run/redis.sock?db=1").path == "/run/redis.sock"
    with pytest.raises(ValueError, match="not a Redis URL"):
        RedisAddress.from_url("http://127.0.0.1:6379")


def test_a_command_is_what_redis_parses_back_byte_for_byte() -> None:
    parser = hiredis.Reader()
    payload = '{"text":"ünïcode\r\n$3\r\n"}'
    parser.feed(command("PUBLISH", "uno:bus:room:ABCD", payload))
    assert parser.gets() == [b"PUBLISH", b"uno:bus:room:ABCD", payload.encode()]
