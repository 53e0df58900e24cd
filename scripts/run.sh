#!/usr/bin/env bash
# Builds and starts the server with its defaults: port 8080, data in ./data (SQLite), the web
# client at /. Extra arguments go to the server (see `duelhall --help`).
set -euo pipefail
cd "$(dirname "$0")/.."
DUELHALL_WITH_BROWSER=1 scripts/install-deps.sh
build=${BUILD_DIR:-build/release}
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DDUELHALL_BUILD_TESTS=OFF \
  -DDUELHALL_BUILD_BENCH=OFF >/dev/null
cmake --build "$build" --parallel "$(nproc)"
if [ -f clients/web/package.json ]; then
  scripts/build-web.sh
fi
exec "$build/server/duelhall" "$@"
