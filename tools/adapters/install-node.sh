#!/usr/bin/env bash
# Installs the Node.js the adapters need when the machine's is older than the
# `engines` of tools/adapters/package.json (the pinned packages' own: eventsource
# and eventsource-parser declare Node 22.12). Debian 12 packages Node 18, so the
# official build comes from the npm registry, where it is published as the
# package node-linux-<arch>, pinned below; npm puts its `node` in PREFIX/bin
# (default /usr/local/bin, ahead of /usr/bin on PATH). The npm already on the
# machine stays and runs under the new node. Idempotent: a node that meets the
# requirement is left as it is.
# Usage: tools/adapters/install-node.sh [PREFIX]
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
prefix="${1:-/usr/local}"
version=22.23.5
# The lowest version the engines field accepts, as MAJOR.MINOR.PATCH (">=22.12.0").
need="$(sed -n 's/.*"node": *">= *\([0-9][0-9.]*\)".*/\1/p' "$here/package.json" | head -n 1)"
[ -n "$need" ] || { echo "install-node: no engines.node in $here/package.json" >&2; exit 2; }
# A version as one comparable number: 22.12.0 -> 22012000.
number() {
  local major minor patch
  IFS=. read -r major minor patch <<<"$1"
  echo $((${major:-0} * 1000000 + ${minor:-0} * 1000 + ${patch:-0}))
}
if command -v node >/dev/null 2>&1; then
  have="$(node -p 'process.versions.node')"
  if (($(number "$have") >= $(number "$need"))); then
    echo "install-node: node $have meets the adapters' >=$need"
    exit 0
  fi
  echo "install-node: node $have is older than the adapters' >=$need: installing $version into $prefix"
else
  echo "install-node: no node: installing $version into $prefix"
fi
case "$(uname -m)" in
  x86_64) arch=x64 ;;
  aarch64 | arm64) arch=arm64 ;;
  *) echo "install-node: no node-linux package for $(uname -m)" >&2; exit 2 ;;
esac
command -v npm >/dev/null 2>&1 || { echo "install-node: npm is needed to fetch node-linux-$arch" >&2; exit 2; }
sudo=""
[ "$(id -u)" = 0 ] || [ -w "$prefix" ] || sudo="sudo"
$sudo npm install --global --prefix "$prefix" --no-audit --no-fund "node-linux-$arch@$version"
hash -r
echo "install-node: $("$prefix/bin/node" --version) in $prefix/bin"
