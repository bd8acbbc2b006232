#!/usr/bin/env bash
# The catalogs as a run-time contract, end to end as a team would use them
# (tools/docs/cli.md, "The contract"): a copied spec/ gains an event type of
# the team's own (`citation`, `authored`, `url` required), so its required
# field is a must on the team's word (the generated CHAT-AUTHORED-FIELD-REQUIRED),
# and without any rebuild every subcommand that decodes, judges, lists,
# compares or exports a dialect knows it, while the built-in catalogs do not:
#   generate-cases, cases --check, coverage, rules, explain, catalog diff,
#   export, parse --layer, validate, check --file / --url / --scenario, serve,
#   run --impl.
# Usage: contract_e2e.sh SSE_CONFORM SOURCE_DIR
set -euo pipefail
tool="$1"
src="$2"
work="$(mktemp -d)"
serve_pid=""
cleanup() {
  if [ -n "$serve_pid" ]; then kill "$serve_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT
cd "$work"

fail() { echo "FAIL: $*" >&2; exit 1; }
expect_exit() {  # expect_exit STATUS COMMAND...
  local want="$1"; shift
  set +e; "$@" >out.txt 2>err.txt; local got=$?; set -e
  [ "$got" = "$want" ] || { cat out.txt err.txt >&2; fail "exit $got, expected $want: $*"; }
}
expect_out() {  # expect_out TEXT WHAT: the last command's stdout holds TEXT
  grep -qF -- "$1" out.txt || { cat out.txt err.txt >&2; fail "$2"; }
}
refute_out() {  # refute_out TEXT WHAT: the last command's stdout does not hold TEXT
  if grep -qF -- "$1" out.txt; then cat out.txt >&2; fail "$2"; fi
}

# Named spec/ so that the tools' defaults (spec/tags.yaml) find the copy; the
# contract still comes from the built-in catalogs unless --spec is given.
cp -r "$src/spec" spec
mkdir -p my-cases
cp -r "$src/conformance/cases/ours" my-cases/
python3 - spec <<'PY'
import re, sys, pathlib
spec = pathlib.Path(sys.argv[1])
chat = spec / "chat.yaml"
text = chat.read_text()
anchor = "      - type: debug\n"
assert anchor in text, "chat.yaml changed: update the test's insertion point"
# The team's own type: `authored` names where the team keeps its definition,
# and makes its required field a must (spec/FORMAT.md, "Authored entries").
citation = (
    "      - type: citation\n"
    "        purpose: A source the answer cites.\n"
    "        authored: docs/events.md#citation\n"
    "        fields:\n"
    "          - {key: url, type: string, required: true, purpose: The cited address., decision: citation-demo}\n")
text = text.replace(anchor, citation + anchor, 1)
# An added event type is a minor version.
major, minor, _ = re.search(r"^catalog_version: (\d+)\.(\d+)\.(\d+)$", text, re.M).groups()
text = re.sub(r"^catalog_version: .*$", f"catalog_version: {major}.{int(minor) + 1}.0", text, count=1, flags=re.M)
chat.write_text(text)
with open(spec / "DECISIONS.md", "a") as f:
    f.write("\n## citation-demo\n\nAn event type added by the end-to-end test of the run-time contract.\n")
PY
rule=CHAT-AUTHORED-FIELD-REQUIRED

# generate-cases writes the new type's cases, and a kept and a broken case for its generated rule.
expect_exit 0 "$tool" generate-cases --spec spec --out my-cases/generated --cases my-cases
grep -q '"type":"citation"' my-cases/generated/chat-events.yaml || fail "no citation case generated"
grep -q "findings: \\[$rule\\]" my-cases/generated/chat-rules.yaml || fail "no case breaks $rule"
broken_id="$(python3 - <<'PY'
import re
text = open("my-cases/generated/chat-rules.yaml").read()
print(re.search(r'- id: (\w{4})\n  name: "chat CHAT-AUTHORED-FIELD-REQUIRED broken"', text).group(1))
PY
)"
kept_id="$(python3 - <<'PY'
import re
text = open("my-cases/generated/chat-rules.yaml").read()
print(re.search(r'- id: (\w{4})\n  name: "chat CHAT-AUTHORED-FIELD-REQUIRED kept"', text).group(1))
PY
)"

# cases --check passes them with the contract, and fails them with the built-in catalogs.
expect_exit 0 "$tool" cases --spec spec --cases my-cases --check --chunkings whole
expect_exit 1 "$tool" cases --cases my-cases --check --chunkings whole --show 0

# coverage lists the type, its field and the rule, each covered.
expect_exit 0 "$tool" coverage --spec spec --cases my-cases
grep -qE '^ok +event +chat\.citation ' out.txt || { cat out.txt >&2; fail "coverage does not list chat.citation as covered"; }
grep -qE '^ok +field +chat\.citation\.url ' out.txt || fail "coverage does not list chat.citation.url as covered"
grep -qE "^ok +rule-kept +$rule " out.txt || fail "coverage does not list $rule as kept"
grep -qE "^ok +rule-broken +$rule " out.txt || fail "coverage does not list $rule as broken"

# rules and explain show the generated rule: a must on the team's word, and what it holds.
expect_exit 0 "$tool" rules --spec spec --cases my-cases --dialect chat
grep -qE "^$rule +must +authored +chat +[1-9][0-9]* broken, [1-9][0-9]* kept +authored, docs/events.md#citation\$" out.txt ||
  { cat out.txt >&2; fail "rules does not list $rule as a must with basis authored"; }
expect_exit 0 "$tool" explain --spec spec --cases my-cases "$rule"
expect_out "$rule (must, basis: authored)" "explain: not a must with basis authored"
expect_out "authored: docs/events.md#citation" "explain: no authored reference"
expect_out "generated from the authored events' required fields: citation.url" "explain: not what the rule holds"

# catalog diff: the new type is one addition (the generated rule follows it),
# a minor version, and breaks nobody: the gate passes.
expect_exit 0 "$tool" catalog diff "$src/spec" spec --format json --out diff.json
python3 - "$rule" <<'PY' || fail "catalog diff does not report the authored type as one addition"
import json, sys
changes = json.load(open("diff.json"))["changes"]
got = sorted({(c["rule"], c["dialect"], c["event"]) for c in changes})
assert got == [("EVENT_ADDED", "chat", "citation"), ("EVENT_ADDED", "code", "citation")], got
PY

# export: the schema requires url, and carries the generated rule with its basis.
expect_exit 0 "$tool" export --to jsonschema --spec spec --dialect chat -o chat.schema.json
python3 - "$rule" <<'PY' || fail "export does not carry the authored type and its rule"
import json, sys
schema = json.load(open("chat.schema.json"))
citation = next(d for d in schema["$defs"].values() if d.get("title") == "citation")
assert citation["required"] == ["type", "url"], citation["required"]
assert citation["x-sse-conform-origin"]["authored"] == "docs/events.md#citation", citation["x-sse-conform-origin"]
assert sys.argv[1] in citation["x-sse-conform-rules"], citation["x-sse-conform-rules"]
rule = next(r for r in schema["x-sse-conform-rules"] if r["id"] == sys.argv[1])
assert (rule["severity"], rule["basis"], rule["authored"], rule.get("generated")) == \
    ("must", "authored", "docs/events.md#citation", True), rule
PY

# parse --layer decodes it as structured (the built-in catalogs: unknown).
printf 'data: {"type":"citation","url":"https://example.com"}\n\n' > good.sse
printf 'data: {"type":"content","text":"see"}\n\ndata: {"type":"citation"}\n\n' > no-url.sse
printf 'data: {"type":"citation","url":42}\n\n' > url-number.sse
expect_exit 0 "$tool" parse --layer chat --spec spec good.sse
expect_out '"kind":"structured","type":"citation"' "parse --spec: citation not structured"
expect_exit 0 "$tool" parse --layer chat --catalog spec/chat.yaml good.sse
expect_out '"kind":"structured","type":"citation"' "parse --catalog: citation not structured"
expect_exit 0 "$tool" parse --layer chat good.sse
expect_out '"kind":"unknown","type":"citation"' "parse (built-in): citation not unknown"

# validate judges it: a citation without its url is NOT conforming under the
# contract (the team's own word), and the built-in catalogs cannot see it.
expect_exit 0 "$tool" validate --dialect chat --spec spec good.sse
expect_out ': conforming' "validate --spec: a good citation is not conforming"
expect_exit 1 "$tool" validate --dialect chat --spec spec no-url.sse
expect_out "frame 2, byte 39: $rule (must)" "validate --spec: no $rule finding at frame 2"
expect_out 'basis:    authored, docs/events.md#citation' "validate: the team's MUST without its basis"
expect_out 'NOT conforming' "validate --spec: a citation without url called conforming"
expect_exit 0 "$tool" validate --dialect chat no-url.sse
refute_out "$rule" "the built-in catalogs know the team's rule"
# The same type transcribed (a decision, not authored) keeps the catalog's SHOULD.
cp -r spec spec-transcribed
sed -i 's|authored: docs/events.md#citation|decision: citation-demo|' spec-transcribed/chat.yaml
expect_exit 0 "$tool" validate --dialect chat --spec spec-transcribed no-url.sse
expect_out 'CHAT-FIELD-REQUIRED (should)' "validate: a transcribed type's required field is not the catalog's SHOULD"
refute_out "$rule" "a transcribed type has the authored rule"
# A should of the contract (a url that is not a string) fails only with --strict, which says so.
expect_exit 0 "$tool" validate --dialect chat --spec spec url-number.sse
expect_out 'CHAT-FIELD-TYPE (should)' "validate --spec: no CHAT-FIELD-TYPE for a numeric url"
expect_out 'basis:    decision, spec/DECISIONS.md#chat-field-type' "validate: a SHOULD without its basis"
expect_exit 1 "$tool" validate --dialect chat --spec spec --strict url-number.sse
expect_out '1 decision-based promoted by --strict' "validate --strict does not say it promoted a finding"
expect_out 'NOT conforming' "validate --strict: still conforming"

# check --file judges it the same way.
expect_exit 1 "$tool" check --dialect chat --spec spec --file no-url.sse
expect_out "$rule (must)" "check --file --spec: no $rule"
expect_out 'NOT conforming' "check --file --spec: a citation without url called conforming"
expect_exit 0 "$tool" check --dialect chat --spec spec --file good.sse
expect_exit 0 "$tool" check --dialect chat --file no-url.sse

# serve serves the new cases (and two streams), over real HTTP.
"$tool" serve --cases my-cases --tags spec/tags.yaml --port 0 --duration-s 300 \
  --stream good.sse --stream no-url.sse >serve.out 2>serve.err &
serve_pid=$!
base=""
for _ in $(seq 1 300); do
  base="$(grep -o 'http://127\.0\.0\.1:[0-9]*' serve.out | head -n 1 || true)"
  [ -n "$base" ] && break
  sleep 0.1
done
[ -n "$base" ] || { cat serve.out serve.err >&2; fail "serve did not start"; }
python3 - "$base" "$broken_id" <<'PY' || fail "serve does not serve the citation cases"
import json, sys, urllib.request
base, broken = sys.argv[1], sys.argv[2]
cases = json.load(urllib.request.urlopen(base + "/cases.json"))
names = {c["name"]: c["url"] for c in cases}
name = "chat/chat-rules/" + broken
assert name in names, name + " not in /cases.json"
body = urllib.request.urlopen(base + names[name]).read().decode()
assert '"type":"citation"' in body and '"url"' not in body, body
PY

# check --url judges the served streams and cases with the contract.
expect_exit 1 "$tool" check --dialect chat --spec spec --url "$base/stream/no-url.sse" -q
expect_out "$rule (must)" "check --url --spec: no $rule"
expect_out 'NOT conforming' "check --url --spec: a citation without url called conforming"
expect_exit 1 "$tool" check --dialect chat --spec spec --url "$base/case/chat/chat-rules/$broken_id" -q
expect_out "$rule (must)" "check --url --spec: the served broken case has no $rule"
expect_exit 0 "$tool" check --dialect chat --spec spec --url "$base/case/chat/chat-rules/$kept_id" -q
expect_exit 0 "$tool" check --dialect chat --url "$base/stream/no-url.sse" -q

# check --scenario: a scenario naming the type is refused without the
# contract, runs with it, and judges what each request serves.
cat > s.yaml <<YAML
version: 1
defaults: {dialect: chat}
scenarios:
  - name: cites
    requests:
      - name: good
        url: $base/stream/good.sse
        expect: {includes: [citation]}
YAML
sed -e 's/name: cites/name: cites without url/' -e 's#/stream/good.sse#/stream/no-url.sse#' s.yaml > s-broken.yaml
expect_exit 2 "$tool" check --scenario s.yaml
grep -q '`citation` is not an event type of dialect chat' err.txt || fail "the built-in catalogs accepted a scenario naming citation"
expect_exit 0 "$tool" check --spec spec --scenario s.yaml -q
expect_out 'scenario "cites"' "check --spec --scenario did not run the scenario"
expect_exit 1 "$tool" check --spec spec --scenario s-broken.yaml -q
expect_out "$rule (must)" "check --scenario --spec: no $rule"
kill "$serve_pid" 2>/dev/null || true
wait "$serve_pid" 2>/dev/null || true
serve_pid=""

# run --impl grades an adapter on them: the reference adapter with the contract
# passes, the reference adapter with the built-in catalogs fails the citation cases.
expect_exit 0 "$tool" run --impl "$tool adapter --spec spec" --cases my-cases --layer chat --chunkings whole --no-progress
expect_exit 1 "$tool" run --impl "$tool adapter" --cases my-cases --layer chat --chunkings whole --no-progress \
  --run "chat/chat-rules/$broken_id" --json run.json
python3 - <<'PY' || fail "run --json does not grade the citation case as failed with the built-in catalogs"
import json
report = json.load(open("run.json"))
assert report["totals"]["cases"] == 1 and report["totals"]["fail"] == 1, report["totals"]
PY

# A broken contract is refused with its position by every command: an unknown decision anchor.
sed -i "s/decision: citation-demo}/decision: no-such-anchor}/" spec/chat.yaml
for cmd in "validate --dialect chat --spec spec good.sse" "generate-cases --spec spec --out my-cases/generated" \
           "coverage --spec spec --cases my-cases" "cases --spec spec --cases my-cases --check" \
           "parse --layer chat --spec spec good.sse"; do
  # shellcheck disable=SC2086 # the words of $cmd are the arguments
  expect_exit 2 "$tool" $cmd
  grep -q 'chat.yaml:[0-9]*:[0-9]*: decision `no-such-anchor`' err.txt || { cat err.txt >&2; fail "$cmd: no positioned decision error"; }
done
echo "contract end to end: ok"
