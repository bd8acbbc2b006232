#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Side by side, in one run: `sse-conform bench` and its JavaScript peers
# (eventsource-parser alone, and with JSON.parse of every frame; pinned in
# tools/adapters/package.json) on the same generated stream files, in
# alternating rounds, so both see the same machine state. Prints one row per
# comparison: the median and the best of the rounds for each side, and their
# ratios. Also times `check --dialect agent` on standard input and, with
# --fuzz-build, the fuzz harnesses' executions per CPU-second.
# tools/docs/benchmarks.md shows its output; speed is measured here, never
# asserted by a test.
#
#   tools/bench/compare.sh [--build DIR] [--streams DIR] [--rounds N] [--runs R]
#                          [--only ROWS] [--fuzz-build DIR] [--fuzz-seconds S] [--quick]
#
#   --build DIR        release build holding tools/sse-conform (default build/release)
#   --streams DIR      where the benchmark streams are (generated when missing;
#                      default DIR/bench-streams under the build)
#   --rounds N         alternating rounds per row (default 3)
#   --runs R           timed parses per invocation, the median kept (default 5)
#   --only ROWS        comma-separated row names (default: all rows but fuzz)
#   --fuzz-build DIR   fuzz preset build; adds the fuzz rows (libFuzzer binaries)
#   --fuzz-seconds S   seconds per fuzz harness (default 20)
#   --quick            tiny settings (1 round, 1 run, 1 s fuzzing): for the smoke test
#
# Rows: wire-llm-64k wire-llm-16 wire-big-64k wire-crlf-64k wire-line4mb-1
#       floor-llm-64k floor-crlf-64k agent-llm-64k chat-llm-64k check-agent-stdin fuzz
# Exit 0 when every invocation succeeded, 1 otherwise, 2 on a usage error.
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
build="$root/build/release"
streams=""
rounds=3
runs=5
only=""
fuzz_build=""
fuzz_seconds=20

usage() {
  sed -n '13,28p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
}
while [[ $# -gt 0 ]]; do
  case "$1" in
    --build) build=$2; shift 2 ;;
    --streams) streams=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --only) only=$2; shift 2 ;;
    --fuzz-build) fuzz_build=$2; shift 2 ;;
    --fuzz-seconds) fuzz_seconds=$2; shift 2 ;;
    --quick) rounds=1; runs=1; fuzz_seconds=1; shift ;;
    -h | --help) usage ;;
    *) echo "compare.sh: unexpected argument '$1'" >&2; usage ;;
  esac
done
[[ "$rounds" =~ ^[1-9][0-9]*$ && "$runs" =~ ^[1-9][0-9]*$ && "$fuzz_seconds" =~ ^[1-9][0-9]*$ ]] ||
  { echo "compare.sh: --rounds, --runs and --fuzz-seconds take positive whole numbers" >&2; exit 2; }
ssec="$build/tools/sse-conform"
streams=${streams:-$build/bench-streams}
peer="$root/tools/bench/peer/peer_bench.js"

# A real-time priority keeps a core for the benchmark on a shared machine,
# where allowed; the ratio between the sides is what a busy machine keeps.
prio=()
if chrt -f 1 true 2>/dev/null; then prio=(chrt -f 1); fi
have_node=0
if command -v node >/dev/null && [[ -d "$root/tools/adapters/node_modules/eventsource-parser" ]]; then have_node=1; fi

wanted() {
  if [[ -z "$only" ]]; then [[ "$1" != fuzz ]]; else [[ ",$only," == *",$1,"* ]]; fi
}
# Every row but fuzz runs the release sse-conform on the streams; `--only fuzz`
# needs neither.
stream_rows=0
for r in wire-llm-64k wire-llm-16 wire-big-64k wire-crlf-64k wire-line4mb-1 floor-llm-64k floor-crlf-64k \
  agent-llm-64k chat-llm-64k check-agent-stdin; do
  if wanted "$r"; then stream_rows=1; fi
done
if [[ $stream_rows == 1 ]]; then
  [[ -x "$ssec" ]] || { echo "compare.sh: no $ssec (build the release preset's sse-conform target)" >&2; exit 2; }
  if [[ ! -f "$streams/llm.sse" || ! -f "$streams/crlf-multiline.sse" || ! -f "$streams/line-4mb.sse" ]]; then
    "$ssec" bench --generate "$streams" >/dev/null
  fi
fi
failed=0
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# One invocation's figure (MB/s of the median run) from its JSON line.
figure() { sed -n 's/.*"mb_per_s":\([0-9.]*\).*/\1/p' | head -n 1; }

# Median and best of the numbers on stdin, as "median best".
summary() {
  sort -g | awk '{ v[NR] = $1 } END {
    if (NR == 0) { print "- -"; exit }
    m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
    printf "%.1f %.1f\n", m, v[NR] }'
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "-" || b == "-" || b == 0) print "-"; else printf "%.2fx", a / b }'; }

echo "# compare.sh $(date -u +%Y-%m-%dT%H:%M:%SZ)  rounds=$rounds runs=$runs  $(uptime | sed 's/.*load/load/')"
echo "# ours: $ssec bench --runs $runs ...; peer: node tools/bench/peer/peer_bench.js --runs $runs ..."
printf '%-18s %-22s %-24s %-30s %-24s %s\n' row stream "ours MB/s median/best" peer "peer MB/s median/best" \
  "ratio median/best"

# row NAME STREAM CHUNK LAYER PEER_MODE: ours and the peer in alternating rounds.
# PEER_MODE: parse, json, none, or floor: the peer is the wire layer's floor,
# every line end found and nothing else (`bench --layer scan`), and the ratio
# column is our share of its speed.
row() {
  local name=$1 file=$2 chunk=$3 layer=$4 mode=$5
  wanted "$name" || return 0
  local i out peer_cmd=() peer_name="-"
  case "$mode" in
    parse) peer_cmd=(node "$peer") peer_name=eventsource-parser ;;
    json) peer_cmd=(node "$peer" --json) peer_name=eventsource-parser+JSON.parse ;;
    floor) peer_cmd=("$ssec" bench --layer scan) peer_name="line scan (--layer scan)" ;;
  esac
  if [[ "${peer_cmd[0]:-}" == node && $have_node != 1 ]]; then
    peer_cmd=()
    peer_name="$peer_name (no node)"
  fi
  : >"$work/ours" && : >"$work/peer"
  for ((i = 0; i < rounds; ++i)); do
    if out=$("${prio[@]}" "$ssec" bench --layer "$layer" --chunk "$chunk" --runs "$runs" "$streams/$file"); then
      figure <<<"$out" >>"$work/ours"
    else
      failed=1
    fi
    if ((${#peer_cmd[@]})); then
      if out=$("${prio[@]}" "${peer_cmd[@]}" --chunk "$chunk" --runs "$runs" "$streams/$file"); then
        figure <<<"$out" >>"$work/peer"
      else
        failed=1
      fi
    fi
  done
  local o p ratios
  o=$(summary <"$work/ours")
  p=$(summary <"$work/peer")
  if [[ "$mode" == floor ]]; then
    ratios=$(awk -v a="${o%% *}" -v b="${p%% *}" 'BEGIN { if (b > 0) printf "%.0f%% of the floor", 100 * a / b; else print "-" }')
  else
    ratios="$(ratio "${o%% *}" "${p%% *}") / $(ratio "${o##* }" "${p##* }")"
  fi
  printf '%-18s %-22s %-24s %-30s %-24s %s\n' "$name" "$file@$chunk" "${o/ / / }" "$peer_name" "${p/ / / }" "$ratios"
}

row wire-llm-64k llm.sse 65536 wire parse
row wire-llm-16 llm.sse 16 wire parse
row wire-big-64k big-frames.sse 65536 wire parse
row wire-crlf-64k crlf-multiline.sse 65536 wire parse
row wire-line4mb-1 line-4mb.sse 1 wire none
row floor-llm-64k llm.sse 65536 wire floor
row floor-crlf-64k crlf-multiline.sse 65536 wire floor

row agent-llm-64k llm.sse 65536 agent json
row chat-llm-64k llm.sse 65536 chat json

# `check --dialect agent` reading the LLM stream from standard input (a pipe,
# as a live stream arrives): MB/s of the whole command, and its peak RSS.
if wanted check-agent-stdin; then
  : >"$work/ours"
  rss=()
  for ((i = 0; i < rounds; ++i)); do
    start=$(date +%s.%N)
    if cat "$streams/llm.sse" | "${prio[@]}" /usr/bin/time -f '%M' -o "$work/rss" \
      "$ssec" check --dialect agent --max-bytes 0 --quiet - >"$work/check.out" 2>"$work/check.err"; then :; else
      # A non-conforming stream exits 1 with a report; anything else is a failure.
      [[ $? == 1 ]] || { failed=1; cat "$work/check.err" >&2; }
    fi
    stop=$(date +%s.%N)
    bytes=$(stat -c %s "$streams/llm.sse")
    awk -v b="$bytes" -v s="$start" -v e="$stop" 'BEGIN { printf "%.1f\n", b / 1e6 / (e - s) }' >>"$work/ours"
    rss+=("$(tail -n 1 "$work/rss")")
  done
  o=$(summary <"$work/ours")
  printf '%-18s %-22s %-24s %-30s %-24s %s\n' check-agent-stdin "llm.sse@pipe" "${o/ / / }" \
    "peak RSS KB: ${rss[*]}" "" ""
fi

# libFuzzer executions per CPU-second on the committed corpus (a scratch copy:
# the committed one is not written to), with cov and ft at the end.
if wanted fuzz; then
  [[ -n "$fuzz_build" ]] || { echo "compare.sh: the fuzz row needs --fuzz-build DIR" >&2; exit 2; }
  for bin in "$fuzz_build"/fuzz/sse_*_fuzzer; do
    [[ -x "$bin" ]] || continue
    t=$(basename "$bin")
    rm -rf "$work/corpus" && cp -r "$root/corpus/$t" "$work/corpus"
    opts=()
    dict=$(sed -n 's/^dict = //p' "$root/fuzz/$t.options" 2>/dev/null || true)
    [[ -n "$dict" ]] && opts+=("-dict=$root/fuzz/$dict")
    maxlen=$(sed -n 's/^max_len = //p' "$root/fuzz/$t.options" 2>/dev/null || true)
    [[ -n "$maxlen" ]] && opts+=("-max_len=$maxlen")
    # A harness that fails (a property, a crash) keeps its log and its input
    # in the fuzz build, and its row says so: its figure is not a speed.
    status=ok
    "${prio[@]}" /usr/bin/time -f '%U %S' -o "$work/cpu" "$bin" "${opts[@]}" -seed=1 -max_total_time="$fuzz_seconds" \
      -print_final_stats=1 -artifact_prefix="$fuzz_build/compare-$t-" "$work/corpus" >"$work/fuzz.log" 2>&1 || {
      failed=1
      status="FAILED: $fuzz_build/compare-$t.log"
      cp "$work/fuzz.log" "$fuzz_build/compare-$t.log"
    }
    runs_done=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/fuzz.log" | tail -n 1)
    # time(1) puts "Command exited with non-zero status N" before the figures.
    cpu=$(tail -n 1 "$work/cpu" | awk '{ print $1 + $2 }')
    last=$(grep -E '^#[0-9]+' "$work/fuzz.log" | tail -n 1)
    cov=$(sed -n 's/.*cov: \([0-9]*\).*/\1/p' <<<"$last")
    ft=$(sed -n 's/.*ft: \([0-9]*\).*/\1/p' <<<"$last")
    printf '%-18s %-22s %-24s %-30s %-24s %s\n' fuzz "$t" \
      "$(awk -v r="${runs_done:-0}" -v c="$cpu" 'BEGIN { printf "%.0f exec/CPU-s", (c > 0 ? r / c : 0) }')" \
      "runs ${runs_done:-?} in ${cpu} CPU-s" "cov ${cov:-?} ft ${ft:-?}" "${fuzz_seconds} s $status"
  done
fi
exit $failed
