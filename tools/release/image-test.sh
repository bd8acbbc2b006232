#!/usr/bin/env bash
# The container image (tools/release/Dockerfile), built and run where a
# container engine works:
#   1. finds docker or podman whose `info` answers, and the base image
#      debian:12-slim (present, or pulled); without either it says exactly
#      why and skips (exit 77), or fails when SSEC_REQUIRE_IMAGE=1 (the
#      release workflow);
#   2. builds the image from the portable tarball (packed from BUILD_DIR by
#      tools/release/tarball.sh, or the TARBALL given) as IMAGE (default
#      sse-conform:test), in a context holding only the tarball
#      (SSEC_IMAGE_SOURCE: the repository address for the image's source label);
#   3. runs tools/release/check-installed.sh inside it: `--version` names the
#      image's data, the wire layer against its own adapter, the README's
#      example commands (libcurl is in the image, so check --url runs too).
# Usage: tools/release/image-test.sh BUILD_DIR|TARBALL [IMAGE]
# Exit status: 0 passed, 1 failed, 2 setup error, 77 skipped (said why).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
arg="${1:?usage: image-test.sh BUILD_DIR|TARBALL [IMAGE]}"
image="${2:-sse-conform:test}"
base=debian:12-slim

skip() {
  echo "SKIPPED: $*"
  [ "${SSEC_REQUIRE_IMAGE:-0}" = 1 ] && { echo "image-test: SSEC_REQUIRE_IMAGE=1: a skip is a failure" >&2; exit 1; }
  exit 77
}
first_line() { tr -s '\n' ' ' <<<"$1" | sed 's/ *$//' | cut -c1-200; }

engine=""
why=()
for candidate in docker podman; do
  if ! command -v "$candidate" >/dev/null 2>&1; then
    why+=("$candidate is not installed")
    continue
  fi
  if out="$("$candidate" info 2>&1)"; then
    engine="$candidate"
    break
  fi
  why+=("'$candidate info' fails: $(first_line "$(grep -i -m1 -e error -e cannot <<<"$out" || echo "$out")")")
done
if [ -z "$engine" ]; then
  reasons="$(printf '%s; ' "${why[@]}")"
  skip "no working container engine (${reasons%; })"
fi
if ! "$engine" image inspect "$base" >/dev/null 2>&1; then
  if ! out="$("$engine" pull "$base" 2>&1)"; then
    skip "$engine works, but the base image $base is not present and '$engine pull $base' fails: $(first_line "$out")"
  fi
fi

context="$(mktemp -d)"
trap 'rm -rf "$context"' EXIT
if [ -d "$arg" ]; then
  echo "== pack: tools/release/tarball.sh $arg"
  "$here/tarball.sh" "$arg" "$context" >/dev/null || exit 2
else
  cp "$arg" "$context/"
fi
tarball="$(basename "$(ls "$context"/sse-conform-*.tar.gz)")"
echo "== $engine build -t $image ($base + $tarball)"
"$engine" build -t "$image" -f "$here/Dockerfile" --build-arg "TARBALL=$tarball" \
  --build-arg "SOURCE=${SSEC_IMAGE_SOURCE:-}" "$context"

echo "== $engine run $image: tools/release/check-installed.sh inside"
"$engine" run --rm "$image" --version
"$engine" run --rm -v "$here/check-installed.sh:/usr/local/libexec/check-installed.sh:ro" --entrypoint bash "$image" \
  /usr/local/libexec/check-installed.sh sse-conform
echo "image-test: passed ($image)"
