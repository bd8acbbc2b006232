#!/usr/bin/env bash
# The conformance matrix: runs the reference and every adapter of this
# directory through `sse-conform run`, keeps each JSON and HTML report in
# OUT (default BUILD_DIR/matrix), writes the two parts of the Markdown matrix
# there (matrix-readme.md, matrix-full.md) and prints the README's part
# (tools/docs/run.md, "The conformance matrix"). The client matrix
# (`run --layer client`, tools/docs/client-cases.md) has the reference and
# every adapter whose hello lists the layer `client`: its reports are in
# OUT/client/, its two parts in OUT/client-matrix-readme.md and
# OUT/client-matrix-full.md.
# Usage: tools/adapters/matrix.sh [BUILD_DIR] [OUT]
# Environment:
#   JOBS=N             adapter processes per run (default 2)
#   ADAPTERS="a b"     which adapters of this directory (default: all thirteen; "" for the reference only)
#   CLIENT_ADAPTERS="a b"  which adapters the client matrix tries, each kept if its hello lists `client`
#                      (default: ADAPTERS when set, else the thirteen and eventsource-client)
#   CASES=DIR          another case directory (default: the source tree's)
#   CLIENT_CASES=DIR   another client case directory (default: the data directory's conformance/clients)
#   MATRIX_LAYERS="wire client"  which matrices to produce (default both)
#   BROWSER_RESULTS=F  a `sse-conform serve --browser-results` file of wire rows: adds its browser's column
#   BROWSER_CLIENT_RESULTS=F  the same for client rows: adds its browser's column to the client matrix
#   BROWSER=PATH       a Chromium binary: produce both first (OUT/chromium.txt and OUT/chromium-client.txt
#                      by default), from one `serve` of the wire and the client cases
#   MATRIX_LINKS=P     prefix of the case-file links of the full page (default ../../, from tools/docs/)
#   MATRIX_UPDATE=1    write the two parts of each matrix produced into README.md and
#                      tools/docs/matrix.md (splice-matrix.sh: the `matrix` and `client-matrix` blocks)
# Exit: 0 when every run could start (whatever its results), 2 otherwise.
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
build="${1:-$root/build/release}"
out="${2:-$build/matrix}"
tool="$build/tools/sse-conform"
[ -x "$tool" ] || { echo "matrix.sh: $tool not built" >&2; exit 2; }
mkdir -p "$out"
cases=()
[ -n "${CASES:-}" ] && cases=(--cases "$CASES")
client_cases=()
[ -n "${CLIENT_CASES:-}" ] && client_cases=(--cases "$CLIENT_CASES")
layers=" ${MATRIX_LAYERS-wire client} "
all_adapters="eventsource-parser fetch-event-source fetch-event-stream eventsource parse-sse openai-sse anthropic-sse
  ai-sdk-sse mcp-sse google-genai-sse mistral-sse undici-eventsource agent-service-sample"
status=0
reports=()
client_reports=()
run() {  # name command [run options]: a wire run, or with --layer client a client run (in OUT/client/)
  local name="$1" impl="$2" dir="$out"
  shift 2
  local options=("${cases[@]}")
  if [ "${1:-}" = --layer ]; then dir="$out/client"; options=("$@" "${client_cases[@]}"); fi
  mkdir -p "$dir"
  "$tool" run --no-progress --jobs "${JOBS:-2}" "${options[@]}" --impl "$impl" --json "$dir/$name.json" \
    --html "$dir/$name.html" >"$dir/$name.txt"
  local code=$?
  if [ "$code" -ge 2 ]; then echo "matrix.sh: $dir/$name: setup error (see $dir/$name.txt)" >&2; status=2; return; fi
  if [ "$dir" = "$out" ]; then reports+=("$out/$name.json"); else client_reports+=("$dir/$name.json"); fi
}
# Whether an adapter's hello lists the layer `client` (it answers connect).
lists_client() {  # adapter
  local hello
  hello="$(printf '%s\n' '{"op":"hello","protocol":1}' '{"op":"bye"}' | node "$here/$1.js" 2>/dev/null | head -n 1)"
  [[ "$hello" =~ \"layers\":\[[^]]*\"client\" ]]
}

# The browser column: headless Chromium's EventSource on the `serve` page,
# over the wire cases and, as their client, the client cases. Its rows are
# split by layer: BROWSER_RESULTS (wire) and BROWSER_CLIENT_RESULTS (client).
if [ -n "${BROWSER:-}" ]; then
  BROWSER_RESULTS="${BROWSER_RESULTS:-$out/chromium.txt}"
  BROWSER_CLIENT_RESULTS="${BROWSER_CLIENT_RESULTS:-$out/chromium-client.txt}"
  rm -f "$BROWSER_RESULTS" "$BROWSER_CLIENT_RESULTS"
  profile="$(mktemp -d)"
  client_dir="${CLIENT_CASES:-$root/conformance/clients}"
  [[ "$layers" == *" client "* ]] || client_dir=""
  serve_cases=(--cases "${CASES:-$root/conformance/cases}" --client-cases "$client_dir" --tags "$root/spec/tags.yaml")
  "$tool" serve "${serve_cases[@]}" --port 0 --duration-s 900 --browser-results "$BROWSER_RESULTS" >"$out/serve.log" 2>&1 &
  serve_pid=$!
  url=""
  for _ in $(seq 100); do
    url="$(sed -n 's|.* cases at \(http://[^ ]*\)/ .*|\1|p' "$out/serve.log")"
    [ -n "$url" ] && break
    sleep 0.1
  done
  if [ -z "$url" ]; then
    echo "matrix.sh: serve did not start (see $out/serve.log)" >&2
    kill "$serve_pid" 2>/dev/null
    exit 2
  fi
  setsid "$BROWSER" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking \
    --disable-component-update --disable-sync --disable-dev-shm-usage --disable-crash-reporter --disable-breakpad \
    --no-default-browser-check --user-data-dir="$profile" "$url/browser" >/dev/null 2>&1 &
  browser_pid=$!
  wait "$serve_pid"
  kill -- -"$browser_pid" 2>/dev/null
  wait "$browser_pid" 2>/dev/null
  rm -rf "$profile"
  if [ -r "$BROWSER_RESULTS" ]; then
    awk '$2 ~ /^client\//' "$BROWSER_RESULTS" >"$BROWSER_CLIENT_RESULTS"
    awk '$2 !~ /^client\//' "$BROWSER_RESULTS" >"$BROWSER_RESULTS.wire" && mv "$BROWSER_RESULTS.wire" "$BROWSER_RESULTS"
  fi
fi

if [[ "$layers" == *" wire "* ]]; then
  run reference "'$tool' adapter"
  for adapter in ${ADAPTERS-$all_adapters}; do
    run "$adapter" "node '$here/$adapter.js'"
  done
  if [ -n "${BROWSER_RESULTS:-}" ]; then
    if [ -r "$BROWSER_RESULTS" ]; then
      reports+=("$BROWSER_RESULTS")
    else
      echo "matrix.sh: BROWSER_RESULTS=$BROWSER_RESULTS cannot be read" >&2
      status=2
    fi
  fi
  # Both parts of the matrix: the README's (wire by tag, dialect layers another
  # column graded) on stdout and in OUT/matrix-readme.md; the full page's (every
  # row, the cases not passing, linked from tools/docs/) in OUT/matrix-full.md.
  "$tool" run "${cases[@]}" --matrix-from "${reports[@]}" --matrix-part readme --matrix-out "$out/matrix-readme.md" || status=2
  "$tool" run "${cases[@]}" --matrix-from "${reports[@]}" --matrix-part full --matrix-links "${MATRIX_LINKS-../../}" \
    --matrix-out "$out/matrix-full.md" || status=2
  [ -r "$out/matrix-readme.md" ] && cat "$out/matrix-readme.md"
fi

# The client matrix: the client cases against the reference and every adapter
# that answers connect. The README's part opens with what its table grades.
if [[ "$layers" == *" client "* ]]; then
  run reference "'$tool' adapter" --layer client
  for adapter in ${CLIENT_ADAPTERS-${ADAPTERS-$all_adapters eventsource-client}}; do
    if lists_client "$adapter"; then run "$adapter" "node '$here/$adapter.js'" --layer client; fi
  done
  if [ -n "${BROWSER_CLIENT_RESULTS:-}" ]; then
    if [ -s "$BROWSER_CLIENT_RESULTS" ]; then
      client_reports+=("$BROWSER_CLIENT_RESULTS")
    else
      echo "matrix.sh: BROWSER_CLIENT_RESULTS=$BROWSER_CLIENT_RESULTS has no result lines" >&2
      status=2
    fi
  fi
  {
    echo 'The client layer (`run --layer client`, `tools/docs/client-cases.md`): what each client that'
    echo 'connects to a URL does on the network (reconnection and its delay, `Last-Event-ID`, a status'
    echo 'or Content-Type that fails the connection, redirects, request headers, `close()`), for the'
    echo 'reference, every adapter that answers `connect` and, with BROWSER, Chromium'"'"'s EventSource'
    echo 'on `serve`'"'"'s page. The cases each column does not pass are on `tools/docs/matrix.md`.'
    echo
    "$tool" run --layer client "${client_cases[@]}" --matrix-from "${client_reports[@]}" --matrix-part readme
  } >"$out/client-matrix-readme.md" || status=2
  "$tool" run --layer client "${client_cases[@]}" --matrix-from "${client_reports[@]}" --matrix-part full \
    --matrix-links "${MATRIX_LINKS-../../}" --matrix-out "$out/client-matrix-full.md" || status=2
fi
# MATRIX_UPDATE=1: replace the generated blocks of README.md and
# tools/docs/matrix.md (between their `<!-- matrix:begin -->` and
# `<!-- matrix:end -->` lines, and `client-matrix` for the client matrix)
# with these, so neither is edited by hand. A README without the client
# block gets it after the wire block.
if [ "${MATRIX_UPDATE:-0}" = 1 ] && [ "$status" = 0 ]; then
  if [[ "$layers" == *" wire "* ]]; then
    "$here/splice-matrix.sh" "$root/README.md" "$out/matrix-readme.md" || status=2
    "$here/splice-matrix.sh" "$root/tools/docs/matrix.md" "$out/matrix-full.md" || status=2
  fi
  if [[ "$layers" == *" client "* ]]; then
    "$here/splice-matrix.sh" "$root/README.md" "$out/client-matrix-readme.md" client-matrix matrix || status=2
    "$here/splice-matrix.sh" "$root/tools/docs/matrix.md" "$out/client-matrix-full.md" client-matrix || status=2
  fi
fi
exit "$status"
