#!/usr/bin/env bash
# Replaces the generated block of a Markdown file, the lines between
# `<!-- matrix:begin -->` and `<!-- matrix:end -->`, with the contents of
# another file (matrix.sh's MATRIX_UPDATE=1). Usage: splice-matrix.sh TARGET BLOCK
# Exit 2 when TARGET lacks the two marker lines (nothing is written).
set -euo pipefail
target="$1"
block="$2"
if ! grep -qx '<!-- matrix:begin -->' "$target" || ! grep -qx '<!-- matrix:end -->' "$target"; then
  echo "splice-matrix.sh: $target has no <!-- matrix:begin --> / <!-- matrix:end --> lines" >&2
  exit 2
fi
tmp="$(mktemp)"
awk -v block="$block" '
  $0 == "<!-- matrix:begin -->" { print; while ((getline line < block) > 0) print line; skip = 1; next }
  $0 == "<!-- matrix:end -->" { skip = 0 }
  !skip { print }
' "$target" >"$tmp"
cat "$tmp" >"$target"
rm -f "$tmp"
