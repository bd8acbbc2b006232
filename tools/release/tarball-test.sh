#!/usr/bin/env bash
# The portable tarball (tools/release/tarball.sh), installed as a user would:
#   1. packs one from BUILD_DIR (or takes the TARBALL given) and unpacks it
#      into a temporary prefix;
#   2. checks what the binary and its bundled libraries need of the system:
#      symbol versions up to GLIBC_2.35 and GLIBCXX_3.4.30 (Ubuntu 22.04's
#      glibc and GCC 12 libstdc++; Debian 12 has 2.36 and the same
#      libstdc++), and every library resolved either from the tarball's
#      lib/sse-conform or from the base system (libc, libm, libstdc++,
#      libgcc_s, zlib);
#   3. runs it from outside the checkout (tools/release/check-installed.sh):
#      `--version` names the unpacked data, the wire layer against its own
#      adapter, the README's example commands.
# Usage: tools/release/tarball-test.sh BUILD_DIR|TARBALL
# Exit status: 0 when every step passed, 1 on a failure, 2 on a setup error.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
arg="${1:?usage: tarball-test.sh BUILD_DIR|TARBALL}"
glibc_ceiling=2.35
glibcxx_ceiling=3.4.30

prefix="$(cd "$(mktemp -d)" && pwd -P)"
trap 'rm -rf "$prefix"' EXIT
if [ -d "$arg" ]; then
  echo "== pack: tools/release/tarball.sh $arg"
  tarball="$("$here/tarball.sh" "$arg" "$prefix/packed")" || exit 2
else
  tarball="$(cd "$(dirname "$arg")" && pwd)/$(basename "$arg")"
fi
echo "== unpack $(basename "$tarball") into $prefix/usr"
mkdir -p "$prefix/usr"
tar -xzf "$tarball" -C "$prefix/usr" --strip-components=1
tool="$prefix/usr/bin/sse-conform"
[ -x "$tool" ] || { echo "tarball-test: no bin/sse-conform in $tarball" >&2; exit 1; }
tar -tzf "$tarball" | grep -v '/$' | sed 's|^[^/]*/||' | awk -F/ '{print $1 "/" $2}' | sort | uniq -c

status=0
echo "== what the binary needs of the system"
version_le() { [ "$(printf '%s\n%s\n' "$1" "$2" | sort -V | tail -n 1)" = "$2" ]; }
for file in "$tool" "$prefix"/usr/lib/sse-conform/*; do
  [ -f "$file" ] || continue
  glibc="$(objdump -T "$file" | grep -o 'GLIBC_[0-9.]*' | sed 's/GLIBC_//' | sort -V | tail -n 1)"
  glibcxx="$(objdump -T "$file" | grep -o 'GLIBCXX_[0-9.]*' | sed 's/GLIBCXX_//' | sort -V | tail -n 1)"
  echo "${file#"$prefix"/usr/}: GLIBC_${glibc:-none}, GLIBCXX_${glibcxx:-none}"
  if [ -n "$glibc" ] && ! version_le "$glibc" "$glibc_ceiling"; then
    echo "FAIL: ${file#"$prefix"/usr/} needs GLIBC_$glibc, above GLIBC_$glibc_ceiling (Ubuntu 22.04)"
    status=1
  fi
  if [ -n "$glibcxx" ] && ! version_le "$glibcxx" "$glibcxx_ceiling"; then
    echo "FAIL: ${file#"$prefix"/usr/} needs GLIBCXX_$glibcxx, above GLIBCXX_$glibcxx_ceiling (GCC 12's libstdc++)"
    status=1
  fi
done
while read -r soname arrow path _; do
  [ "$arrow" = "=>" ] || continue
  [ "$path" = not ] || path="$(readlink -f "$path")"
  case "$path" in
    "$prefix"/usr/lib/sse-conform/*) echo "$soname: the tarball's" ;;
    not) echo "FAIL: $soname is not found"; status=1 ;;
    *)
      case "$soname" in
        libc.so.* | libm.so.* | libstdc++.so.* | libgcc_s.so.* | libz.so.*) echo "$soname: the system's" ;;
        *) echo "FAIL: $soname comes from $path, neither the tarball nor the base system"; status=1 ;;
      esac
      ;;
  esac
done < <(env -u LD_LIBRARY_PATH ldd "$tool")

echo "== run the unpacked tool"
"$here/check-installed.sh" "$tool" "$prefix/usr/share/sse-conform" || status=1
((status == 0)) && echo "tarball-test: passed" || echo "tarball-test: FAILED"
exit $status
