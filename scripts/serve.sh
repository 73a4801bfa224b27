#!/usr/bin/env bash
# Starts the server with the embedded defaults: SQLite file ./uno.db, in-process bus, one worker.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/bootstrap.sh
# Frames are a few hundred bytes: compressing them (permessage-deflate) cost a fifth of the
# server's CPU per move in bench/server.py, and a zlib state per socket.
exec .venv/bin/uvicorn app.main:app --host "${HOST:-127.0.0.1}" --port "${PORT:-8000}" \
  --ws-per-message-deflate false "$@"
