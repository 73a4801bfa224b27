"""scripts/serve.sh serves the compiled engine where it can be built, and the Python sources,
with a one-line notice, where it cannot."""

from __future__ import annotations

import os
import subprocess
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests import server_fixture
from tests.engine.test_compiled import compiled_build

ROOT = Path(__file__).resolve().parent.parent


@contextmanager
def served(**env: str) -> Iterator[tuple[str, Path]]:
    """scripts/serve.sh on a free port; its /healthz answer and its log."""
    port = server_fixture.free_port()
    log = Path(tempfile.mkstemp(prefix="uno-serve-", suffix=".log")[1])
    with log.open("wb") as out:
        process = subprocess.Popen(
            ["scripts/serve.sh"], cwd=ROOT, stdout=out, stderr=subprocess.STDOUT,
            env={**os.environ, **server_fixture.test_env(), "PORT": str(port), **env})
    try:
        deadline = time.monotonic() + 240  # a first build takes about a minute
        while time.monotonic() < deadline:
            assert process.poll() is None, log.read_text()
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1) as r:
                    yield r.read().decode(), log
                    return
            except OSError:
                time.sleep(0.2)
        raise AssertionError(f"serve.sh did not come up:\n{log.read_text()}")
    finally:
        process.terminate()
        process.wait(20)


@pytest.mark.slow
def test_serve_sh_serves_the_compiled_engine() -> None:
    build = compiled_build()  # what serve.sh builds into its cache, once per source change
    with served(UNO_ENGINE_CACHE=str(build.parent)) as (health, _log):
        assert '"engine":"compiled"' in health


def test_serve_sh_serves_the_sources_with_a_notice_where_nothing_compiles(
    tmp_path: Path,
) -> None:
    with served(UNO_ENGINE_CACHE=str(tmp_path / "cache"), CC="/bin/false") as (health, log):
        assert '"engine":"sources"' in health
    notice = [line for line in log.read_text().splitlines() if "serving the Python sources" in line]
    assert len(notice) == 1
