#!/usr/bin/env bash
# Installs the Debian packages Duelhall builds with. Quiet and quick when all are present.
set -euo pipefail
packages=(build-essential cmake ninja-build pkg-config libboost1.81-dev protobuf-compiler
          libprotobuf-dev libspdlog-dev catch2 libsqlite3-dev libssl-dev libtomlplusplus-dev
          libsodium-dev prometheus clang libclang-rt-14-dev openssl libhiredis-dev redis-server
          python3-yaml libpq-dev postgresql nginx-light ccache libicu-dev)
# prometheus: promtool, which checks /metrics in the tests; clang and its sanitizer and libFuzzer
# runtimes: tests/fuzz; openssl: the TLS tests make their certificate with its command;
# libhiredis-dev: the cluster's Redis client; redis-server: the cluster tests start a throw-away
# one; python3-yaml: the test that checks deploy/'s manifests; libpq-dev: the PostgreSQL stores
# (server/storage/postgres); postgresql: the throw-away database the store and integration tests start
# (tests/support/throwaway_postgres.hpp); nginx-light: the test that runs deploy/compose.yaml's
# cluster on loopback puts deploy/compose-nginx.conf in front of its nodes (never as a service);
# ccache: the test command's four builds share what they compiled with the next run's;
# libicu-dev: ICU's spoof checker for look-alike names (server/accounts/name_skeleton.*).
if [ "${DUELHALL_WITH_BROWSER:-0}" = 1 ]; then
  packages+=(chromium)
  # Node.js may come from another Debian-format package that bundles npm (and conflicts with
  # Debian's npm), so the commands decide, not the package names.
  command -v node >/dev/null 2>&1 || packages+=(nodejs)
  command -v npm >/dev/null 2>&1 || packages+=(npm)
fi
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  sudo_cmd=""
  [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
  echo "installing: ${missing[*]}"
  $sudo_cmd apt-get update -q
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -q --no-install-recommends "${missing[@]}"
fi
