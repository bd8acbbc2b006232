#!/usr/bin/env bash
# Runs fuzz/ossfuzz.sh as OSS-Fuzz would (clang, ASan + UBSan, libFuzzer, a
# scratch $OUT), then checks that $OUT holds every harness with its seed corpus
# zip, dictionary and options, and that each harness replays its seeds cleanly.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
scratch="${1:?usage: test_ossfuzz_build.sh SCRATCH_DIR}"
rm -rf "$scratch"
mkdir -p "$scratch/out" "$scratch/work" "$scratch/seeds"

export CC=clang-14 CXX=clang++-14
export CFLAGS="-O1 -fno-omit-frame-pointer -gline-tables-only -fsanitize=address,undefined -fsanitize-address-use-after-scope -fsanitize=fuzzer-no-link"
export CXXFLAGS="$CFLAGS"
export LIB_FUZZING_ENGINE="-fsanitize=fuzzer"
export SRC="$(dirname "$root")" OUT="$scratch/out" WORK="$scratch/work"
"$root/fuzz/ossfuzz.sh" > "$scratch/build.log" 2>&1 || { tail -50 "$scratch/build.log"; exit 1; }

status=0
for source in "$root"/fuzz/*_fuzzer.cc; do
  target="$(basename "$source" .cc)"
  for file in "$target" "$target.dict" "$target.options" "${target}_seed_corpus.zip"; do
    if [ ! -s "$OUT/$file" ]; then
      echo "FAIL: \$OUT lacks $file"
      status=1
    fi
  done
  [ -x "$OUT/$target" ] || { echo "FAIL: $target is not executable"; status=1; continue; }
  [ -s "$OUT/${target}_seed_corpus.zip" ] || continue
  mkdir -p "$scratch/seeds/$target"
  unzip -q -o "$OUT/${target}_seed_corpus.zip" -d "$scratch/seeds/$target"
  if ! (cd "$OUT" && "./$target" -runs=0 -dict="$target.dict" "$scratch/seeds/$target" > "$scratch/$target.log" 2>&1); then
    echo "FAIL: $target finds a bug in its own seed corpus:"
    tail -30 "$scratch/$target.log"
    status=1
  else
    echo "ok: $target: $(ls "$scratch/seeds/$target" | wc -l) seeds replayed"
  fi
done
exit $status
