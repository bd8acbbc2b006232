#!/usr/bin/env bash
# `sse-conform certify` end to end (tools/docs/certify.md), as a release team
# runs it: a catalog change that every consumer and producer tolerates (exit
# 0), one that breaks a consumer (exit 1), one that breaks a producer (exit
# 1), one whose version does not follow it (exit 1), usage errors (exit 2),
# and probes on recorded baselines (--baseline).
# The JavaScript consumers join when node and tools/adapters/node_modules are
# there; without them their part says SKIPPED and the rest still runs.
# Usage: certify_e2e.sh SSE_CONFORM SOURCE_DIR [PART...]
#   PART: the numbered parts below to run (default: all); ctest runs them as
#   three tests, so that its parallel jobs overlap them.
set -euo pipefail
tool="$1"
src="$2"
shift 2
parts="$*"
want() { [ -z "$parts" ] || [[ " $parts " == *" $1 "* ]]; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$work"

fail() { echo "FAIL: $*" >&2; exit 1; }
expect_exit() {  # expect_exit STATUS COMMAND...
  local want="$1"; shift
  set +e; "$@" >out.txt 2>err.txt; local got=$?; set -e
  [ "$got" = "$want" ] || { cat out.txt err.txt >&2; fail "exit $got, expected $want: $*"; }
}
# json_is FILE PYTHON-EXPRESSION-ON-r: the report's JSON satisfies it.
json_is() {
  python3 - "$1" "$2" <<'PY' || { cat "$1" >&2; fail "report: $2"; }
import json, sys
r = json.load(open(sys.argv[1]))
def consumer(name): return next(c for c in r["consumers"] if c["name"] == name)
def probe(name, pid): return next(p for p in consumer(name)["probes"]["results"] if p["id"] == pid)
sys.exit(0 if eval(sys.argv[2]) else 1)
PY
}

# Three copies of spec/: OLD as it is; NEW adds a chat type and a field
# (3.1.0); BREAK makes the agent runId an integer (4.0.0); NOBUMP adds the
# type without changing the version.
cp -r "$src/spec" old
cp -r "$src/spec" new
cp -r "$src/spec" break
cp -r "$src/spec" nobump
python3 - <<'PY'
import pathlib
def edit(path, pairs):
    p = pathlib.Path(path); t = p.read_text()
    for a, b in pairs:
        assert a in t, f"{path} changed: update the test ({a!r})"
        t = t.replace(a, b, 1)
    p.write_text(t)
text = "          - {key: text, type: string, required: true, purpose: Text appended to the body., source: chat-and-code-sessions.txt:17}\n"
ann = "          - {key: annotations, type: array, required: false, purpose: Citations of the text., source: chat-and-code-sessions.txt:17}\n"
cit = ("      - type: citation\n        purpose: A source the answer cites.\n        source: chat-and-code-sessions.txt:17\n"
       "        fields:\n          - {key: url, type: string, required: true, purpose: Where the source is., source: chat-and-code-sessions.txt:17}\n")
th = "      - type: thinking\n"
edit("new/chat.yaml", [("catalog_version: 3.0.0", "catalog_version: 3.1.0"), (text, text + ann), (th, cit + th)])
edit("nobump/chat.yaml", [(th, cit + th)])
edit("break/agent.yaml", [("catalog_version: 3.0.0", "catalog_version: 4.0.0"),
                          ("{key: runId, type: string, required: true", "{key: runId, type: integer, required: true")])
PY
reference_old="$tool adapter --spec old"
fast=(--case-chunkings whole --probe-random 1 --quiet)

if want 1; then
# 1. Tolerated: the reference decoder of OLD (unknown types kept with their
# raw bytes) and the example producer. Exit 0, every verdict certified.
expect_exit 0 "$tool" certify --old old --new new "${fast[@]}" --consumer "$reference_old" \
  --capture "$src/tools/examples/agent-run.sse" --dialect agent --json report.json --junit report.xml \
  --markdown report.md --html report.html
grep -q "CERTIFIED: nothing breaks" out.txt || fail "no certified line"
json_is report.json 'r["certify_format"] == 1 and r["certified"] and r["contract"]["verdict"] == "certified-with-warnings"'
json_is report.json 'any(c["rule"] == "EVENT_ADDED" and c["event"] == "citation" for c in r["contract"]["changes"])'
json_is report.json 'r["reference"]["disagreements"] == 0 and r["reference"]["new_cases"] > 0'
json_is report.json 'consumer("sse-conform reference")["verdict"] == "certified"'
json_is report.json 'probe("sse-conform reference", "chat/new-type/citation")["grade"] == "tolerated"'
json_is report.json 'consumer("sse-conform reference")["probes"]["broke"] == 0'
json_is report.json 'r["producers"][0]["verdict"] == "certified-with-warnings" and r["producers"][0]["must"] == 0'
grep -q '<testsuite name="consumer sse-conform reference"' report.xml || fail "junit: no consumer suite"
grep -q '| consumer sse-conform reference | certified |' report.md || fail "markdown: no consumer row"
grep -q '<h1>certify' report.html || fail "html: no title"

# The reference decoder of NEW adopts the new type.
expect_exit 0 "$tool" certify --old old --new new "${fast[@]}" --consumer "$tool adapter --spec new" --format json
json_is out.txt 'probe("sse-conform reference", "chat/new-type/citation")["grade"] == "adopted"'
fi

if want 2; then
# 2. Breaks a consumer: an SDK that crashes on the new type, one that hangs
# on it, and a strict allow-list (a profile that rejects unknown types).
broken="$src/tools/tests/broken-adapters/broken_adapter.py"
cat > strict.profile.yaml <<'YAML'
profile_format: 1
name: strict frontend
dialect: chat
unknown_types: reject
handles:
  content: [/text]
YAML
expect_exit 1 "$tool" certify --old old --new new "${fast[@]}" --timeout-ms 2000 \
  --consumer "python3 $broken crash --on new-type/citation -- $reference_old" --profile strict.profile.yaml --format json
grep -q '"certified":false' out.txt || fail "a crashing consumer was certified"
json_is out.txt 'consumer("sse-conform reference")["verdict"] == "broke"'
json_is out.txt 'probe("sse-conform reference", "chat/new-type/citation")["grade"] == "broke"'
json_is out.txt 'probe("sse-conform reference", "chat/new-type/citation")["outcome"] == "error"'
json_is out.txt '"citation" in probe("sse-conform reference", "chat/new-type/citation")["injected"]'
json_is out.txt 'probe("sse-conform reference", "chat/unknown-type/x_certify_probe")["grade"] == "tolerated"'
json_is out.txt 'consumer("strict frontend")["verdict"] == "broke"'
json_is out.txt 'any(f["rule"] == "NEW_TYPE_REJECTED" and f["level"] == "ERR" for f in consumer("strict frontend")["static"])'
expect_exit 1 "$tool" certify --old old --new new "${fast[@]}" --timeout-ms 1000 \
  --consumer "python3 $broken hang --on chat/new-field -- $reference_old" --format json
json_is out.txt 'probe("sse-conform reference", "chat/new-field/content.annotations")["outcome"] == "timeout"'
json_is out.txt 'probe("sse-conform reference", "chat/new-type/citation")["grade"] == "tolerated"'
fi

if want 3; then
# 3. Breaks a producer: the example stream sends runId as a string.
expect_exit 1 "$tool" certify --old old --new break "${fast[@]}" --capture "$src/tools/examples/agent-run.sse" \
  --dialect agent --format json
json_is out.txt 'r["producers"][0]["verdict"] == "broke" and r["producers"][0]["must"] > 0 and r["producers"][0]["old_must"] == 0'
json_is out.txt 'all(f["new_since_old"] for f in r["producers"][0]["findings"] if f["rule"] == "AGENT-FIELD-TYPE")'
json_is out.txt 'r["contract"]["verdict"] != "broke"'

# A MUST finding OLD gives the same (a stream without its terminal done) is
# already failing under OLD: reported, not a break of this release.
printf 'data: {"type":"run_started","runId":"r1"}\n\n' > nodone.sse
expect_exit 0 "$tool" certify --old old --new new "${fast[@]}" --capture nodone.sse --dialect agent --allow-unchecked \
  --format json
json_is out.txt 'r["producers"][0]["verdict"] == "certified-with-warnings" and r["producers"][0]["must"] > 0'
json_is out.txt 'not any(f["new_since_old"] for f in r["producers"][0]["findings"])'

# The same producer live (`serve` streams) and through the example scenario.
"$tool" serve --port 0 --stream "$src/tools/examples/agent-run.sse" > serve.log 2>&1 &
serve_pid=$!
trap 'kill $serve_pid 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 50); do grep -q "cases at http" serve.log && break; sleep 0.1; done
base="$(sed -n 's|.*cases at \(http://[0-9.:]*\)/ .*|\1|p' serve.log)"
[ -n "$base" ] || { cat serve.log >&2; fail "serve did not start"; }
AGENT_BASE_URL="$base" expect_exit 1 "$tool" certify --old old --new break "${fast[@]}" \
  --producer "$base/stream/agent-run.sse" --scenario "$src/tools/examples/agent.scenario.yaml" --dialect agent --format json
json_is out.txt 'len(r["producers"]) == 2 and all(p["verdict"] == "broke" and p["frames"] == 7 for p in r["producers"])'
# NEW changes chat; agent producers check nothing of it: unchecked, exit 1,
# unless --allow-unchecked.
AGENT_BASE_URL="$base" expect_exit 1 "$tool" certify --old old --new new "${fast[@]}" \
  --producer "$base/stream/agent-run.sse" --scenario "$src/tools/examples/agent.scenario.yaml" --dialect agent --format json
json_is out.txt 'len(r["producers"]) == 2 and all(p["verdict"] == "certified-with-warnings" for p in r["producers"])'
json_is out.txt 'r["unchecked"] == ["chat", "code"] and not r["certified"]'
AGENT_BASE_URL="$base" expect_exit 0 "$tool" certify --old old --new new "${fast[@]}" --allow-unchecked \
  --producer "$base/stream/agent-run.sse" --scenario "$src/tools/examples/agent.scenario.yaml" --dialect agent --format text
grep -q "^unchecked: chat changed" out.txt || fail "no unchecked line"
[ "$(grep -n "^unchecked: chat" out.txt | cut -d: -f1)" -lt "$(grep -n "^reference:" out.txt | cut -d: -f1)" ] \
  || fail "unchecked is not printed first"
# Nothing to check at all is not a green run either.
expect_exit 1 "$tool" certify --old old --new old "${fast[@]}" --format json
json_is out.txt 'r["unchecked"] == ["*"]'
fi

if want 4; then
# 4. A version that does not follow the change.
expect_exit 1 "$tool" certify --old old --new nobump "${fast[@]}" --format json
json_is out.txt 'r["contract"]["verdict"] == "broke" and any(c["rule"] == "VERSION_NOT_BUMPED" for c in r["contract"]["changes"])'
fi

if want 5; then
# 5. Usage: exit 2 with the reason.
expect_exit 2 "$tool" certify --new new
expect_exit 2 "$tool" certify --old old --against HEAD --new new
# --deadline-s: past it nothing starts, the report says what is unfinished, exit 1.
expect_exit 1 "$tool" certify --old old --new new --quiet --deadline-s 0.2 --consumer "$reference_old" --format json
json_is out.txt 'r["deadline_reached"] and r["unfinished"] and r["interrupted"] is None and not r["certified"]'
# --against REV: OLD is NEW's path at a git revision (where the sources are a git work tree).
if git -C "$src" rev-parse --verify -q HEAD >/dev/null 2>&1; then
  # (exit 0 on a clean work tree; spec/ edited since HEAD may change the verdict, never the usage)
  set +e; "$tool" certify --against HEAD --new "$src/spec" "${fast[@]}" --consumer "$reference_old" --format json \
    >out.txt 2>err.txt; got=$?; set -e
  [ "$got" = 0 ] || [ "$got" = 1 ] || { cat err.txt >&2; fail "--against HEAD: exit $got"; }
  json_is out.txt 'r["old"]["name"].endswith("spec@HEAD") and r["old"]["version"] != ""'
  expect_exit 2 "$tool" certify --against no-such-revision --new "$src/spec" --quiet
  grep -q "unknown git revision" err.txt || fail "no git message"
fi
expect_exit 2 "$tool" certify --old old --new new --capture "$src/tools/examples/agent-run.sse"
grep -q "need --dialect" err.txt || fail "no reason for the missing --dialect"
printf 'profile_format: 1\nname: x\ndialect: chat\nunknown_types: maybe\nhandles: {content: []}\n' > bad.profile.yaml
expect_exit 2 "$tool" certify --old old --new new --profile bad.profile.yaml
grep -q "bad.profile.yaml:4:16: .unknown_types. must be" err.txt || fail "profile error not positioned"
fi

if want 6; then
# 6. Recorded baselines (--baseline DIALECT=FILE): the probes built on a
# recorded chat stream, whose third frame has two data lines (the generated
# baseline never has), as a raw stream and as a check --record capture.
printf '%s\n\n' 'data: {"type":"content","text":"Hello"}' ': keep-alive' \
  "$(printf 'data: {"type":"thinking",\ndata:  "text":"two data lines"}')" \
  "$(printf 'event: message\ndata: {"type":"content","text":" world"}')" \
  'data: {"type":"usage","promptTokens":3,"completionTokens":2}' > chat-recorded.sse
"$tool" check --dialect chat --spec new --file chat-recorded.sse --record chat-recorded.capture > /dev/null
expect_exit 0 "$tool" certify --old old --new new "${fast[@]}" --consumer "$reference_old" \
  --baseline chat=chat-recorded.sse --baseline chat=chat-recorded.capture --format json
json_is out.txt 'probe("sse-conform reference", "chat/new-type/citation")["baseline"] == "generated"'
json_is out.txt 'probe("sse-conform reference", "chat/new-type/citation@recorded-1")["grade"] == "tolerated"'
json_is out.txt 'probe("sse-conform reference", "chat/new-type/citation@recorded-1")["baseline"] == "recorded-1"'
json_is out.txt 'probe("sse-conform reference", "chat/keep-alive/comment@recorded-2")["grade"] == "tolerated"'
json_is out.txt 'sum(p["baseline"] == "recorded-1" for p in consumer("sse-conform reference")["probes"]["results"]) >= 5'
# A consumer that dies on a frame of two data lines: every generated probe is
# tolerated, the recorded baseline breaks it.
cat > multiline_crash.py <<'PY'
import base64, json, re, subprocess, sys
working = subprocess.Popen(sys.argv[1:], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
for line in sys.stdin:
    request = json.loads(line)
    if request.get("op") == "parse":
        data = b"".join(base64.b64decode(c) for c in request.get("chunks", []))
        if re.search(rb"data:[^\n]*\ndata:", data):
            sys.exit(3)
    working.stdin.write(line)
    working.stdin.flush()
    sys.stdout.write(working.stdout.readline())
    sys.stdout.flush()
    if request.get("op") == "bye":
        break
PY
expect_exit 1 "$tool" certify --old old --new new "${fast[@]}" --consumer "python3 multiline_crash.py $reference_old" \
  --baseline chat=chat-recorded.sse --format json
json_is out.txt 'probe("sse-conform reference", "chat/new-type/citation")["grade"] == "tolerated"'
json_is out.txt 'all(p["grade"] != "broke" for p in consumer("sse-conform reference")["probes"]["results"] if p["baseline"] == "generated")'
json_is out.txt 'probe("sse-conform reference", "chat/new-type/citation@recorded-1")["grade"] == "broke"'
json_is out.txt '"exited with status 3" in probe("sse-conform reference", "chat/new-type/citation@recorded-1")["reason"]'
# Baselines that cannot be used: exit 2 naming the file and where.
printf 'data: {"type":"content","text":"a"}\n\ndata: {"type":"content","text":"cut' > cut.sse
expect_exit 2 "$tool" certify --old old --new new --baseline chat=cut.sse
grep -q "baseline cut.sse: does not decode: an unterminated frame .* at byte offset 37" err.txt || fail "no decode error"
printf 'data: {"type":"content","text":"a"}\n\ndata: {"type":"approval_request","name":"x","arguments":{}}\n\n' > must.sse
expect_exit 2 "$tool" certify --old old --new new --baseline chat=must.sse
grep -q "baseline must.sse: frame 2 (byte offset 37) breaks the new contract's MUST rule CHAT-APPROVAL-ID" err.txt ||
  fail "no MUST error"
head -c 1048577 /dev/zero > big.sse
expect_exit 2 "$tool" certify --old old --new new --baseline chat=big.sse
grep -q "baseline big.sse: 1048577 bytes, over the limit of 1048576 bytes" err.txt || fail "no size error"
expect_exit 2 "$tool" certify --old old --new new --baseline chat-recorded.sse
grep -q "expected DIALECT=FILE" err.txt || fail "no DIALECT=FILE error"
fi

if want 7; then
# 7. The two real consumers (node), with their profiles.
adapters="$src/tools/adapters"
if ! command -v node >/dev/null || [ ! -d "$adapters/node_modules" ]; then
  echo "SKIPPED: the JavaScript consumers (node or tools/adapters/node_modules missing; run tools/install-deps.sh)"
  exit 0
fi
expect_exit 0 "$tool" certify --old old --new new "${fast[@]}" \
  --consumer "node $adapters/agent-service-consumer.js" --profile "$adapters/agent-service-consumer.profile.yaml" \
  --consumer "node $adapters/chat-transcript-consumer.js" --profile "$adapters/chat-transcript-consumer.profile.yaml" \
  --format json
# What they already did under OLD (cases whose frame is not JSON, a `results` that is not a
# list) is reported, not a break.
json_is out.txt 'consumer("chat transcript builder")["verdict"] == "certified-with-warnings"'
json_is out.txt 'consumer("chat transcript builder")["probes"]["broke"] == 0 and consumer("chat transcript builder")["cases"]["broke"] == 0'
json_is out.txt 'probe("chat transcript builder", "chat/new-type/citation")["grade"] == "tolerated"'
json_is out.txt 'consumer("agent-service document consumer loop")["verdict"] == "certified-with-warnings"'
json_is out.txt 'consumer("agent-service document consumer loop")["cases"]["existing"] > 0'
json_is out.txt 'consumer("agent-service document consumer loop")["probes"]["tolerated"] > 5'
# Removing a field the transcript builder reads is an ERR for it.
cp -r old removed
python3 - <<'PY'
import pathlib
p = pathlib.Path("removed/chat.yaml"); t = p.read_text()
a = "          - {key: text, type: string, required: true, purpose: Text appended to the body., source: chat-and-code-sessions.txt:17}\n"
assert a in t
t = t.replace("catalog_version: 3.0.0", "catalog_version: 4.0.0", 1).replace(a, "          - {key: body, type: string, required: true, purpose: Text appended to the body., source: chat-and-code-sessions.txt:17}\n", 1)
p.write_text(t)
PY
expect_exit 1 "$tool" certify --old old --new removed "${fast[@]}" \
  --consumer "node $adapters/chat-transcript-consumer.js" --profile "$adapters/chat-transcript-consumer.profile.yaml" \
  --format json
json_is out.txt 'consumer("chat transcript builder")["verdict"] == "broke"'
json_is out.txt 'any(f["rule"] == "FIELD_REMOVED" and f["pointer"] == "/text" for f in consumer("chat transcript builder")["static"])'
# ... and its probe shows it on the stream: OLD's `text` gone, the builder's content loses it.
json_is out.txt 'probe("chat transcript builder", "chat/removed-field/content.text")["grade"] == "broke"'
fi
echo "certify end to end: parts ${parts:-1-7} passed"
