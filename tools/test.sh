#!/usr/bin/env bash
# Installs what is missing, builds and runs every test. Usage: tools/test.sh [PRESET...]
# (default: release; CI adds asan). Exit status is ctest's.
set -euo pipefail
cd "$(dirname "$0")/.."
./tools/install-deps.sh
presets=("$@")
((${#presets[@]})) || presets=(release)
for preset in "${presets[@]}"; do
  echo "== tests: preset $preset"
  cmake --preset "$preset" >/dev/null
  cmake --build --preset "$preset"
  ctest --preset "$preset"
done
