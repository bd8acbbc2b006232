#!/usr/bin/env bash
# Formats the project's C++ with .clang-format (clang-format 14, as CI has it).
# Usage: tools/format.sh          rewrite every tracked C++ file
#        tools/format.sh --check  change nothing; exit 1 listing unformatted files
set -euo pipefail
cd "$(dirname "$0")/.."
fmt="$(command -v clang-format-14 || command -v clang-format || true)"
[ -n "$fmt" ] || { echo "format: clang-format is not installed (tools/install-deps.sh installs it)" >&2; exit 2; }
mapfile -t files < <(git ls-files '*.cpp' '*.hpp' '*.cc' '*.h' | grep -v '^cmake/tests/')
if [ "${1:-}" = "--check" ]; then
  bad=()
  for f in "${files[@]}"; do
    "$fmt" --style=file "$f" | cmp -s - "$f" || bad+=("$f")
  done
  if ((${#bad[@]})); then
    printf 'format: not formatted (run tools/format.sh): %s\n' "${bad[@]}" >&2
    exit 1
  fi
  echo "format: ${#files[@]} files formatted"
else
  "$fmt" --style=file -i "${files[@]}"
fi
