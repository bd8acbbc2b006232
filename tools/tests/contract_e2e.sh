#!/usr/bin/env bash
# The catalogs as a run-time contract, end to end as a team would use them
# (tools/docs/cli.md, "The contract"): a copied spec/ gains an event type,
# and without any rebuild every subcommand that decodes or judges a dialect
# knows it, while the built-in catalogs still do not.
# Usage: contract_e2e.sh SSE_CONFORM SOURCE_DIR
set -euo pipefail
tool="$1"
src="$2"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$work"

fail() { echo "FAIL: $*" >&2; exit 1; }
expect_exit() {  # expect_exit STATUS COMMAND...
  local want="$1"; shift
  set +e; "$@" >out.txt 2>err.txt; local got=$?; set -e
  [ "$got" = "$want" ] || { cat out.txt err.txt >&2; fail "exit $got, expected $want: $*"; }
}

# Named spec/ so that the tools' defaults (spec/tags.yaml) find the copy; the
# contract still comes from the built-in catalogs unless --spec is given.
cp -r "$src/spec" spec
mkdir -p my-cases
cp -r "$src/conformance/cases/ours" my-cases/
python3 - spec <<'PY'
import sys, pathlib
spec = pathlib.Path(sys.argv[1])
chat = spec / "chat.yaml"
text = chat.read_text()
anchor = "      - type: debug\n"
assert anchor in text, "chat.yaml changed: update the test's insertion point"
citation = (
    "      - type: citation\n"
    "        purpose: A source the answer cites.\n"
    "        decision: citation-demo\n"
    "        fields:\n"
    "          - {key: url, type: string, required: true, purpose: The cited address., decision: citation-demo}\n")
chat.write_text(text.replace(anchor, citation + anchor, 1))
with open(spec / "DECISIONS.md", "a") as f:
    f.write("\n## citation-demo\n\nAn event type added by the end-to-end test of the run-time contract.\n")
PY

# generate-cases writes the new type's cases.
expect_exit 0 "$tool" generate-cases --spec spec --out my-cases/generated --cases my-cases
grep -q '"type":"citation"' my-cases/generated/chat-events.yaml || fail "no citation case generated"

# cases --check passes them with the contract, and fails them with the built-in catalogs.
expect_exit 0 "$tool" cases --spec spec --cases my-cases --check --chunkings whole
expect_exit 1 "$tool" cases --cases my-cases --check --chunkings whole --show 0

# coverage lists it.
expect_exit 0 "$tool" coverage --spec spec --cases my-cases
grep -q 'chat.citation' out.txt || fail "coverage does not list chat.citation"

# parse --layer decodes it as structured (the built-in catalogs: unknown).
printf 'data: {"type":"citation","url":"https://example.com"}\n\n' > good.sse
printf 'data: {"type":"citation"}\n\n' > no-url.sse
expect_exit 0 "$tool" parse --layer chat --spec spec good.sse
grep -q '"kind":"structured","type":"citation"' out.txt || fail "parse --spec: citation not structured"
expect_exit 0 "$tool" parse --layer chat good.sse
grep -q '"kind":"unknown","type":"citation"' out.txt || fail "parse (built-in): citation not unknown"

# validate and check judge it: the missing required url is a finding.
expect_exit 0 "$tool" validate --dialect chat --spec spec no-url.sse
grep -q 'CHAT-FIELD-REQUIRED' out.txt || fail "validate --spec: no CHAT-FIELD-REQUIRED for the missing url"
expect_exit 1 "$tool" validate --dialect chat --spec spec --strict no-url.sse
grep -q 'promoted by --strict' out.txt || fail "validate --strict does not say it promoted a finding"
expect_exit 0 "$tool" check --dialect chat --spec spec --file no-url.sse
grep -q 'CHAT-FIELD-REQUIRED' out.txt || fail "check --spec: no CHAT-FIELD-REQUIRED for the missing url"

# A scenario naming the type loads with the contract and is refused without it.
cat > s.yaml <<'YAML'
version: 1
defaults: {dialect: chat}
scenarios:
  - name: cites
    requests:
      - name: ask
        url: http://127.0.0.1:9/never-contacted
        expect: {includes: [citation]}
YAML
expect_exit 2 "$tool" check --scenario s.yaml
grep -q '`citation` is not an event type of dialect chat' err.txt || fail "the built-in catalogs accepted a scenario naming citation"
# With the contract it loads and runs (the endpoint is closed: STREAM-CONNECT, not a load error).
set +e; "$tool" check --spec spec --scenario s.yaml >out.txt 2>err.txt; set -e
grep -q 'not an event type' err.txt && fail "check --spec refused the scenario: $(cat err.txt)"
grep -q 'scenario "cites"' out.txt || { cat out.txt err.txt >&2; fail "check --spec --scenario did not run the scenario"; }

# run --impl grades an adapter on them: the reference adapter with the contract passes,
# the reference adapter with the built-in catalogs fails them.
expect_exit 0 "$tool" run --impl "$tool adapter --spec spec" --cases my-cases --layer chat --chunkings whole --no-progress
expect_exit 1 "$tool" run --impl "$tool adapter" --cases my-cases --layer chat --chunkings whole --no-progress

# A broken contract is refused with its position: an unknown decision anchor.
sed -i 's/decision: citation-demo$/decision: no-such-anchor/' spec/chat.yaml
expect_exit 2 "$tool" validate --dialect chat --spec spec good.sse
grep -q 'chat.yaml:[0-9]*:[0-9]*: decision `no-such-anchor`' err.txt || { cat err.txt >&2; fail "no positioned decision error"; }
echo "contract end to end: ok"
