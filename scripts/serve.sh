#!/usr/bin/env bash
# Starts the server with the embedded defaults: SQLite file ./uno.db, in-process bus, one worker,
# and the compiled rules engine where it can be built here (the Python sources otherwise).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/bootstrap.sh
# The engine compiled by mypyc: built once per change of its sources (about a minute), cached
# in .venv/engine-build. Without a C compiler the sources serve, with a notice.
cache=${UNO_ENGINE_CACHE:-.venv/engine-build}
if [ -z "${UNO_ENGINE_BUILD:-}" ]; then
  digest=$(.venv/bin/python -c "from app.engine._build import digest; print(digest())")
  if [ ! -f "$cache/$digest/done" ]; then
    echo "serve.sh: building the compiled engine (once per change of its sources, about a minute)" >&2
  fi
  if build=$(.venv/bin/python -m app.engine._build --cached "$cache" 2>/dev/null); then
    export UNO_ENGINE_BUILD="$build"
  else
    echo "serve.sh: the compiled engine cannot be built here (a C compiler and the Python headers are needed); serving the Python sources" >&2
  fi
fi
# python -m app: uvicorn with this server's WebSocket settings (app/__main__.py).
exec .venv/bin/python -m app --host "${HOST:-127.0.0.1}" --port "${PORT:-8000}" "$@"
