#!/usr/bin/env bash
# Replaces the generated block of a Markdown file, the lines between
# `<!-- NAME:begin -->` and `<!-- NAME:end -->` (NAME `matrix` unless given),
# with the contents of another file (matrix.sh's MATRIX_UPDATE=1).
# Usage: splice-matrix.sh TARGET BLOCK [NAME [AFTER]]
# A TARGET without NAME's marker lines gets them, around BLOCK and after a
# blank line, right after its `<!-- AFTER:end -->` line when AFTER is given
# (the README's client matrix goes after the wire matrix so). Exit 2 when
# TARGET lacks the marker lines and AFTER's end line (nothing is written).
set -euo pipefail
target="$1"
block="$2"
name="${3:-matrix}"
after="${4:-}"
begin="<!-- $name:begin -->"
end="<!-- $name:end -->"
tmp="$(mktemp)"
if grep -qxF "$begin" "$target" && grep -qxF "$end" "$target"; then
  awk -v block="$block" -v begin="$begin" -v end="$end" '
    $0 == begin { print; while ((getline line < block) > 0) print line; skip = 1; next }
    $0 == end { skip = 0 }
    !skip { print }
  ' "$target" >"$tmp"
elif [ -n "$after" ] && grep -qxF "<!-- $after:end -->" "$target"; then
  awk -v block="$block" -v begin="$begin" -v end="$end" -v anchor="<!-- $after:end -->" '
    { print }
    $0 == anchor { print ""; print begin; while ((getline line < block) > 0) print line; print end }
  ' "$target" >"$tmp"
else
  rm -f "$tmp"
  echo "splice-matrix.sh: $target has no $begin / $end lines${after:+ and no <!-- $after:end --> line}" >&2
  exit 2
fi
cat "$tmp" >"$target"
rm -f "$tmp"
