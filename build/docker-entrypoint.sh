#!/bin/sh
# Container entrypoint of the Spades backend (build/backend.Dockerfile): apply the database migrations, then
# start the server in the foreground (exec, so it receives SIGTERM from `docker stop`).
# Works outside Docker too, from any checkout with backend/dist built: build/docker-entrypoint.sh
#   SKIP_MIGRATIONS=1   start without migrating (e.g. when a separate job migrates)
set -eu

APP_DIR="${SPADES_APP_DIR:-$(cd "$(dirname "$0")/.." && pwd)}"
cd "$APP_DIR"

if [ ! -f backend/dist/main.js ] || [ ! -f backend/dist/migrate.js ]; then
  echo "docker-entrypoint: backend/dist is missing in $APP_DIR (build the backend first)" >&2
  exit 1
fi

if [ "${SKIP_MIGRATIONS:-0}" != "1" ]; then
  echo "docker-entrypoint: running database migrations"
  node backend/dist/migrate.js
fi

echo "docker-entrypoint: starting the server"
# the server's heap flags (backend/src/config/node-flags.ts: printed by node-flags.js, minus what NODE_OPTIONS sets)
# shellcheck disable=SC2046
exec node $(node backend/dist/config/node-flags.js) backend/dist/main.js "$@"
