#!/usr/bin/env node
// SPDX-License-Identifier: MIT
// The JavaScript peer of `sse-conform bench` (tools/docs/benchmarks.md): the
// same stream file, the same chunk size and the same summary, parsed by
// eventsource-parser (pinned in tools/adapters/package.json) the way an
// application does it: bytes through a streaming TextDecoder (UTF-8, invalid
// bytes replaced, as our parser does), then createParser().feed().
//
//   node peer_bench.js [--json] [--chunk N] [--runs R] FILE
//
// --json also JSON.parse()s every event's data (the JavaScript way of decoding
// a dialect frame) and counts the objects with a string `type`. Prints one
// JSON line with the keys `sse-conform bench` prints (mb_per_s from the median
// run), so compare.sh reads both the same way. Exit 1 if runs disagree, 2 on
// a usage error.
'use strict';
const fs = require('fs');
const path = require('path');

function usage(msg) {
  process.stderr.write(`peer_bench: ${msg}\nusage: peer_bench.js [--json] [--chunk N] [--runs R] FILE\n`);
  process.exit(2);
}

const args = process.argv.slice(2);
let json = false;
let chunk = 65536;
let runs = 5;
let file = null;
for (let i = 0; i < args.length; ++i) {
  const a = args[i];
  if (a === '--json') json = true;
  else if (a === '--chunk' || a === '--runs') {
    const n = Number(args[++i]);
    if (!Number.isInteger(n) || n < (a === '--runs' ? 1 : 0)) usage(`${a} needs a whole number`);
    if (a === '--chunk') chunk = n; else runs = n;
  } else if (file === null && !a.startsWith('--')) file = a;
  else usage(`unexpected argument '${a}'`);
}
if (file === null) usage('give a FILE');

const modules = path.join(__dirname, '..', '..', 'adapters', 'node_modules');
const { version } = require(path.join(modules, 'eventsource-parser', 'package.json'));

async function main() {
  const { createParser } = await import(require('url').pathToFileURL(path.join(modules, 'eventsource-parser', 'dist', 'index.js')).href);
  const bytes = fs.readFileSync(file);
  const step = chunk === 0 ? Math.max(bytes.length, 1) : chunk;
  const results = [];
  for (let r = 0; r < runs; ++r) {
    let events = 0;
    let dataChars = 0;
    let structured = 0;
    const parser = createParser({
      onEvent: json
        ? (e) => {
          ++events;
          dataChars += e.data.length;
          try {
            const v = JSON.parse(e.data);
            if (v !== null && typeof v === 'object' && !Array.isArray(v) && typeof v.type === 'string') ++structured;
          } catch (_) { /* plain text */ }
        }
        : (e) => { ++events; dataChars += e.data.length; },
    });
    const decoder = new TextDecoder();
    const start = process.hrtime.bigint();
    for (let at = 0; at < bytes.length; at += step) {
      parser.feed(decoder.decode(bytes.subarray(at, at + step), { stream: true }));
    }
    parser.feed(decoder.decode());
    const seconds = Number(process.hrtime.bigint() - start) / 1e9;
    results.push({ seconds, events, dataChars, structured });
  }
  for (const r of results) {
    if (r.events !== results[0].events || r.dataChars !== results[0].dataChars) {
      process.stderr.write('peer_bench: runs counted different events\n');
      process.exit(1);
    }
  }
  const sorted = results.map((r) => r.seconds).sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const median = sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  const out = {
    file,
    layer: json ? 'eventsource-parser+JSON.parse' : 'eventsource-parser',
    version,
    chunk,
    runs,
    bytes: bytes.length,
    events: results[0].events,
    median_seconds: Number(median.toFixed(6)),
    min_seconds: Number(sorted[0].toFixed(6)),
    mb_per_s: Number((bytes.length / 1e6 / Math.max(median, 1e-9)).toFixed(1)),
  };
  if (json) out.structured_events = results[0].structured;
  process.stdout.write(JSON.stringify(out) + '\n');
}

main().catch((e) => {
  process.stderr.write(`peer_bench: ${e && e.stack ? e.stack : e}\n`);
  process.exit(1);
});
