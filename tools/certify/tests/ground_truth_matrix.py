#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""`sse-conform certify` against the ground truth of ground-truth/truth.json.

For each catalog change (a copy of spec/ edited as the change says) certify
runs once with the five ground-truth consumers and their profiles and once
without profiles; each (change, consumer) verdict is compared with the truth
(broke or not) into a confusion matrix, printed per pair and in total.

Usage: ground_truth_matrix.py SSE_CONFORM SOURCE_DIR [--changes ID,ID] [--max-false-alarms N] [--report-only]
Asserted (exit 1 otherwise, unless --report-only): with profiles every true
break is found, the no-change control has no false alarm, and there is at most
--max-false-alarms (default 1) false alarms over the pairs run; without profiles no false alarm comes from
a failure OLD already had (a consumer broke on a probe or case that fails the
same way under OLD) and the control is free of false alarms.
Exit 77 (skipped) without node.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

here = os.path.dirname(os.path.abspath(__file__))
gt = os.path.join(here, "ground-truth")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("tool")
    ap.add_argument("src")
    ap.add_argument("--changes", default="")
    ap.add_argument("--report-only", action="store_true")
    ap.add_argument("--max-false-alarms", type=int, default=1,
                    help="false alarms with profiles allowed over the pairs run (the control's never)")
    a = ap.parse_args()
    if shutil.which("node") is None:
        print("SKIPPED: no node")
        return 77
    truth = json.load(open(os.path.join(gt, "truth.json")))
    wanted = [c for c in a.changes.split(",") if c]
    changes = [c for c in truth["changes"] if not wanted or c["id"] in wanted]
    work = tempfile.mkdtemp()
    try:
        return run(a, truth, changes, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def run(a, truth, changes, work):
    old = os.path.join(work, "old")
    shutil.copytree(os.path.join(a.src, "spec"), old)
    totals = {True: {"tp": 0, "fn": 0, "fp": 0, "tn": 0}, False: {"tp": 0, "fn": 0, "fp": 0, "tn": 0}}
    problems = []
    for ch in changes:
        new = os.path.join(work, ch["id"])
        shutil.copytree(old, new)
        for file, before, after in ch["edits"]:
            path = os.path.join(new, file)
            text = open(path).read()
            if before not in text:
                print(f"FAIL: {ch['id']}: {file} no longer holds {before!r}: update truth.json")
                return 1
            open(path, "w").write(text.replace(before, after, 1))
        for profiles in (True, False):
            cmd = [a.tool, "certify", "--old", old, "--new", new, "--quiet", "--probe-random", "1",
                   "--json", os.path.join(work, "report.json"), "--format", "json"]
            for c in truth["consumers"]:
                cmd += ["--consumer", "node " + os.path.join(gt, c["script"])]
                if profiles:
                    cmd += ["--profile", os.path.join(gt, c["profile"])]
            p = subprocess.run(cmd, capture_output=True, text=True)
            if p.returncode not in (0, 1):
                print(f"FAIL: {ch['id']}: certify exit {p.returncode}\n{p.stderr}")
                return 1
            report = json.load(open(os.path.join(work, "report.json")))
            for c in truth["consumers"]:
                got = next((x for x in report["consumers"] if x["name"] == c["name"]), None)
                if got is None:
                    problems.append(f"{ch['id']}: no verdict for {c['name']}")
                    continue
                broke = got["verdict"] == "broke"
                true = c["name"] in ch["breaks"]
                cell = ("tp" if broke else "fn") if true else ("fp" if broke else "tn")
                totals[profiles][cell] += 1
                why = ""
                if cell in ("fp", "fn"):
                    why = "; ".join(f"{f['level']} {f['rule']} {f.get('pointer','')}" for f in got["static"]
                                    if f["level"] == "ERR")
                    why += "; " + "; ".join(f"{r['id']}: {r.get('reason','')[:120]}" for r in got["probes"]["results"]
                                            if r["grade"] == "broke")[:400]
                    if cell == "fp" and (ch["id"] == "control" or profiles):
                        problems.append(f"false alarm {'with' if profiles else 'without'} profiles: {ch['id']} x {c['name']}")
                    leaked = [r for r in got["probes"]["results"]
                              if r["grade"] == "broke" and not r.get("already_failing_under_old") and r.get("old_reason")]
                    if cell == "fp" and not profiles and leaked:
                        problems.append(f"false alarm from a failure OLD already had: {ch['id']} x {c['name']}")
                    if cell == "fn" and profiles:
                        problems.append(f"missed break with profiles: {ch['id']} x {c['name']}")
                print(f"{'profiles' if profiles else 'no profiles'} {ch['id']} x {c['name']}: {cell.upper()} "
                      f"(certify {got['verdict']}, truth {'broke' if true else 'fine'}){' ' + why if why else ''}")
    for profiles in (True, False):
        t = totals[profiles]
        print(f"{'with' if profiles else 'without'} profiles: {t['tp']} true breaks found, {t['fn']} missed, "
              f"{t['fp']} false alarms, {t['tn']} true passes")
    if a.report_only:
        return 0
    fp = [p for p in problems if p.startswith("false alarm with profiles")]
    fatal = [p for p in problems if not p.startswith("false alarm with profiles") or "control x" in p]
    if len(fp) > a.max_false_alarms:
        fatal += [p for p in fp if p not in fatal]
    for p in fatal:
        print("FAIL: " + p)
    return 1 if fatal else 0


if __name__ == "__main__":
    sys.exit(main())
