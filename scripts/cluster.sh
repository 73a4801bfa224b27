#!/usr/bin/env bash
# Several Redis-backed workers started natively (what docker-compose.yml runs, without Docker).
# Postgres and Redis must be running. No load balancer here: each worker has its own port, and
# a client may connect to any of them (a room is run by the worker holding its lease).
#
#   scripts/cluster.sh                   # 3 workers on ports 8001, 8002, 8003
#   WORKERS=2 BASE_PORT=9000 scripts/cluster.sh
#   UNO_DATABASE_URL=postgresql+asyncpg://postgres@127.0.0.1:5432/uno \
#   UNO_REDIS_URL=redis://127.0.0.1:6379/0 scripts/cluster.sh
# Ctrl-C (or SIGTERM) stops every worker gracefully: each hands its rooms over.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/bootstrap.sh
export UNO_DATABASE_URL=${UNO_DATABASE_URL:-postgresql+asyncpg://postgres@127.0.0.1:5432/uno}
export UNO_REDIS_URL=${UNO_REDIS_URL:-redis://127.0.0.1:6379/0}
WORKERS=${WORKERS:-3}
BASE_PORT=${BASE_PORT:-8001}
HOST=${HOST:-127.0.0.1}

# Migrate once, before any worker starts.
.venv/bin/alembic upgrade head

pids=()
stop() {
  for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  wait
}
trap stop INT TERM EXIT

for ((i = 0; i < WORKERS; i++)); do
  port=$((BASE_PORT + i))
  UNO_WORKER_ID="worker-$port" .venv/bin/python -m app --host "$HOST" --port "$port" \
    --timeout-graceful-shutdown 10 &
  pids+=("$!")
  echo "worker $((i + 1)) of $WORKERS: http://$HOST:$port (pid $!)"
done
wait
