#!/usr/bin/env bash
# Builds the browser client into clients/web/dist (served by the server at /): installs the
# locked npm packages, generates the protobuf types from proto/ with Debian's protoc, type-checks
# and bundles. Needs nothing online but the npm registry (and that only when node_modules is
# missing or out of date).
set -euo pipefail
cd "$(dirname "$0")/../clients/web"
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund
fi
npm run build
