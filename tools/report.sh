#!/usr/bin/env bash
# The main job: installs what is missing, builds, and runs the suite against the
# reference parser, printing the report. Today the report is the reference's
# parse of the bundled example stream.
set -euo pipefail
cd "$(dirname "$0")/.."
./tools/install-deps.sh >&2
cmake --preset release >/dev/null
cmake --build --preset release >&2
./build/release/tools/sse-conform parse tools/examples/agent-run.sse
