#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# A deliberately broken adapter for the harness tests (tools/tests/harness_test.cpp).
# It forwards every request to a working adapter (the reference) and breaks in
# one chosen way on parse requests whose id contains --on (every parse request
# when --on is not given):
#   crash    exits with status 3 after writing to stderr
#   hang     never answers
#   garbage  answers a line that is not JSON
#   wrong    answers events whose data differ from the working adapter's
#   huge     answers one line of --huge-bytes bytes (default 2 MiB)
#   wrongid  answers with another request id
#   slow     answers correctly after sleeping --per-chunk-us microseconds per chunk
#            (an honest adapter with linear cost, for the time budget)
#   jsretry  answers the working adapter's retry as a JavaScript number would
#            hold it: a double (18446744073709551615 becomes 2^64)
#   nohello  exits at hello without answering        (a setup error)
#   silent   never answers hello                      (a setup error)
#   badproto answers hello with protocol 2           (a setup error)
#   nocr     works, but its hello lists every capability except "cr"
#   crblind  lists every capability except "cr", and does not follow that rule:
#            a CR not followed by LF is dropped before parsing
#   noretry  works, but its hello lists every capability except "retry"
#   nolayers works, but its hello lists no layer
#   twice    answers correctly, then sends the same answer once more
#   noflight works, but its hello has no max_in_flight (one request at a time, protocol 1 as first written)
#   badflight answers hello with max_in_flight 0                (a setup error)
#   inflight works, and writes to --record FILE the most parse requests it
#            found waiting in one read (more than 1: the harness pipelines)
# --record FILE: modes hang and twice append the id of each triggered request.
# --after N: the first N parse requests that would trigger are forwarded instead
#            (an adapter that works for a while, then breaks).
# Usage: broken_adapter.py MODE [--on TEXT] [--after N] [--huge-bytes N] [--per-chunk-us N] [--record FILE]
#        -- WORKING ADAPTER COMMAND...
import base64
import decimal
import os
import re
import json
import subprocess
import sys
import time


def js_number(value):
    """The text JSON.stringify writes for a Number: integers below 1e21 in
    plain digits (the shortest round-trip digits, then zeros), others as repr."""
    if value == int(value) and abs(value) < 1e21:
        text = format(decimal.Decimal(repr(value)), "f")
        return text[:-2] if text.endswith(".0") else text
    return repr(value)


def main():
    args = sys.argv[1:]
    if "--" not in args or not args:
        sys.stderr.write("usage: broken_adapter.py MODE [--on TEXT] [--huge-bytes N] -- COMMAND...\n")
        return 2
    split = args.index("--")
    opts, command = args[:split], args[split + 1:]
    mode = opts[0]
    on = None
    huge_bytes = 2 << 20
    if "--on" in opts:
        on = opts[opts.index("--on") + 1]
    if "--huge-bytes" in opts:
        huge_bytes = int(opts[opts.index("--huge-bytes") + 1])
    per_chunk_us = 0
    if "--per-chunk-us" in opts:
        per_chunk_us = int(opts[opts.index("--per-chunk-us") + 1])
    record = None
    if "--record" in opts:
        record = opts[opts.index("--record") + 1]
    spared = 0
    if "--after" in opts:
        spared = int(opts[opts.index("--after") + 1])
    working = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def forward(line):
        working.stdin.write(line + "\n")
        working.stdin.flush()
        return working.stdout.readline().rstrip("\n")

    def say(text):
        sys.stdout.write(text + "\n")
        sys.stdout.flush()

    def note(text):
        if record:
            with open(record, "a") as f:
                f.write(text + "\n")

    if mode == "inflight":
        most = 0
        buffered = b""
        while True:
            data = os.read(0, 1 << 20)
            if not data:
                break
            buffered += data
            lines = buffered.split(b"\n")
            buffered = lines.pop()
            most = max(most, sum(1 for raw in lines if b'"op":"parse"' in raw))
            for raw in lines:
                if json.loads(raw).get("op") == "bye":
                    break
                say(forward(raw.decode("utf-8")))
        with open(record, "w") as f:
            f.write(str(most) + "\n")
        return 0

    for line in sys.stdin:
        line = line.rstrip("\n")
        request = json.loads(line)
        op = request.get("op")
        if op == "bye":
            break
        if op == "hello":
            if mode == "nohello":
                sys.stderr.write("broken adapter: leaving without a hello\n")
                return 0
            if mode == "silent":
                time.sleep(3600)
            answer = json.loads(forward(line))
            if mode == "badproto":
                answer["protocol"] = 2
            if mode in ("nocr", "crblind"):
                answer["capabilities"] = [c for c in answer.get("capabilities", []) if c != "cr"]
            if mode == "noretry":
                answer["capabilities"] = [c for c in answer.get("capabilities", []) if c != "retry"]
            if mode == "nolayers":
                answer["layers"] = []
            if mode == "noflight":
                answer.pop("max_in_flight", None)
            if mode == "badflight":
                answer["max_in_flight"] = 0
            say(json.dumps(answer))
            continue
        triggered = op == "parse" and (on is None or on in request.get("id", ""))
        if triggered and spared > 0:
            spared -= 1
            triggered = False
        if not triggered:
            say(forward(line))
            continue
        if mode == "crash":
            sys.stderr.write("broken adapter: crashing on purpose on " + request["id"] + "\n")
            sys.stderr.flush()
            sys.exit(3)
        elif mode == "hang":
            note(request["id"])
            time.sleep(3600)
        elif mode == "twice":
            note(request["id"])
            answer = forward(line)
            say(answer)
            say(answer)
        elif mode == "garbage":
            say("this is not JSON {")
        elif mode == "wrong":
            answer = json.loads(forward(line))
            for event in answer.get("events", []):
                event["data"] += " (wrong)"
            if not answer.get("events") and "error" not in answer:
                answer["events"] = [{"type": "message", "data": "invented", "lastEventId": ""}]
            say(json.dumps(answer))
        elif mode == "huge":
            prefix = '{"id":' + json.dumps(request["id"]) + ',"events":[{"type":"message","data":"'
            sys.stdout.write(prefix + "x" * huge_bytes + '","lastEventId":""}],"retry":null}\n')
            sys.stdout.flush()
        elif mode == "slow":
            time.sleep(per_chunk_us * len(request.get("chunks", [])) / 1e6)
            say(forward(line))
        elif mode == "crblind":
            data = b"".join(base64.b64decode(c) for c in request["chunks"])
            data = re.sub(rb"\r(?!\n)", b"", data)
            request["chunks"] = [base64.b64encode(data).decode("ascii")]
            say(forward(json.dumps(request)))
        elif mode == "jsretry":
            answer = json.loads(forward(line))
            retry = answer.get("retry")
            if retry is None:
                say(json.dumps(answer))
            else:
                answer["retry"] = "@retry@"
                say(json.dumps(answer).replace('"@retry@"', js_number(float(retry))))
        elif mode == "wrongid":
            answer = json.loads(forward(line))
            answer["id"] = "not-" + request["id"]
            say(json.dumps(answer))
        else:
            say(forward(line))
    return 0


if __name__ == "__main__":
    sys.exit(main())
