#!/usr/bin/env bash
# An installed sse-conform (the .deb, the portable tarball, `cmake --install`,
# the container image) run as a user runs it, from a directory outside any
# checkout, with the README's commands on the installed examples:
#   1. `--version` names the installed data directory (bin/../share/sse-conform,
#      or the one given) and, where it prints them, the examples and adapters;
#   2. the examples and the JavaScript adapters are there (no node_modules);
#   3. `cases`, the wire layer of the suite against the tool's own adapter,
#      and the installed client cases against its client;
#   4. `validate` and `check --file` of the example run (two SHOULD findings,
#      conforming), then `serve` of it and `check --url`, and the example
#      scenario, when libcurl is installed (check --url opens it at run time;
#      said and skipped where it is not).
# Usage: tools/release/check-installed.sh SSE_CONFORM [DATA_DIR]
# Exit status: 0 when every step passed, 1 otherwise.
set -euo pipefail
tool="${1:?usage: check-installed.sh SSE_CONFORM [DATA_DIR]}"
data="${2:-$(dirname "$(readlink -f "$(command -v "$tool")")")/../share/sse-conform}"
data="$(cd "$data" && pwd -P)"
fail() { echo "check-installed: $*" >&2; exit 1; }

work="$(mktemp -d)"
serve_pid=""
cleanup() {
  [ -z "$serve_pid" ] || kill "$serve_pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
cd "$work"
unset SSEC_DATA_DIR

echo "== $tool --version (from $work)"
version="$("$tool" --version)"
printf '%s\n' "$version"
grep -qF "($data/conformance/cases)" <<<"$version" || fail "--version does not read the cases of $data"
# `data DIR`, `examples DIR`, `adapters DIR` (or with a colon), where printed.
printed() { sed -n "s/^$1:\\{0,1\\} //p" <<<"$version" | head -n 1; }
[ -z "$(printed data)" ] || [ "$(printed data)" = "$data" ] || fail "--version names data $(printed data), not $data"
examples="$(printed examples)"
adapters="$(printed adapters)"
examples="${examples:-$data/examples}"
adapters="${adapters:-$data/adapters}"

echo "== installed examples ($examples) and adapters ($adapters)"
for f in "$examples/agent-run.sse" "$examples/agent.scenario.yaml" \
  "$adapters/package.json" "$adapters/package-lock.json" "$adapters/lib/adapter.js" "$adapters/lib/response.js" \
  "$adapters/eventsource-parser.js" "$adapters/agent-service-consumer.js" \
  "$adapters/agent-service-consumer.profile.yaml"; do
  [ -s "$f" ] || fail "$f is not installed"
done
ls "$adapters"/findings/*/*.yaml >/dev/null 2>&1 || fail "$adapters/findings holds no case"
[ ! -e "$adapters/node_modules" ] || fail "$adapters/node_modules is installed"
echo "ok: $(find "$examples" "$adapters" -type f | wc -l) files"

echo "== cases, the wire layer against the tool's own adapter, the client layer against its client"
"$tool" cases >/dev/null
"$tool" run --impl "$tool adapter" --layer wire --chunkings whole,bytes --jobs 2 --no-progress \
  --junit run.xml --html run.html | tail -n 1
test -s run.xml && test -s run.html
"$tool" run --impl "$tool adapter" --layer client --jobs 4 --no-progress | tail -n 1 | tee client.txt
grep -q "^PASSED" client.txt || fail "the client cases do not pass against the tool's own client"

echo "== the README's example run: validate, check --file"
expected="agent: 7 frames, 2 findings (0 must, 2 should): conforming"
"$tool" validate --dialect agent "$examples/agent-run.sse" | tail -n 1 | tee validate.txt
grep -qF "$expected" validate.txt || fail "validate of the example run: not '$expected'"
"$tool" check --dialect agent --file "$examples/agent-run.sse" >check-file.txt ||
  { cat check-file.txt; fail "check --file of the example run failed"; }
grep -F "agent: 2 findings (0 must, 2 should): conforming" check-file.txt ||
  { cat check-file.txt; fail "check --file: not the example's two SHOULD findings"; }

echo "== the README's endpoint commands: serve, check --url, check --scenario"
if ! /sbin/ldconfig -p 2>/dev/null | grep -q 'libcurl\.so\.4 '; then
  echo "skipped: libcurl.so.4 is not installed here (check --url opens it at run time)"
else
  "$tool" serve --port 0 --duration-s 60 --stream "$examples/agent-run.sse" >serve.log 2>&1 &
  serve_pid=$!
  url=""
  for _ in $(seq 100); do
    url="$(sed -n 's|.* cases at \(http://[^ ]*\)/ .*|\1|p' serve.log)"
    [ -n "$url" ] && break
    sleep 0.1
  done
  [ -n "$url" ] || { cat serve.log; fail "serve did not start"; }
  "$tool" check --dialect agent --url "$url/stream/agent-run.sse" >check-url.txt ||
    { cat check-url.txt; fail "check --url of the served example failed"; }
  grep -qF "agent: 2 findings (0 must, 2 should): conforming" check-url.txt ||
    { cat check-url.txt; fail "check --url: not the example's two SHOULD findings"; }
  echo "ok: check --url $url/stream/agent-run.sse"
  AGENT_BASE_URL="$url" "$tool" check --scenario "$examples/agent.scenario.yaml" --junit check.xml | tail -n 1
  grep -q "<testsuite" check.xml || fail "check --scenario wrote no JUnit report"
fi
echo "check-installed: passed"
