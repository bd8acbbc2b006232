#!/usr/bin/env bash
# The main job: installs what is missing, builds, and runs the conformance
# suite against the reference, printing the report:
#   1. the cases per layer and tag, and what of the catalogs they cover;
#   2. every case against the reference parser, decoders and validator, in
#      process, under every chunking (sse-conform cases --check);
#   3. the same cases through the adapter protocol (sse-conform run with the
#      reference's own adapter), as an external implementation is run.
# Exit status: non-zero when a step fails.
set -uo pipefail
cd "$(dirname "$0")/.."
# SSEC_BUILD_DIR=<configured build dir> reuses that build instead of the release preset.
if [[ -n "${SSEC_BUILD_DIR:-}" ]]; then
  cmake --build "$SSEC_BUILD_DIR" -j2 --target sse-conform >&2 || exit 2
  tool="$SSEC_BUILD_DIR/tools/sse-conform"
else
  ./tools/install-deps.sh >&2 || exit 2
  cmake --preset release >/dev/null || exit 2
  cmake --build --preset release >&2 || exit 2
  tool=./build/release/tools/sse-conform
fi
status=0

echo "== 1. cases and coverage"
coverage_out=$("$tool" coverage --spec spec --cases conformance/cases)
coverage_status=$?
# The per-item lines are long; show the summary, anything not covered, and the totals.
printf '%s\n' "$coverage_out" | grep -v -E '^(ok|excluded) ' || true
echo "(full list: $tool coverage)"
[[ $coverage_status -eq 0 ]] || status=1

echo
echo "== 2. reference check (in process, every chunking)"
"$tool" cases --check --spec spec --cases conformance/cases --chunkings all || status=1

echo
echo "== 3. the reference through the adapter protocol (sse-conform run)"
if "$tool" run --help >/dev/null 2>&1; then
  # Fewer chunkings than step 2: each one is a round trip to the adapter process.
  "$tool" run --impl "$tool adapter" --chunkings whole,as-written,bytes,random:2 --no-progress --jobs 2 || status=1
else
  echo "sse-conform run is not available in this build"
fi
exit $status
