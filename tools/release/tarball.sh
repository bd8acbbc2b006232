#!/usr/bin/env bash
# The portable tarball, sse-conform-<version>-linux-<arch>.tar.gz: the tool's
# install component (`cmake --install --component tool --strip`: bin/, and
# share/sse-conform/ with the catalogs, the cases, the examples and the
# JavaScript adapters) in one top folder of that name, plus the shared
# libraries the binary needs that a Debian or Ubuntu system does not have
# without extra packages (simdjson, yaml-cpp) in lib/sse-conform/, found
# through the binary's RUNPATH ($ORIGIN/../lib/sse-conform, set by patchelf),
# with their copyright files in share/doc/sse-conform/third-party/.
# libc, libm, libstdc++, libgcc_s and zlib (a pre-dependency of dpkg) stay the
# system's; libcurl is opened at run time by `check --url` only.
# Usage: tools/release/tarball.sh [BUILD_DIR [OUT_DIR]]
#   BUILD_DIR  a build whose sse-conform target is built, taken as it is;
#              without it, build/release (the release preset), whose
#              sse-conform target is configured and built here first
#   OUT_DIR    where the tarball goes (default BUILD_DIR)
# Prints the tarball's path last. Exit status: 0, or 2 on a setup error.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
build="${1:-build/release}"
out="${2:-$build}"
fail() { echo "tarball: $*" >&2; exit 2; }
command -v patchelf >/dev/null || fail "patchelf is not installed (tools/install-deps.sh installs it)"

if (($# == 0)); then
  [ -f build/release/CMakeCache.txt ] || cmake --preset release >/dev/null
  cmake --build --preset release --target sse-conform >&2
fi
[ -x "$build/tools/sse-conform" ] || fail "$build/tools/sse-conform is not built"
version="$("$build/tools/sse-conform" --version | sed -n '1s/^sse-conform //p')"
[ -n "$version" ] || fail "$build/tools/sse-conform --version names no version"
name="sse-conform-$version-linux-$(uname -m)"

stage="$(mktemp -d)"
trap 'rm -rf "$stage"' EXIT
top="$stage/$name"
cmake --install "$build" --prefix "$top" --component tool --strip >/dev/null
bin="$top/bin/sse-conform"
[ -x "$bin" ] || fail "cmake --install put no bin/sse-conform in $top"

# The libraries every Debian and Ubuntu system has: the C and C++ runtimes,
# and zlib (dpkg pre-depends on it).
base_system() {
  case "$1" in
    linux-vdso.so.* | ld-linux*.so.* | libc.so.* | libm.so.* | libdl.so.* | libpthread.so.* | librt.so.* | \
      libstdc++.so.* | libgcc_s.so.* | libz.so.*) return 0 ;;
  esac
  return 1
}
# The Debian package that holds a library file (usrmerge: /lib is /usr/lib).
package_of() {
  local file="$1"
  dpkg-query -S "$file" 2>/dev/null || dpkg-query -S "/usr$file" 2>/dev/null || dpkg-query -S "${file#/usr}" 2>/dev/null ||
    true
}

libdir="$top/lib/sse-conform"
notices="$top/share/doc/sse-conform/third-party"
queue=("$bin")
bundled=()
while ((${#queue[@]})); do
  file="${queue[0]}"
  queue=("${queue[@]:1}")
  while read -r soname arrow path _; do
    [ "$arrow" = "=>" ] || continue
    base_system "$soname" && continue
    [ "$path" != "not" ] || fail "$file needs $soname, which is not found on this machine"
    [ -e "$libdir/$soname" ] && continue
    mkdir -p "$libdir" "$notices"
    cp -L "$path" "$libdir/$soname"
    chmod 644 "$libdir/$soname"
    bundled+=("$soname")
    queue+=("$libdir/$soname")
    package="$(package_of "$(readlink -f "$path")" | head -n 1 | cut -d: -f1)"
    if [ -n "$package" ] && [ -f "/usr/share/doc/$package/copyright" ]; then
      cp "/usr/share/doc/$package/copyright" "$notices/$package.copyright"
    else
      echo "tarball: no copyright file found for $soname ($path)" >&2
    fi
  done < <(env -u LD_LIBRARY_PATH ldd "$file")
done
if ((${#bundled[@]})); then
  # $ORIGIN is for the dynamic loader, not the shell.
  # shellcheck disable=SC2016
  patchelf --set-rpath '$ORIGIN/../lib/sse-conform' "$bin"
  for soname in "${bundled[@]}"; do
    # shellcheck disable=SC2016
    patchelf --set-rpath '$ORIGIN' "$libdir/$soname"
  done
  echo "tarball: bundled ${bundled[*]} in lib/sse-conform" >&2
fi

mkdir -p "$out"
tarball="$(cd "$out" && pwd)/$name.tar.gz"
tar -C "$stage" --sort=name --owner=0 --group=0 --numeric-owner -czf "$tarball" "$name"
echo "tarball: $(du -h "$tarball" | cut -f1) $(tar -tzf "$tarball" | grep -vc '/$') files" >&2
echo "$tarball"
