#!/usr/bin/env bash
# The Debian package, built, installed and run as a user would:
#   1. builds the release preset and packs it with CPack (`cpack -G DEB`);
#   2. installs the .deb into this machine with `dpkg -i` (root, or sudo);
#   3. from a directory outside any checkout, runs the installed tool:
#      `sse-conform --version`, `cases`, and the wire layer of the suite
#      against its own adapter (`sse-conform run --impl 'sse-conform adapter'`);
#   4. removes the package again (KEEP_PACKAGE=1 keeps it).
# Usage: tools/package-test.sh [BUILD_DIR]   (default build/release)
# Exit status: 0 when every step passed; the failing step's otherwise.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
build="${1:-build/release}"
if [ "$build" = build/release ]; then
  cmake --preset release >/dev/null
  cmake --build --preset release
else
  cmake --build "$build"
fi
echo "== package: cpack -G DEB in $build"
rm -f "$build"/sse-conform_*.deb
(cd "$build" && cpack -G DEB >/dev/null)
deb="$(ls "$build"/sse-conform_*.deb)"
dpkg-deb --info "$deb" | sed -n 's/^ \(Package\|Version\|Depends\):/  \1:/p'

sudo=""
[ "$(id -u)" = 0 ] || sudo="sudo"
echo "== install: dpkg -i $(basename "$deb")"
$sudo dpkg -i "$deb" >/dev/null
cleanup() {
  [ "${KEEP_PACKAGE:-0}" = 1 ] || $sudo dpkg -r sse-conform >/dev/null 2>&1 || true
  rm -rf "$outside"
}
outside="$(mktemp -d)"
trap cleanup EXIT
cd "$outside"

tool=/usr/bin/sse-conform
echo "== run from $outside"
"$tool" --version
"$tool" --version | grep -q "(/usr/share/sse-conform/conformance/cases)" ||
  { echo "package-test: the installed tool does not read /usr/share/sse-conform" >&2; exit 1; }
"$tool" cases >/dev/null
"$tool" run --impl "$tool adapter" --layer wire --chunkings whole,bytes --jobs 2 --no-progress \
  --junit run.xml --html run.html | tail -n 1
test -s run.xml && test -s run.html
echo "package-test: passed"
