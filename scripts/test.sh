#!/usr/bin/env bash
# The whole test suite: lint, strict typing, then every test (engine, server, store, cluster, browser).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/bootstrap.sh
.venv/bin/ruff check app tests bench migrations
.venv/bin/mypy
exec .venv/bin/python -m pytest "$@"
