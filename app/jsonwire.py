"""JSON as it goes on the wire and the bus: compact, by orjson (a frame in a tenth of the
time the standard library's encoder took: ``python -m bench.jsonwire``)."""

from __future__ import annotations

from typing import Any

import orjson


def compact_json(value: Any) -> str:
    """``json.dumps(value, separators=(",", ":"), ensure_ascii=False)``: the same JSON, but
    non-ASCII text as UTF-8 rather than ``\\u`` escapes. Keys that are not strings (a seat's
    number) become strings, as the standard library makes them."""
    try:
        return orjson.dumps(value).decode()
    except TypeError:  # a key that is not a string: the slower option that converts it
        return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()
