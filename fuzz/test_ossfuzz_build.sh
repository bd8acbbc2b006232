#!/usr/bin/env bash
# Runs fuzz/ossfuzz.sh as OSS-Fuzz would (clang, libFuzzer, one of the
# sanitizer configurations fuzz/oss-fuzz/project.yaml asks for, with the
# flags OSS-Fuzz's base-builder image sets, a scratch $OUT), then checks that
# $OUT holds every harness with its seed corpus zip, dictionary and options,
# and that each harness replays its seeds cleanly.
# Usage: test_ossfuzz_build.sh SCRATCH_DIR [address|undefined]   (default: undefined)
#   ctest runs `undefined`: the asan preset already compiles the whole tree
#   with OSS-Fuzz's address flags (and UBSan), and CI fuzzes that build, so
#   the address configuration here would compile the same objects twice.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
scratch="${1:?usage: test_ossfuzz_build.sh SCRATCH_DIR [address|undefined]}"
sanitizer="${2:-undefined}"
rm -rf "$scratch"
mkdir -p "$scratch/out" "$scratch/work" "$scratch/seeds"

undefined_checks=array-bounds,bool,builtin,enum,float-divide-by-zero,function,integer-divide-by-zero,null,object-size,return,returns-nonnull-attribute,shift,signed-integer-overflow,unreachable,vla-bound,vptr
case "$sanitizer" in
  address) sanitizer_flags="-fsanitize=address -fsanitize-address-use-after-scope" ;;
  undefined)
    sanitizer_flags="-fsanitize=$undefined_checks,unsigned-integer-overflow -fno-sanitize-recover=$undefined_checks" ;;
  *) echo "test_ossfuzz_build.sh: unknown sanitizer configuration $sanitizer (address, undefined)" >&2; exit 2 ;;
esac
export CC=clang-14 CXX=clang++-14 SANITIZER="$sanitizer"
export CFLAGS="-O1 -fno-omit-frame-pointer -gline-tables-only $sanitizer_flags -fsanitize=fuzzer-no-link"
export CXXFLAGS="$CFLAGS"
export LIB_FUZZING_ENGINE="-fsanitize=fuzzer"
export SRC="$(dirname "$root")" OUT="$scratch/out" WORK="$scratch/work"
"$root/fuzz/ossfuzz.sh" > "$scratch/build.log" 2>&1 || { tail -50 "$scratch/build.log"; exit 1; }

# As ClusterFuzz runs the undefined build: the unsigned wraparound the hashes
# rely on is reported by the recoverable unsigned-integer-overflow check, and silenced.
export UBSAN_OPTIONS="${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}silence_unsigned_overflow=1"
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
