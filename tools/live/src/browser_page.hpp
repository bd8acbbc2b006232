// SPDX-License-Identifier: MIT
// The page `serve` hands to browsers at /browser: it runs EventSource over
// every case listed at /cases.json, one at a time, then runs the browser's
// EventSource as the client of every client case listed at /clients.json
// (a few at a time: each is its own URL, with one connection open at most),
// and POSTs what it saw to /results. Kept dependency-free so any browser
// able to run EventSource can.
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
// One client case: a fresh play of its script (POST /clients/<name>), the
// browser's EventSource as its client, closed after close_after_events events
// ("closed"), when the browser fails the connection ("failed") or at the
// case's limit ("limit"); then settle_ms more for requests that should not
// come, before the server is told.
async function runClient(c) {
  const started = await fetch(c.start, { method: "POST" });
  if (!started.ok) return { name: c.name, ended: "failed", events: [] };
  const url = (await started.json()).url;
  return new Promise((resolve) => {
    const events = [];
    let finished = false;
    const es = new EventSource(url);
    const finish = (ended) => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      es.close();
      setTimeout(() => resolve({ name: c.name, url: url, ended: ended, events: events }), c.settle_ms);
    };
    const timer = setTimeout(() => finish("limit"), c.limit_ms);
    const record = (e) => {
      events.push({ type: e.type, data: e.data, lastEventId: e.lastEventId });
      if (c.close_after_events > 0 && events.length >= c.close_after_events) finish("closed");
    };
    es.onmessage = record;
    for (const t of c.types) if (t !== "message") es.addEventListener(t, record);
    // An error with the source still CONNECTING is a reconnection under way.
    es.onerror = () => { if (es.readyState === EventSource.CLOSED) finish("failed"); };
  });
}
async function runClients(list, parallel) {
  const results = [];
  let next = 0;
  const worker = async () => {
    while (next < list.length) {
      const c = list[next++];
      const r = await runClient(c);
      log(c.name + ": " + r.ended + ", " + r.events.length + " events");
      results.push(r);
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
  return results;
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
  const clients = await (await fetch("/clients.json")).json();
  results.push(...(await runClients(clients, Number(params.get("client_parallel") || 4))));
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
