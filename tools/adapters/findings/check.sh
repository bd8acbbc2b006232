#!/usr/bin/env bash
# Keeps every upstream finding reproduced (tools/docs/findings/): each
# folder here holds the shrunk cases `sse-conform fuzz` wrote for one pinned
# package; each must still fail that package's adapter and pass the
# reference. A finding of the client layer is reproduced by its client case
# (conformance/clients/, listed below), which must fail the package's adapter
# (`--strict`, so that a SHOULD counts) and pass the reference. A package
# that fixes a bug fails this test: then its report and case go, and the pin
# moves. Without Node or the pinned packages (tools/install-deps.sh) it is
# skipped, saying why (exit 77).
# Usage: check.sh SSE_CONFORM
set -euo pipefail
tool="${1:?usage: check.sh SSE_CONFORM}"
here="$(cd "$(dirname "$0")" && pwd)"
adapters="$(dirname "$here")"
command -v node >/dev/null || { echo "SKIPPED: node is not installed (run tools/install-deps.sh)"; exit 77; }
[ -d "$adapters/node_modules" ] || { echo "SKIPPED: $adapters/node_modules is missing (run tools/install-deps.sh)"; exit 77; }
status=0
# folder under findings/ -> the adapter that grades that package
for pair in openai:openai-sse anthropic-ai-sdk:anthropic-sse eventsource:eventsource parse-sse:parse-sse \
  ai-sdk-provider-utils:ai-sdk-sse modelcontextprotocol-sdk:mcp-sse google-genai:google-genai-sse \
  mistralai:mistral-sse undici:undici-eventsource fetch-event-stream:fetch-event-stream; do
  folder="$here/${pair%%:*}"
  adapter="$adapters/${pair##*:}.js"
  n="$(find "$folder" -name '*.yaml' | wc -l)"
  impl="$("$tool" run --impl "node $adapter" --cases "$folder" --chunking as-written --require-all --no-progress 2>&1 | tail -n 1 || true)"
  ref="$("$tool" run --impl "$tool adapter" --cases "$folder" --chunking as-written --require-all --no-progress 2>&1 | tail -n 1 || true)"
  if [[ "$impl" != "FAILED: $n case"*": $n fail ("* ]]; then
    echo "FAIL: ${pair%%:*}: not every finding reproduces on the pinned package: $impl"
    status=1
  elif [[ "$ref" != "PASSED: $n case"*": $n pass ("* ]]; then
    echo "FAIL: ${pair%%:*}: the reference does not pass its findings: $ref"
    status=1
  else
    echo "ok: ${pair%%:*}: $n findings reproduce, the reference passes them"
  fi
done
# page under tools/docs/findings/ : the adapter that grades that package : the client case of one root cause
for finding in undici:undici-eventsource:client/last-event-id/C8LC \
  microsoft-fetch-event-source:fetch-event-source:client/reconnect/C7RA \
  microsoft-fetch-event-source:fetch-event-source:client/http/C9HC \
  microsoft-fetch-event-source:fetch-event-source:client/http/C9HK \
  eventsource-client:eventsource-client:client/http/C9HC; do
  IFS=: read -r page adapter case <<<"$finding"
  impl="$("$tool" run --layer client --strict --impl "node $adapters/$adapter.js" --run "$case" --no-progress 2>&1 | tail -n 1 || true)"
  ref="$("$tool" run --layer client --strict --impl "$tool adapter" --run "$case" --no-progress 2>&1 | tail -n 1 || true)"
  if [[ "$impl" != "FAILED: 1 case: 1 fail ("* ]]; then
    echo "FAIL: $page: $case no longer fails the pinned package: $impl"
    status=1
  elif [[ "$ref" != "PASSED: 1 case: 1 pass ("* ]]; then
    echo "FAIL: $page: the reference does not pass $case: $ref"
    status=1
  else
    echo "ok: $page: $case fails the pinned package, the reference passes it"
  fi
done
exit $status
