#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A new event type appears in every export without code changes: copy the
# spec folder, add a type to chat.yaml (and its decision to DECISIONS.md),
# export each format with --spec, and find the type in each.
# Usage: new_type_test.sh SSE_CONFORM SPEC_DIR
set -euo pipefail
bin="$1"
spec="$2"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
cp -r "$spec" "$tmp/spec"

# The new type, before the code dialect (so chat has it, and code inherits it).
python3 - "$tmp/spec/chat.yaml" <<'PY'
import sys
path = sys.argv[1]
text = open(path, encoding="utf-8").read()
event = """      - type: export_probe
        purpose: A probe event added by the export test.
        decision: export-probe
        fields:
          - {key: probeCount, type: integer, required: true, purpose: How many probes were sent., decision: export-probe}
          - {key: probeNote, type: string, required: false, default: none, purpose: A note on the probe., decision: export-probe}

"""
anchor = "  - name: code\n"
assert anchor in text, "no code dialect in chat.yaml"
open(path, "w", encoding="utf-8").write(text.replace(anchor, event + anchor, 1))
PY
printf '\n## export-probe\n\n**A probe type for the export test.** Decision: none; it exists in a copied spec only.\n' \
  >>"$tmp/spec/DECISIONS.md"

fail=0
expect() {  # FILE WHAT PATTERN
  if grep -q -- "$3" "$1"; then echo "ok: $2"; else echo "FAIL: $2: no '$3' in $(basename "$1")"; fail=1; fi
}
"$bin" export --to jsonschema --dialect chat --spec "$tmp/spec" -o "$tmp/chat.schema.json" 2>/dev/null
"$bin" export --to jsonschema --dialect code --spec "$tmp/spec" -o "$tmp/code.schema.json" 2>/dev/null
"$bin" export --to openapi --spec "$tmp/spec" -o "$tmp/openapi.json" 2>/dev/null
"$bin" export --to typescript --spec "$tmp/spec" -o "$tmp/sse.d.ts" 2>/dev/null
"$bin" export --to typescript -o "$tmp/builtin.d.ts" 2>/dev/null

expect "$tmp/chat.schema.json" "jsonschema chat: the type's const" '"const": "export_probe"'
expect "$tmp/chat.schema.json" "jsonschema chat: its required field" '"probeCount"'
expect "$tmp/chat.schema.json" "jsonschema chat: in the oneOf" '"$ref": "#/$defs/ChatExportProbeEvent"'
expect "$tmp/code.schema.json" "jsonschema code (profile): inherited" '"const": "export_probe"'
expect "$tmp/openapi.json" "openapi: component" '"ChatExportProbeEvent": {'
expect "$tmp/openapi.json" "openapi: in the union" '"$ref": "#/components/schemas/ChatExportProbeEvent"'
expect "$tmp/sse.d.ts" "typescript: interface" 'export interface ChatExportProbeEvent {'
expect "$tmp/sse.d.ts" "typescript: in the union" '  | ChatExportProbeEvent'
expect "$tmp/sse.d.ts" "typescript: discriminator" 'readonly type: "export_probe";'
expect "$tmp/sse.d.ts" "typescript: optional field with its default" '@defaultValue `"none"`'
# The control: the built-in catalogs do not have it.
if grep -q export_probe "$tmp/builtin.d.ts"; then echo "FAIL: the built-in export has export_probe"; fail=1; fi
exit "$fail"
