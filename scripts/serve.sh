#!/usr/bin/env bash
# Starts the server with the embedded defaults: SQLite file ./uno.db, in-process bus, one worker.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/bootstrap.sh
# python -m app: uvicorn with this server's WebSocket settings (app/__main__.py).
exec .venv/bin/python -m app --host "${HOST:-127.0.0.1}" --port "${PORT:-8000}" "$@"
