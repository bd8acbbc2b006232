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
    clang-14 libclang-rt-14-dev           # libFuzzer and the fuzz preset
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
adapters="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/adapters"
# The pinned packages declare Node 22.12 or later; Debian 12 has 18.
"$adapters/install-node.sh" || echo "install-deps: Node 22 could not be installed; the adapters run on the machine's node" >&2
hash -r
if [ ! -d "$adapters/node_modules" ] || [ "$adapters/package-lock.json" -nt "$adapters/node_modules" ]; then
  echo "install-deps: npm ci in tools/adapters"
  # The adapters serve the conformance matrix, not the tests: a registry
  # hiccup must not stop a build.
  if npm ci --prefix "$adapters" --no-audit --no-fund; then
    touch "$adapters/node_modules"
  else
    echo "install-deps: npm ci failed; the JavaScript adapters will not run" >&2
  fi
fi

# The checks of `sse-conform export` (tools/export-check/): ajv, the OpenAPI
# 3.2 schema validator and tsc, pinned. Without them the export checks skip.
export_check="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/export-check"
if [ ! -d "$export_check/node_modules" ] || [ "$export_check/package-lock.json" -nt "$export_check/node_modules" ]; then
  echo "install-deps: npm ci in tools/export-check"
  if npm ci --prefix "$export_check" --no-audit --no-fund; then
    touch "$export_check/node_modules"
  else
    echo "install-deps: npm ci failed; the export checks will skip" >&2
  fi
fi

# The producer matrix (tools/producers/): the pinned server frameworks. Without
# them its test skips, saying so.
producers="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/producers"
if [ ! -d "$producers/node_modules" ] || [ "$producers/package-lock.json" -nt "$producers/node_modules" ]; then
  echo "install-deps: npm ci in tools/producers"
  if npm ci --prefix "$producers" --no-audit --no-fund; then
    touch "$producers/node_modules"
  else
    echo "install-deps: npm ci failed; the producer matrix will skip" >&2
  fi
fi
