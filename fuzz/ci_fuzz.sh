#!/usr/bin/env bash
# CI fuzzing: builds the harnesses with clang (ASan + UBSan + libFuzzer, the
# `fuzz` preset) and fuzzes each for a bounded time from its corpus. A finding
# fails the run and prints the reproducer and the command that replays it.
# Usage: fuzz/ci_fuzz.sh [SECONDS_PER_TARGET]   (default 30)
# Memory: the loaders (catalog, case, scenario file) build at most what their
# budgets allow (tools/docs/resources.md), so they run under a tighter limit
# than the others: a YAML alias bomb, a repeat bomb or an unbounded body file
# (issue 16) that slipped past the budgets would exceed it on the seeds that
# hold one (corpus/<target>/). The fuzz preset builds the tools, whose live
# library the scenario-file harness links.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
seconds="${1:-30}"
cd "$root"
cmake --preset fuzz >/dev/null
cmake --build --preset fuzz --target all_fuzzers
bin="$root/build/fuzz/fuzz"
findings="$root/build/fuzz/findings"
rm -rf "$findings"
mkdir -p "$findings"

status=0
for source in fuzz/*_fuzzer.cc; do
  target="$(basename "$source" .cc)"
  work="$(mktemp -d)"  # new inputs go here; the committed corpus stays untouched
  seeds=()
  for dir in "corpus/$target" "corpus/regressions/$target"; do
    [ -d "$dir" ] && seeds+=("$dir")
  done
  log="$findings/$target.log"
  dict="$(sed -n 's/^dict = //p' "fuzz/$target.options")"
  max_len="$(sed -n 's/^max_len = //p' "fuzz/$target.options")"
  case "$target" in
    *_loader_fuzzer) memory=(-rss_limit_mb=1024 -malloc_limit_mb=512) ;;
    *) memory=(-rss_limit_mb=2048) ;;
  esac
  if (cd fuzz && "$bin/$target" -max_total_time="$seconds" -timeout=10 "${memory[@]}" \
        -dict="$dict" -max_len="$max_len" -artifact_prefix="$findings/$target-" -print_final_stats=1 \
        "$work" "${seeds[@]/#/../}" > "$log" 2>&1); then
    echo "fuzz: $target: clean ($(grep -o 'stat::number_of_executed_units: [0-9]*' "$log" | grep -o '[0-9]*$') runs, $(grep -o 'cov: [0-9]*' "$log" | tail -1))"
  else
    status=1
    echo "fuzz: $target: FINDING"
    grep -E "PROPERTY FAILED|ERROR: |SUMMARY" "$log" | head -5 || true
    for reproducer in "$findings/$target-"*; do
      [ -e "$reproducer" ] || continue
      echo "  reproducer: $reproducer"
      echo "  replay:     $bin/$target $reproducer"
    done
  fi
  rm -rf "$work"
done
exit $status
