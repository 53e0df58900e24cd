#!/usr/bin/env bash
# Builds and starts the server with its defaults: port 8080, data in ./data (SQLite), the web
# client at /. Extra arguments go to the server (see `duelhall --help`).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${BUILD_DIR:-build/release}
# --help answers at once: no packages, no build (the server's own list when it is built).
for arg in "$@"; do
  if [ "$arg" = "--help" ] || [ "$arg" = "-h" ]; then
    echo "Usage: scripts/run.sh [server options]"
    echo "Installs the Debian packages the server needs, builds it into $build (BUILD_DIR to"
    echo "change), builds the web client, and starts the server with the options given."
    echo "Every option and config key, with its default: deploy/duelhall.toml."
    if [ -x "$build/server/app/duelhall" ]; then
      echo
      "$build/server/app/duelhall" --help
    else
      echo "(The server is not built yet: its own --help lists the same options once it is.)"
    fi
    exit 0
  fi
done
DUELHALL_WITH_BROWSER=1 scripts/install-deps.sh
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DDUELHALL_BUILD_TESTS=OFF \
  -DDUELHALL_BUILD_BENCH=OFF >/dev/null
cmake --build "$build" --parallel "$(nproc)"
if [ -f clients/web/package.json ]; then
  scripts/build-web.sh
fi
exec "$build/server/app/duelhall" "$@"
