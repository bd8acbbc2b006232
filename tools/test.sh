#!/usr/bin/env bash
# Installs what is missing, builds and runs every test. Usage: tools/test.sh [PRESET...]
# (default: release; CI adds asan). Exit status is ctest's.
set -euo pipefail
cd "$(dirname "$0")/.."
./tools/install-deps.sh
# The tests start python3 hundreds of times (the shell tests' JSON checks,
# certify's crashing consumers). Where python3 is a pyenv shim, every start
# first runs pyenv's shell scripts (80 ms a start on the CI machine); the
# interpreter the shim resolves to goes first on PATH, so tests start it directly.
if python3="$(python3 -c 'import sys; print(sys.executable)' 2>/dev/null)" &&
  [ -n "$python3" ] && [ "$(command -v python3)" != "$python3" ]; then
  PATH="$(dirname "$python3"):$PATH"
  export PATH
fi
presets=("$@")
((${#presets[@]})) || presets=(release)
for preset in "${presets[@]}"; do
  echo "== tests: preset $preset"
  cmake --preset "$preset" >/dev/null
  cmake --build --preset "$preset"
  ctest --preset "$preset"
done
