// Compares what the reference parser dispatches from a producer app's response with the events
// the app meant to send (events.js), entry by entry.
//
// Usage: node compare.js APP ROUTE CAPTURE [REFUSALS]
//   APP       the app file (hono.js, ...): its `expected(route)` says what it meant to send
//   ROUTE     /stream or /agent
//   CAPTURE   what `sse-conform check --record FILE` recorded of that route
//   REFUSALS  the app's standard output: its `refused ROUTE KEY: ...` lines (lib.js)
// The reference parser is `sse-conform adapter` (tools/docs/adapter-protocol.md), fed the
// capture's pieces as they arrived; the tool is $SSE_CONFORM, else build/release/tools/sse-conform.
//
// Prints one line per entry that did not arrive as meant, then `summary: ...`. What it tells:
//   refused    the framework threw on a value that cannot be one line and sent nothing (what a
//              correct producer does; a value it could write and refused is `lost`)
//   lost       nothing dispatched for the entry
//   altered    an event dispatched for the entry, a field of it not the value written
//   INJECTION  a line break in a value split the frame: an event of its own, or a field of
//              another event, carries text the app wrote inside a value (events.js MARKERS)
//   extra      an event dispatched that no entry accounts for, without a marker
//   retry      the reconnection time at the end is not the one set
// Exit: 0 every entry arrived as meant (refusals included), 1 a finding, 2 a setup error.

import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { MARKERS } from './events.js';

const here = dirname(fileURLToPath(import.meta.url));

function fail(message) {
  process.stderr.write(`compare.js: ${message}\n`);
  process.exit(2);
}

// The base64 pieces of a capture (tools/docs/capture-format.md), in arrival order.
function capturePieces(path) {
  const lines = readFileSync(path, 'utf8').split('\n').filter((line) => line !== '');
  let header = {};
  try {
    header = JSON.parse(lines[0] ?? '{}');
  } catch {
    // a raw stream: not a capture
  }
  if (header.format !== 'sse-conform-capture') fail(`${path}: not a capture (sse-conform check --record writes one)`);
  return lines.slice(1).map((line) => JSON.parse(line)).filter((line) => typeof line.b64 === 'string').map((line) => line.b64);
}

// The reference parser's events and retry for those pieces, through `sse-conform adapter`.
function referenceParse(tool, chunks) {
  return new Promise((done) => {
    const child = spawn(tool, ['adapter'], { stdio: ['pipe', 'pipe', 'inherit'] });
    let out = '';
    child.on('error', (error) => fail(`cannot run ${tool}: ${error.message}`));
    child.stdout.on('data', (bytes) => {
      out += bytes;
    });
    child.on('close', () => {
      const answers = out.split('\n').filter((line) => line !== '').map((line) => JSON.parse(line));
      const answer = answers.find((a) => a.id === 'producer');
      if (!answer) fail('the reference adapter gave no answer');
      if (answer.error) fail(`the reference parser stopped: ${answer.error}`);
      done(answer);
    });
    child.stdin.write(`${JSON.stringify({ op: 'hello', protocol: 1 })}\n`);
    child.stdin.write(`${JSON.stringify({ op: 'parse', id: 'producer', layer: 'wire', chunks })}\n`);
    child.stdin.end(`${JSON.stringify({ op: 'bye' })}\n`);
  });
}

// Members of `want` that are null are not compared (the agent route compares data only).
function same(want, got) {
  return (
    (want.type === null || want.type === got.type) &&
    want.data === got.data &&
    (want.lastEventId === null || want.lastEventId === got.lastEventId)
  );
}

function likeness(want, got) {
  return (want.data === got.data ? 4 : 0) + (want.lastEventId === got.lastEventId ? 2 : 0) + (want.type === got.type ? 1 : 0);
}

// Longest common subsequence of exact matches; the rest is grouped into gaps between matches.
function align(wants, gots) {
  const n = wants.length;
  const m = gots.length;
  const table = Array.from({ length: n + 1 }, () => new Array(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      table[i][j] = same(wants[i], gots[j]) ? table[i + 1][j + 1] + 1 : Math.max(table[i + 1][j], table[i][j + 1]);
    }
  }
  const gaps = [];
  let gap = { wants: [], gots: [] };
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && same(wants[i], gots[j])) {
      if (gap.wants.length || gap.gots.length) gaps.push(gap);
      gap = { wants: [], gots: [] };
      i++;
      j++;
    } else if (j < m && (i === n || table[i][j + 1] >= table[i + 1][j])) {
      gap.gots.push(gots[j++]);
    } else {
      gap.wants.push(wants[i++]);
    }
  }
  if (gap.wants.length || gap.gots.length) gaps.push(gap);
  return gaps;
}

// The markers an event carries in any field.
function markersOf(event) {
  return MARKERS.filter((marker) => FIELDS.some(([field]) => event[field] && event[field].includes(marker)));
}

// Within a gap, each entry takes the most alike event after the one the previous entry took,
// or, when none is alike, the first event that carries a marker of the entry's own values.
function pair(gap) {
  const pairs = [];
  let from = 0;
  for (const want of gap.wants) {
    let best = -1;
    for (let j = from; j < gap.gots.length; j++) {
      if (likeness(want, gap.gots[j]) > 0 && (best < 0 || likeness(want, gap.gots[j]) > likeness(want, gap.gots[best]))) best = j;
    }
    if (best < 0) {
      const own = markersOf(want);
      best = gap.gots.findIndex((got, j) => j >= from && markersOf(got).some((marker) => own.includes(marker)));
    }
    pairs.push({ want, got: best >= 0 ? gap.gots[best] : null });
    if (best >= 0) from = best + 1;
  }
  const taken = new Set(pairs.map((p) => p.got));
  return { pairs, extras: gap.gots.filter((got) => !taken.has(got)) };
}

function shown(text) {
  const json = JSON.stringify(text);
  return json.length > 100 ? `${json.slice(0, 97)}..." (${text.length} characters)` : json;
}

const FIELDS = [
  ['type', 'type'],
  ['data', 'data'],
  ['lastEventId', 'lastEventId'],
];

// Markers the event carries in a field where the entry (if any) does not have them.
function foreignMarkers(got, want) {
  const found = [];
  for (const [field] of FIELDS) {
    for (const marker of MARKERS) {
      if (got[field] && got[field].includes(marker) && !(want && want[field] && want[field].includes(marker))) {
        found.push(`${field} ${shown(got[field])}`);
      }
    }
  }
  return found;
}

function describe(event) {
  return `type=${shown(event.type)} data=${shown(event.data)} lastEventId=${shown(event.lastEventId)}`;
}

async function main() {
  const [appFile, route, capture, refusalsFile] = process.argv.slice(2);
  if (!appFile || !route || !capture) fail('usage: node compare.js APP ROUTE CAPTURE [REFUSALS]');
  const tool = process.env.SSE_CONFORM || resolve(here, '../../build/release/tools/sse-conform');
  if (!existsSync(tool)) fail(`no sse-conform at ${tool} (build it, or set SSE_CONFORM)`);
  const app = await import(pathToFileURL(resolve(appFile)).href);
  const meant = app.expected(route);
  const refused = new Set();
  if (refusalsFile && existsSync(refusalsFile)) {
    for (const line of readFileSync(refusalsFile, 'utf8').split('\n')) {
      const match = /^refused (\S+) (\S+):/.exec(line);
      if (match && match[1] === route) refused.add(match[2]);
    }
  }
  const answer = await referenceParse(tool, capturePieces(capture));
  const gots = answer.events.map((event) => ({ type: event.type, data: event.data ?? '', lastEventId: event.lastEventId }));

  const findings = [];
  const notes = [];
  const gaps = align(meant.events, gots);
  const arrived = meant.events.length - gaps.reduce((count, gap) => count + gap.wants.length, 0);
  for (const gap of gaps) {
    const { pairs, extras } = pair(gap);
    for (const { want, got } of pairs) {
      if (!got) {
        if (refused.has(want.key) && want.refusable) notes.push({ key: want.key, kind: 'refused', text: 'the framework threw; nothing was sent' });
        else if (refused.has(want.key)) findings.push({ key: want.key, kind: 'lost', text: 'the framework threw on a value it can write' });
        else findings.push({ key: want.key, kind: 'lost', text: `nothing dispatched (meant ${describe(want)})` });
        continue;
      }
      const injected = foreignMarkers(got, want);
      const diffs = FIELDS.filter(([field]) => want[field] !== null && want[field] !== got[field]).map(
        ([field]) => `${field} ${shown(got[field])} instead of ${shown(want[field])}`,
      );
      if (injected.length) findings.push({ key: want.key, kind: 'INJECTION', text: `a value's line break split the frame: ${diffs.join('; ')}` });
      else findings.push({ key: want.key, kind: 'altered', text: diffs.join('; ') });
    }
    for (const got of extras) {
      const source = meant.events.find((want) => markersOf(got).some((marker) => markersOf(want).includes(marker)));
      if (source) {
        findings.push({ key: source.key, kind: 'INJECTION', text: `an event of its own from a value's line break: ${describe(got)}` });
      } else {
        const near = gap.wants[0]?.key ?? 'end of stream';
        findings.push({ key: near, kind: 'extra', text: `an event no entry accounts for: ${describe(got)}` });
      }
    }
  }
  if (meant.retry !== undefined && answer.retry !== meant.retry) {
    findings.push({ key: 'retry', kind: 'retry', text: `reconnection time ${answer.retry} instead of ${meant.retry}` });
  }

  for (const item of [...notes, ...findings]) process.stdout.write(`${route} ${item.key}: ${item.kind}: ${item.text}\n`);
  const kinds = new Map();
  for (const finding of findings) {
    if (!kinds.has(finding.kind)) kinds.set(finding.kind, []);
    if (!kinds.get(finding.kind).includes(finding.key)) kinds.get(finding.kind).push(finding.key);
  }
  const parts = [`${arrived}/${meant.events.length} as meant`];
  if (notes.length) parts.push(`refused ${notes.map((n) => n.key).join(', ')}`);
  for (const kind of ['INJECTION', 'lost', 'altered', 'extra', 'retry']) {
    if (kinds.has(kind)) parts.push(`${kind} ${kinds.get(kind).join(', ')}`);
  }
  process.stdout.write(`summary: ${parts.join('; ')}\n`);
  process.exit(findings.length ? 1 : 0);
}

main().catch((error) => fail(error.stack || String(error)));
