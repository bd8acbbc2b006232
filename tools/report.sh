#!/usr/bin/env bash
# The main job: installs what the tool needs and is missing, builds the tool,
# says how long both took, and runs the conformance suite against the
# reference, printing the report:
#   1. the cases per layer and tag, and what of the catalogs they cover;
#   2. every case against the reference parser, decoders and validator, in
#      process, under every chunking (sse-conform cases --check);
#   3. the same cases through the adapter protocol (sse-conform run with the
#      reference's own adapter), as an external implementation is run.
# Exit status: non-zero when a step fails.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
# SSEC_BUILD_DIR=<configured build dir> reuses that build instead of the release preset.
# Only what the report needs is installed and built: the `sse-conform` target
# (tools/install-deps.sh --tool); tools/test.sh installs and builds the rest.
started=$SECONDS
if [[ -n "${SSEC_BUILD_DIR:-}" ]]; then
  setup=0
  cmake --build "$SSEC_BUILD_DIR" -j2 --target sse-conform >&2 || exit 2
  tool="$SSEC_BUILD_DIR/tools/sse-conform"
else
  ./tools/install-deps.sh --tool >&2 || exit 2
  setup=$((SECONDS - started))
  # Without GoogleTest (not installed by --tool) the tests and fuzz targets are
  # left out of the configuration; the release preset turns them on again
  # (tools/test.sh). With it, the configuration keeps them: nothing to redo.
  only_tool=()
  dpkg-query -W -f='${Status}' libgtest-dev 2>/dev/null | grep -q "install ok installed" ||
    only_tool=(-DSSEC_BUILD_TESTS=OFF -DSSEC_BUILD_FUZZERS=OFF)
  cmake --preset release "${only_tool[@]}" >/dev/null || exit 2
  cmake --build --preset release --target sse-conform >&2 || exit 2
  tool=./build/release/tools/sse-conform
fi
echo "report: set-up took ${setup} s, the build of sse-conform $((SECONDS - started - setup)) s" >&2
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
