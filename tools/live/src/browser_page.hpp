// SPDX-License-Identifier: MIT
// The page `serve` hands to browsers at /browser: it runs EventSource over
// every case listed at /cases.json, one at a time, and POSTs what it saw to
// /results. Kept dependency-free so any browser able to run EventSource can.
#pragma once

namespace ssec::live::detail {

inline constexpr const char* browser_page = R"HTML(<!doctype html>
<html><head><meta charset="utf-8"><title>sse-conform: running</title></head>
<body><h1>sse-conform: EventSource conformance</h1><pre id="log"></pre>
<script>
"use strict";
const log = (s) => { document.getElementById("log").textContent += s + "\n"; };
// One case: open, collect events until the stream ends (the browser reports
// an error and would reconnect: we close instead), or the case times out.
function runCase(c, timeoutMs) {
  return new Promise((resolve) => {
    const events = [];
    let finished = false;
    const es = new EventSource(c.url);
    const finish = (status) => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      es.close();
      resolve({ name: c.name, status: status, events: events });
    };
    const timer = setTimeout(() => finish("timeout"), timeoutMs);
    const record = (e) => events.push({ type: e.type, data: e.data, lastEventId: e.lastEventId });
    es.onmessage = record;
    for (const t of c.types) if (t !== "message") es.addEventListener(t, record);
    es.onerror = () => finish(es.readyState === EventSource.CLOSED ? "failed" : "ended");
  });
}
async function main() {
  const params = new URLSearchParams(location.search);
  const timeoutMs = Number(params.get("timeout_ms") || 5000);
  const list = await (await fetch("/cases.json")).json();
  const results = [];
  for (const c of list) {
    const r = await runCase(c, timeoutMs);
    log(c.name + ": " + r.status + ", " + r.events.length + " events");
    results.push(r);
  }
  const posted = await fetch("/results", { method: "POST", headers: { "Content-Type": "application/json" },
                                            body: JSON.stringify({ user_agent: navigator.userAgent, results: results }) });
  // The server grades what was seen; the page shows its verdict.
  const grade = posted.ok ? await posted.json() : null;
  if (grade === null) {
    log("posted " + results.length + " results; the server refused them: " + (await posted.text()));
    document.title = "sse-conform: not graded";
    return;
  }
  log("posted " + results.length + " results: " + grade.verdict);
  const verdict = document.createElement("h2");
  verdict.id = "verdict";
  verdict.textContent = grade.verdict;
  document.body.insertBefore(verdict, document.getElementById("log"));
  document.title = "sse-conform: " + (grade.conforming ? "conforming" : "NOT conforming");
}
main().catch((e) => { log("error: " + e); fetch("/results", { method: "POST", body: JSON.stringify({ error: String(e) }) }); });
</script></body></html>
)HTML";

}  // namespace ssec::live::detail
