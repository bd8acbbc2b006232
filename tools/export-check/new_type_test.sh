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
text = text.replace(anchor, event + anchor, 1)
# And a producer rule on it, which no format can express (at most once).
rule = """  - id: EXPORT-PROBE-ONCE
    severity: should
    basis: decision
    dialects: [chat]
    text: A stream sends at most one export_probe.
    decision: export-probe
    check: {kind: at_most_once, types: [export_probe]}
"""
assert "\nrules:\n" in text, "no rules in chat.yaml"
text = text.replace("\nrules:\n", "\nrules:\n" + rule, 1)
open(path, "w", encoding="utf-8").write(text)
PY
printf '\n## export-probe\n\n**A probe type for the export test.** Decision: none; it exists in a copied spec only.\n' \
  >>"$tmp/spec/DECISIONS.md"

fail=0
expect() {  # FILE WHAT PATTERN
  if grep -q -- "$3" "$1"; then echo "ok: $2"; else echo "FAIL: $2: no '$3' in $(basename "$1")"; fail=1; fi
}
"$bin" export --to jsonschema --dialect chat --spec "$tmp/spec" -o "$tmp/chat.schema.json" 2>"$tmp/jsonschema.err"
"$bin" export --to jsonschema --dialect code --spec "$tmp/spec" -o "$tmp/code.schema.json" 2>/dev/null
"$bin" export --to openapi --spec "$tmp/spec" -o "$tmp/openapi.json" 2>"$tmp/openapi.err"
"$bin" export --to typescript --spec "$tmp/spec" -o "$tmp/sse.ts" 2>"$tmp/typescript.err"
"$bin" export --to typescript -o "$tmp/builtin.ts" 2>/dev/null

expect "$tmp/chat.schema.json" "jsonschema chat: the type's const" '"const": "export_probe"'
expect "$tmp/chat.schema.json" "jsonschema chat: its required field" '"probeCount"'
expect "$tmp/chat.schema.json" "jsonschema chat: its branch (if type, then its schema)" '"$ref": "#/$defs/ChatExportProbeEvent"'
expect "$tmp/code.schema.json" "jsonschema code (profile): inherited" '"const": "export_probe"'
expect "$tmp/openapi.json" "openapi: component" '"ChatExportProbeEvent": {'
expect "$tmp/openapi.json" "openapi: in the union" '"$ref": "#/components/schemas/ChatExportProbeEvent"'
expect "$tmp/sse.ts" "typescript: interface" 'export interface ChatExportProbeEvent {'
expect "$tmp/sse.ts" "typescript: in the union" '  | ChatExportProbeEvent'
expect "$tmp/sse.ts" "typescript: discriminator" 'readonly type: "export_probe";'
expect "$tmp/sse.ts" "typescript: optional field with its default" '@defaultValue `"none"`'
expect "$tmp/sse.ts" "typescript: in the run-time list of types" 'chatEventTypes: readonly ChatEventType\[\] = \[.*"export_probe"'
# The event's schema, member by member.
if python3 - "$tmp/chat.schema.json" <<'PY'; then echo "ok: jsonschema chat: type, required, default, description"; else fail=1; fi
import json, sys
e = json.load(open(sys.argv[1], encoding="utf-8"))["$defs"]["ChatExportProbeEvent"]
want = {
    "description": "A probe event added by the export test.",
    "required": ["type", "probeCount"],
    "count type": "integer",
    "note type": "string",
    "note default": "none",
}
got = {
    "description": e.get("description"),
    "required": e.get("required"),
    "count type": e["properties"]["probeCount"].get("type"),
    "note type": e["properties"]["probeNote"].get("type"),
    "note default": e["properties"]["probeNote"].get("default"),
}
for k in want:
    if want[k] != got[k]:
        print(f"FAIL: jsonschema chat: {k}: {got[k]!r}, expected {want[k]!r}")
sys.exit(0 if want == got else 1)
PY
# The new rule: in the annotations / TSDoc, and in each "not expressible" list.
expect "$tmp/chat.schema.json" "jsonschema chat: the rule in x-sse-conform-rules" '"id": "EXPORT-PROBE-ONCE"'
expect "$tmp/openapi.json" "openapi: the rule in x-sse-conform-rules" '"id": "EXPORT-PROBE-ONCE"'
expect "$tmp/sse.ts" "typescript: the rule as @remarks" '@remarks rule EXPORT-PROBE-ONCE (should'
for f in jsonschema openapi typescript; do
  expect "$tmp/$f.err" "$f: the rule in the not-expressible list" "chat: EXPORT-PROBE-ONCE: at_most_once (should)"
done
# The control: the built-in catalogs do not have it.
if grep -q export_probe "$tmp/builtin.ts"; then echo "FAIL: the built-in export has export_probe"; fail=1; fi
# With the pinned tools (tools/install-deps.sh): ajv validates a probe frame
# and rejects one without its required field; tsc --strict compiles a consumer
# of the new interface.
check_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
if [ -d "$check_dir/node_modules" ]; then
  if node - "$check_dir" "$tmp/chat.schema.json" <<'JS'; then echo "ok: ajv: a probe frame validates, one without probeCount does not"; else fail=1; fi
const [dir, file] = process.argv.slice(2);
const Ajv2020 = require(`${dir}/node_modules/ajv/dist/2020`);
const schema = JSON.parse(require('fs').readFileSync(file, 'utf8'));
const ajv = new Ajv2020({ strict: false, allowUnionTypes: true });
const validate = ajv.compile(schema);
const good = validate({ type: 'export_probe', probeCount: 2 });
const bad = validate({ type: 'export_probe', probeNote: 'x' });
if (!good || bad) console.log(`FAIL: ajv: probe frame ${good}, without probeCount ${bad}`);
process.exit(good && !bad ? 0 : 1);
JS
  cat >"$tmp/probe.ts" <<'TS'
import type { ChatExportProbeEvent, ChatSseEvent } from './sse';
export function count(e: ChatSseEvent): number {
  return e.type === 'export_probe' ? e.probeCount + (e.probeNote ?? '').length : 0;
}
// @ts-expect-error probeCount is required
export const bad: ChatExportProbeEvent = { type: 'export_probe' };
TS
  if node "$check_dir/node_modules/typescript/bin/tsc" --strict --noEmit --target es2020 --module commonjs \
    "$tmp/sse.ts" "$tmp/probe.ts"; then
    echo "ok: tsc --strict compiles a consumer of ChatExportProbeEvent"
  else
    echo "FAIL: tsc --strict on the new type"
    fail=1
  fi
elif [ "${SSEC_REQUIRE_EXPORT_CHECKS:-0}" = 1 ]; then
  echo "FAIL: tools/export-check/node_modules is missing and SSEC_REQUIRE_EXPORT_CHECKS=1"
  fail=1
else
  echo "note: tools/export-check/node_modules is missing: ajv and tsc not run on the new type (run tools/install-deps.sh)"
fi
exit "$fail"
