"""The compiled engine: the same sources, compiled to C extensions by mypyc.

    python -m app.engine._build DEST      # needs mypy (a dev dependency) and a C compiler

copies this package's sources to ``DEST/app/engine`` and compiles each module (but those in
``NOT_COMPILED``) next to its source, plus one shared ``*__mypyc`` library at ``DEST``. Python's
import system tries extension modules before ``.py`` files in the same directory, so with ``DEST``
on ``sys.path`` (or the extensions copied next to the sources, as the Dockerfile does)
``import app.engine`` loads the compiled modules and nothing else changes: same rules, events,
views and snapshots. The ``.py`` files stay the source of truth; ``app.engine.COMPILED`` tells
which build is running.
"""

from __future__ import annotations

import hashlib
import shutil
import subprocess
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent
# errors.py stays interpreted: its exception classes set ``code`` as a class attribute, which
# compiled subclasses of Exception do not carry to their instances; it is never on a hot path.
NOT_COMPILED = ("__init__.py", "_build.py", "errors.py")


def sources() -> list[Path]:
    return sorted(PACKAGE.glob("*.py"))


def digest() -> str:
    """Changes whenever a source changes (the bench keys its cached build on it)."""
    return hashlib.sha1(b"".join(p.read_bytes() for p in sources())).hexdigest()[:12]


def build(dest: Path) -> None:
    """Copy the sources to ``dest/app/engine`` and compile them there with mypyc."""
    package = dest / "app" / "engine"
    package.mkdir(parents=True, exist_ok=True)
    init = dest / "app" / "__init__.py"
    if not init.exists():
        init.write_text("")
    for source in sources():
        shutil.copy(source, package / source.name)
    modules = [f"app/engine/{p.name}" for p in sources() if p.name not in NOT_COMPILED]
    done = subprocess.run(
        [sys.executable, "-m", "mypyc", *modules],
        cwd=dest,
        check=False,
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        raise SystemExit(f"mypyc failed:\n{done.stdout[-4000:]}\n{done.stderr[-4000:]}")
    check(dest)


def check(dest: Path) -> None:
    """Import the build from ``dest`` in a fresh interpreter and fail unless it is compiled."""
    code = "import app.engine as e, sys; sys.exit(0 if e.COMPILED else 1)"
    done = subprocess.run([sys.executable, "-c", code], cwd=dest, check=False)
    if done.returncode != 0:
        raise SystemExit(f"{dest}: app.engine does not load as the compiled build")


def cached(base: Path) -> Path:
    """The build of the current sources under ``base`` (``base/DIGEST``), built if missing."""
    dest = base.resolve() / digest()
    if not (dest / "done").exists():
        if dest.exists():
            shutil.rmtree(dest)  # a build that stopped halfway
        build(dest)
        (dest / "done").write_text(digest())
    return dest


def main() -> None:
    """``python -m app.engine._build DEST``: build into DEST. ``--cached BASE``: the build of
    the current sources under BASE (built once per change of the sources); prints its path."""
    if len(sys.argv) == 3 and sys.argv[1] == "--cached":
        print(cached(Path(sys.argv[2])))
        return
    if len(sys.argv) != 2:
        raise SystemExit("usage: python -m app.engine._build DEST | --cached BASE")
    dest = Path(sys.argv[1]).resolve()
    build(dest)
    print(f"compiled engine in {dest}")


if __name__ == "__main__":
    main()
