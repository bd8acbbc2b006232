#!/usr/bin/env bash
# CI fuzzing: builds the harnesses with clang (ASan + UBSan + libFuzzer) and
# fuzzes each for a bounded time from its corpus, as many at once as there are
# cores (each harness is one process on one core). A finding fails the run and
# prints the reproducer and the command that replays it.
# Usage: fuzz/ci_fuzz.sh [--preset P] [--grow] [SECONDS_PER_TARGET [TARGET...]]
#   (default: fuzz, 30 s, every harness)
#   --preset asan fuzzes the harnesses of the sanitizer build that also ran
#   the tests (.ci/run), so CI compiles them once; the fuzz preset is the
#   faster -O2 build for fuzzing by hand.
#   --grow merges into corpus/<target> the new inputs of a clean run that add
#   coverage (libFuzzer's -merge=1), to be committed: CI's short runs then
#   start where a long one ended (HACKING.md, "Growing a corpus").
#   SSEC_FUZZ_JOBS=N runs N harnesses at once (default: nproc).
# Memory: the loaders (catalog, case, scenario file) build at most what their
# budgets allow (tools/docs/resources.md), so they run under a tighter limit
# than the others: a YAML alias bomb, a repeat bomb or an unbounded body file
# that slipped past the budgets would exceed it on the seeds that hold one
# (corpus/<target>/). Both presets build the tools, whose live library the
# scenario-file harness links.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
preset=fuzz
grow=0
usage="usage: fuzz/ci_fuzz.sh [--preset P] [--grow] [SECONDS [TARGET...]]"
while (($#)); do
  case "$1" in
    --preset) preset="${2:?$usage}"; shift 2 ;;
    --grow) grow=1; shift ;;
    *) break ;;
  esac
done
seconds="${1:-30}"
[[ "$seconds" =~ ^[1-9][0-9]*$ ]] || { echo "$usage" >&2; exit 2; }
(($#)) && shift
targets=("$@")
for target in "${targets[@]}"; do
  [ -f "$root/fuzz/$target.cc" ] || { echo "ci_fuzz.sh: no harness fuzz/$target.cc" >&2; exit 2; }
done
jobs="${SSEC_FUZZ_JOBS:-$(nproc)}"
cd "$root"
cmake --preset "$preset" >/dev/null
cmake --build --preset "$preset" --target all_fuzzers
bin="$root/build/$preset/fuzz"
findings="$root/build/$preset/findings"
rm -rf "$findings"
mkdir -p "$findings"

# Fuzzes one harness; prints its one-line result (and the reproducers of a
# finding) and leaves "$findings/$target.failed" behind on a finding.
fuzz_one() {
  local target="$1"
  local work seeds=() dir log dict max_len memory
  work="$(mktemp -d)"  # new inputs go here; the committed corpus stays untouched
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
    if ((grow)); then
      # The inputs of this run that add coverage to the committed corpus, named by their SHA-1.
      if (cd fuzz && "$bin/$target" -merge=1 "${memory[@]}" -dict="$dict" -max_len="$max_len" \
            "../corpus/$target" "$work" > "$findings/$target.merge.log" 2>&1); then
        echo "fuzz: $target: grown, $(grep -o 'MERGE-OUTER: [0-9]* new files' "$findings/$target.merge.log" | grep -o '[0-9]* new files') added to corpus/$target"
      else
        touch "$findings/$target.failed"
        echo "fuzz: $target: the merge failed: $findings/$target.merge.log"
      fi
    fi
  else
    touch "$findings/$target.failed"
    {
      echo "fuzz: $target: FINDING"
      grep -E "PROPERTY FAILED|ERROR: |SUMMARY" "$log" | head -5 || true
      for reproducer in "$findings/$target-"*; do
        [ -e "$reproducer" ] || continue
        echo "  reproducer: $reproducer"
        echo "  replay:     $bin/$target $reproducer"
      done
    }
  fi
  rm -rf "$work"
}

# A signal ends every harness still running.
trap 'kill $(jobs -p) 2>/dev/null; exit 130' INT TERM
if ((${#targets[@]} == 0)); then
  for source in fuzz/*_fuzzer.cc; do targets+=("$(basename "$source" .cc)"); done
fi
for target in "${targets[@]}"; do
  while (($(jobs -rp | wc -l) >= jobs)); do
    wait -n || true
  done
  fuzz_one "$target" &
done
wait
if compgen -G "$findings/*.failed" > /dev/null; then
  exit 1
fi
exit 0
