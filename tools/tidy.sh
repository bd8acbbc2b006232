#!/usr/bin/env bash
# clang-tidy with the checks of .clang-tidy (every one an error) on the C++
# sources changed since BASE, using the compile commands of a configured build.
# Usage: tools/tidy.sh [BASE]   (default BASE: HEAD~1, the last commit's change)
#        TIDY_BUILD_DIR=build/debug tools/tidy.sh main
# Headers are checked through the sources that include them. Exit status 1
# when clang-tidy reports anything.
set -euo pipefail
cd "$(dirname "$0")/.."
base="${1:-HEAD~1}"
build="${TIDY_BUILD_DIR:-build/release}"
tidy="$(command -v clang-tidy-14 || command -v clang-tidy || true)"
[ -n "$tidy" ] || { echo "tidy: clang-tidy is not installed (tools/install-deps.sh installs it)" >&2; exit 2; }
[ -f "$build/compile_commands.json" ] || { echo "tidy: $build/compile_commands.json missing: configure first" >&2; exit 2; }
if ! git rev-parse -q --verify "$base^{commit}" >/dev/null; then
  echo "tidy: no commit $base to compare with: nothing checked"
  exit 0
fi
mapfile -t files < <(git diff --name-only --diff-filter=ACMR "$base" -- '*.cpp' '*.cc' |
                     grep -v -e '^cmake/tests/' -e '/consumer/' || true)
# The build's compile commands, one per source: a unity batch's command
# (Unity/unity_N_cxx.cxx, cmake/ssec_helpers.cmake) is given to each source it
# includes. The build's precompiled headers are GCC's (.gch), which clang
# cannot read: clang-tidy gets the commands without them, so it parses the
# headers each source includes itself.
commands="$(mktemp -d)"
trap 'rm -rf "$commands"' EXIT
python3 - "$build/compile_commands.json" "$commands/compile_commands.json" <<'PY'
import json, re, sys
entries = []
for e in json.load(open(sys.argv[1])):
    command = re.sub(r" -Winvalid-pch -include [^ ]*cmake_pch\.hxx", "", e["command"])
    batch = e["file"]
    if re.search(r"/Unity/unity_[0-9]+_cxx\.cxx$", batch):
        for source in re.findall(r'^#include "([^"]+)"', open(batch).read(), re.M):
            entries.append({"directory": e["directory"], "file": source, "command": command.replace(batch, source)})
    else:
        entries.append({"directory": e["directory"], "file": batch, "command": command})
json.dump(entries, open(sys.argv[2], "w"), indent=0)
PY
# Only sources this build compiles (a fuzz-only file is not in a release build).
checked=()
for f in "${files[@]}"; do
  grep -q "\"file\": \"$PWD/$f\"" "$commands/compile_commands.json" && checked+=("$f")
done
echo "tidy: ${#checked[@]} changed source(s) since $base"
((${#checked[@]})) || exit 0
printf '%s\n' "${checked[@]}" | xargs -P 2 -n 1 "$tidy" -p "$commands" --quiet
