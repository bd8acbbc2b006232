#!/usr/bin/env bash
# The OSS-Fuzz / ClusterFuzzLite build, kept here so their build.sh is one line.
# Uses what OSS-Fuzz sets: $CC $CXX $CFLAGS $CXXFLAGS $LIB_FUZZING_ENGINE $SRC
# $WORK $OUT. Puts in $OUT, for every fuzz/<target>.cc: the binary,
# <target>_seed_corpus.zip (corpus/<target> + corpus/regressions/<target>),
# <target>.dict and <target>.options.
set -euo pipefail
: "${CC:?} ${CXX:?} ${LIB_FUZZING_ENGINE:?} ${OUT:?} ${WORK:?}"
root="$(cd "$(dirname "$0")/.." && pwd)"
build="$WORK/sse-conform-build"

# CFLAGS/CXXFLAGS come from the environment: CMake takes them as the initial
# CMAKE_<LANG>_FLAGS, so no sanitizer flag is written here. The build type is
# None, so that the optimisation level is OSS-Fuzz's own (-O1 in $CFLAGS):
# Release would append -O3 and override it. The tools are
# configured (only what all_fuzzers needs is built) because the scenario-file
# loader's harness links their live library (zlib; libcurl's headers, and
# CLI11 at configure time: the Dockerfiles install them). libcurl itself is
# opened at run time by the URL check (tools/http/src/client.cpp), so
# the harness starts where the runner lacks it; there every scenario URL is
# refused, naming the missing library.
cmake -S "$root" -B "$build" -G Ninja \
  -DCMAKE_C_COMPILER="$CC" -DCMAKE_CXX_COMPILER="$CXX" -DCMAKE_BUILD_TYPE=None \
  -DSSEC_BUILD_TESTS=OFF -DSSEC_BUILD_TOOLS=ON -DSSEC_BUILD_FUZZERS=ON \
  -DSSEC_FUZZ_ENGINE="$LIB_FUZZING_ENGINE"
cmake --build "$build" --target all_fuzzers -j"$(nproc)"

for source in "$root"/fuzz/*_fuzzer.cc; do
  target="$(basename "$source" .cc)"
  cp "$build/fuzz/$target" "$OUT/"
  dict="$(sed -n 's/^dict = //p' "$root/fuzz/$target.options")"
  cp "$root/fuzz/$dict" "$OUT/$target.dict"
  sed "s/^dict = .*/dict = $target.dict/" "$root/fuzz/$target.options" > "$OUT/$target.options"
  rm -f "$OUT/${target}_seed_corpus.zip"
  seeds=()
  for dir in "$root/corpus/$target" "$root/corpus/regressions/$target"; do
    [ -d "$dir" ] && seeds+=("$dir")
  done
  if ((${#seeds[@]})); then
    find "${seeds[@]}" -type f -print0 | xargs -0 zip -q -j "$OUT/${target}_seed_corpus.zip"
  fi
done
