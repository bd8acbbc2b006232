#!/usr/bin/env bash
# The producer matrix (tools/docs/producers.md): starts each app of this folder, one at a time,
# grades every route with `sse-conform check` (its dialect: wire, or agent), compares what the
# reference parser dispatched with the events the app meant to send (compare.js), stops the
# app, and prints one row per framework:
#   FRAMEWORK VERSION: ROUTE [check DIALECT: verdict (findings)] [comparison]; ROUTE ...
#
# Usage: tools/producers/run.sh [--tool PATH] [--details] [--keep DIR] [--expect FILE] [APP ...]
#   APP        hono better-sse better-sse-text h3 express node-http ai-sdk (default: all)
#   --details  also print check's findings and the comparison's lines under each row
#   --keep DIR keep each route's capture, check report and comparison in DIR
#   --tool     the sse-conform to run (default $SSE_CONFORM, else build/release/tools/sse-conform)
#   --expect FILE  compare the rows of every app (no APP given), version numbers left out, with FILE (expected.txt: the
#              known findings of each framework); any difference is printed and exits 1
#
# Exit: 0 every row ran (findings are results, not failures) and, with --expect, every row is
# the expected one; 1 a row differs from --expect's; 2 an app did not start, a check
# could not run (setup error) or a comparison could not run; 77 (SKIPPED) node_modules is
# missing, or node is older than 20.19. On SIGINT, SIGTERM or SIGHUP the running app is
# stopped before exiting.

set -u

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
tool=${SSE_CONFORM:-$root/build/release/tools/sse-conform}
all_apps=(hono better-sse better-sse-text h3 express node-http ai-sdk)

details=0
keep=
expect=
apps=()
rows=
while [ $# -gt 0 ]; do
  case $1 in
    --details) details=1 ;;
    --keep) keep=${2:?--keep needs a folder}; shift ;;
    --tool) tool=${2:?--tool needs a path}; shift ;;
    --expect) expect=${2:?--expect needs a file}; shift ;;
    -h | --help) awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "$0"; exit 0 ;;
    -*) echo "run.sh: unknown option $1" >&2; exit 2 ;;
    *) apps+=("$1") ;;
  esac
  shift
done
[ ${#apps[@]} -eq 0 ] && apps=("${all_apps[@]}")
case $tool in /*) ;; *) tool=$PWD/$tool ;; esac  # compare.js runs from this folder

if [ ! -d "$here/node_modules" ]; then
  echo "SKIPPED: tools/producers/node_modules is missing (install the pinned frameworks: npm ci --prefix tools/producers)"
  exit 77
fi
if ! command -v node >/dev/null; then
  echo "SKIPPED: node is not installed"
  exit 77
fi
# The pinned frameworks' engines: h3 2.0.8 asks the most, Node 20.19.
if ! node -e 'const [a, b] = process.versions.node.split(".").map(Number); process.exit(a > 20 || (a === 20 && b >= 19) ? 0 : 1)'; then
  echo "SKIPPED: node $(node --version) is older than the pinned frameworks accept (20.19)"
  exit 77
fi
if [ ! -x "$tool" ]; then
  echo "run.sh: no sse-conform at $tool (build it, or set SSE_CONFORM)" >&2
  exit 2
fi
for app in "${apps[@]}"; do
  if [ ! -f "$here/$app.js" ]; then
    echo "run.sh: no app $app (one of: ${all_apps[*]})" >&2
    exit 2
  fi
done

work=$(mktemp -d "${TMPDIR:-/tmp}/sse-producers.XXXXXX")
app_pid=

stop_app() {
  if [ -n "$app_pid" ]; then
    kill "$app_pid" 2>/dev/null
    wait "$app_pid" 2>/dev/null
    app_pid=
  fi
}
cleanup() {
  stop_app
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

# Starts node APP.js on a free port; sets url, or returns 1 when no `listening` line came in 15 s.
start_app() {
  local app=$1 out=$work/$1.out
  : > "$out"
  node "$here/$app.js" 0 < /dev/null > "$out" 2> "$work/$app.err" &
  app_pid=$!
  local waited=0
  while [ $waited -lt 150 ]; do
    url=$(sed -n 's/^listening //p' "$out" | head -n 1)
    [ -n "$url" ] && return 0
    kill -0 "$app_pid" 2>/dev/null || break
    sleep 0.1
    waited=$((waited + 1))
  done
  stop_app
  return 1
}

status=0
for app in "${apps[@]}"; do
  if ! meta=$(cd "$here" && node describe.js meta "$app.js" 2> "$work/$app.meta.err"); then
    echo "$app: cannot read the app's description: $(head -c 300 "$work/$app.meta.err")"
    status=2
    continue
  fi
  IFS=$'\t' read -r framework version exposes <<< "$(head -n 1 <<< "$meta")"
  if ! start_app "$app"; then
    echo "$framework $version: did not start: $( (grep -m 1 -E '^[A-Za-z]*Error' "$work/$app.err" || tail -n 1 "$work/$app.err") | head -c 300)"
    status=2
    continue
  fi
  row="$framework $version:"
  block="    exposes: $exposes"$'\n'
  while read -r route dialect; do
    [ -z "$route" ] && continue
    base=$work/$app${route//\//-}
    "$tool" check --dialect "$dialect" --url "$url$route" --idle-timeout-s 10 --timeout-s 60 -q \
      --record "$base.capture" --json "$base.check.json" < /dev/null > "$base.check.txt" 2>&1
    rc=$?
    if [ $rc -gt 1 ]; then
      row+=" $route [check $dialect: could not run, exit $rc]"
      block+=$(sed 's/^/    /' "$base.check.txt")$'\n'
      status=2
      continue
    fi
    verdict=$(cd "$here" && node describe.js check "$base.check.json" < /dev/null)
    (cd "$here" && SSE_CONFORM=$tool node compare.js "$app.js" "$route" "$base.capture" "$work/$app.out") \
      < /dev/null > "$base.compare.txt" 2>&1
    crc=$?
    if [ $crc -gt 1 ]; then
      comparison="comparison could not run: $(tail -n 1 "$base.compare.txt")"
      status=2
    else
      comparison=$(sed -n 's/^summary: //p' "$base.compare.txt")
    fi
    row+=" $route [check $dialect: $verdict] [$comparison];"
    block+=$(grep -E '^\S+: (frame [0-9]+, )?byte' "$base.check.txt" | sed 's/^/    check: /')$'\n'
    block+=$(grep -v '^summary: ' "$base.compare.txt" | sed 's/^/    compare: /')$'\n'
  done <<< "$(tail -n +2 <<< "$meta")"
  stop_app
  echo "${row%;}"
  rows+="${row%;}"$'\n'
  [ $details -eq 1 ] && grep -v '^\s*$' <<< "$block"
  if [ -n "$keep" ]; then
    mkdir -p "$keep" && cp "$work/$app"-* "$work/$app.out" "$keep/" 2>/dev/null
  fi
done

# The rows against the expected ones, without version numbers (the frameworks
# are pinned; Node's own version is the machine's).
if [ -n "$expect" ] && [ $status -eq 0 ]; then
  unversioned() { sed -E 's/ ?[0-9]+\.[0-9]+\.[0-9]+//g' "$@"; }
  if diff <(unversioned "$expect") <(unversioned <<< "${rows%$'\n'}") > "$work/expect.diff"; then
    echo "as expected: every row is the one in $(basename "$expect")"
  else
    echo "NOT as expected ($expect, < expected, > now):"
    cat "$work/expect.diff"
    status=1
  fi
fi
exit $status
