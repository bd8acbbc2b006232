#!/usr/bin/env bash
# The conformance matrix: runs the reference and every adapter of this
# directory through `sse-conform run`, keeps each JSON and HTML report in
# OUT (default BUILD_DIR/matrix), and prints the Markdown matrix
# (tools/docs/run.md). Usage: tools/adapters/matrix.sh [BUILD_DIR] [OUT]
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
build="${1:-$root/build/release}"
out="${2:-$build/matrix}"
tool="$build/tools/sse-conform"
[ -x "$tool" ] || { echo "matrix.sh: $tool not built" >&2; exit 2; }
mkdir -p "$out"
reports=()
run() {  # name command
  "$tool" run --no-progress --jobs "${JOBS:-2}" --impl "$2" --json "$out/$1.json" --html "$out/$1.html" >"$out/$1.txt"
  local status=$?
  if [ "$status" -ge 2 ]; then echo "matrix.sh: $1: setup error (see $out/$1.txt)" >&2; return; fi
  reports+=("$out/$1.json")
}
run reference "'$tool' adapter"
for adapter in eventsource-parser fetch-event-source fetch-event-stream agent-service-sample; do
  run "$adapter" "node '$here/$adapter.js'"
done
"$tool" run --matrix-from "${reports[@]}" --matrix-links "${MATRIX_LINKS:-}"
