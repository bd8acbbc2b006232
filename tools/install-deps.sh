#!/usr/bin/env bash
# Installs what a fresh Debian 12 machine lacks to build and test sse-conform.
# Idempotent, and fast when everything is present (one dpkg query, no apt).
# Usage: tools/install-deps.sh [--tool] [--browser]
#   --tool     only what building the `sse-conform` target needs (the compiler,
#              CMake, Ninja and the libraries the tool links; tools/report.sh);
#              no clang, clang-tidy, GoogleTest, Google Benchmark or npm trees
#   --browser  (or SSEC_BROWSER_TESTS=1) headless Chromium too, for the serve
#              page's EventSource test (tools/live/tests); CI passes it
set -euo pipefail

tool_only=0
browser="${SSEC_BROWSER_TESTS:-0}"
for arg in "$@"; do
  case "$arg" in
    --tool) tool_only=1 ;;
    --browser) browser=1 ;;
    *) echo "usage: tools/install-deps.sh [--tool] [--browser]" >&2; exit 2 ;;
  esac
done

# The `sse-conform` target: the libraries its CMake configuration finds
# (yaml-cpp, nlohmann/json, CLI11, simdjson, zlib; libcurl's headers only, the
# library is opened at run time).
packages=(
  cmake ninja-build g++ pkg-config
  libyaml-cpp-dev nlohmann-json3-dev libcli11-dev libsimdjson-dev
  libcurl4-openssl-dev zlib1g-dev
)
if ((!tool_only)); then
  packages+=(
    git zip unzip python3
    clang-14 libclang-rt-14-dev           # the asan and fuzz presets' compiler and sanitizers
    libclang-rt-19-dev                    # their libFuzzer (SSEC_LIBFUZZER_ARCHIVE)
    clang-format-14 clang-tidy-14         # .clang-format, tools/tidy.sh
    libgtest-dev libgmock-dev libbenchmark-dev
    dpkg-dev file                         # CPack's .deb and its dependencies (tools/package-test.sh)
    patchelf                              # the portable tarball's library path (tools/release/tarball.sh)
    nginx-light openssl                   # check through a real proxy, TLS and HTTP/2 (tools/tests/nginx_test.sh)
  )
  if [[ "$browser" == 1 ]]; then
    packages+=(chromium)
  fi
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

sudo=""
[ "$(id -u)" = 0 ] || sudo="sudo"
if ((${#missing[@]})); then
  echo "install-deps: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
else
  echo "install-deps: all ${#packages[@]} packages present"
fi
((!tool_only)) || exit 0

# The JavaScript adapters (tools/adapters/): Node and the pinned npm packages.
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  echo "install-deps: installing nodejs npm"
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends nodejs npm
fi
tools="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
adapters="$tools/adapters"
# The pinned packages declare Node 22.12 or later; Debian 12 has 18.
"$adapters/install-node.sh" || echo "install-deps: Node 22 could not be installed; the adapters run on the machine's node" >&2
hash -r

# `npm ci` in tools/DIR when its tree is missing or older than its lock file.
# A registry hiccup must not stop a build: what needs the tree says it skips.
npm_tree() {  # DIR WHAT-FAILS
  local dir="$tools/$1"
  [ -d "$dir/node_modules" ] && [ ! "$dir/package-lock.json" -nt "$dir/node_modules" ] && return 0
  echo "install-deps: npm ci in tools/$1"
  if npm ci --prefix "$dir" --no-audit --no-fund; then
    touch "$dir/node_modules"
  else
    echo "install-deps: npm ci failed; $2" >&2
  fi
}
# The JavaScript adapters serve the conformance matrix and the npm findings.
npm_tree adapters "the JavaScript adapters will not run"
# The checks of `sse-conform export`: ajv, the OpenAPI 3.2 schema validator and tsc, pinned.
npm_tree export-check "the export checks will skip"
# The producer matrix: the pinned server frameworks.
npm_tree producers "the producer matrix will skip"
