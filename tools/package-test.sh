#!/usr/bin/env bash
# The Debian package, built, installed and run as a user would:
#   1. builds the release preset and packs it with CPack (`cpack -G DEB`);
#   2. installs the .deb into this machine with `dpkg -i` (root, or sudo);
#   3. from a directory outside any checkout, runs the installed tool
#      (tools/release/check-installed.sh): `sse-conform --version` reads
#      /usr/share/sse-conform, the examples and the JavaScript adapters are
#      there, `cases`, the wire layer of the suite against its own adapter
#      (`sse-conform run --impl 'sse-conform adapter'`), and the README's
#      example commands on the installed example run;
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
dpkg-deb --info "$deb" | sed -n 's/^ \(Package\|Version\|Depends\|Maintainer\):/  \1:/p'

sudo=""
[ "$(id -u)" = 0 ] || sudo="sudo"
echo "== install: dpkg -i $(basename "$deb")"
$sudo dpkg -i "$deb" >/dev/null
cleanup() {
  [ "${KEEP_PACKAGE:-0}" = 1 ] || $sudo dpkg -r sse-conform >/dev/null 2>&1 || true
}
trap cleanup EXIT
"$root/tools/release/check-installed.sh" /usr/bin/sse-conform /usr/share/sse-conform
echo "package-test: passed"
