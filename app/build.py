"""Which build of the server this is: ``UNO_BUILD`` (what a deploy names it), or else a digest of
the server's and the browser client's files, so that two builds never share a name.
``/healthz`` and every ``state`` carry it; a browser client that loaded another build reloads
itself between matches (static/js)."""

from __future__ import annotations

import hashlib
import os
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


@cache
def build_id() -> str:
    named = os.environ.get("UNO_BUILD", "").strip()
    if named:
        return named[:40]
    digest = hashlib.sha1()
    for folder, pattern in (("app", "*.py"), ("static", "*")):
        for path in sorted((ROOT / folder).rglob(pattern)):
            if path.is_file() and "__pycache__" not in path.parts:
                digest.update(path.relative_to(ROOT).as_posix().encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()[:12]
