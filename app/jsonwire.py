"""JSON as it goes on the wire and the bus: compact, encoded by one shared encoder (``json.dumps``
with ``separators`` builds a new encoder on every call, a third of the cost of a small frame)."""

from __future__ import annotations

import json
from typing import Any

_COMPACT = json.JSONEncoder(separators=(",", ":"))


def compact_json(value: Any) -> str:
    """``json.dumps(value, separators=(",", ":"))``, without building an encoder each time."""
    return _COMPACT.encode(value)
