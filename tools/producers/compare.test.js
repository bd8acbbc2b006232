// Tests of compare.js on hand-made captures: each kind it reports, and the exit status.
// Run: node --test tools/producers/compare.test.js (needs build/release/tools/sse-conform, or $SSE_CONFORM).

import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const tool = process.env.SSE_CONFORM || resolve(here, '../../build/release/tools/sse-conform');
const skip = existsSync(tool) ? false : `no sse-conform at ${tool}`;
const work = mkdtempSync(join(tmpdir(), 'compare-test-'));
after(() => rmSync(work, { recursive: true, force: true }));

// An app module that meant to send `events` (and `retry`).
function app(name, events, retry) {
  const file = join(work, `${name}.js`);
  writeFileSync(file, `export function expected() { return ${JSON.stringify({ events, retry })}; }\n`);
  return file;
}

// A capture of `body`, cut into the given pieces.
function capture(name, ...pieces) {
  const file = join(work, `${name}.capture`);
  const header = { format: 'sse-conform-capture', version: 1, source: name, status: 200, headers: {}, timed: false };
  const lines = [JSON.stringify(header)];
  for (const piece of pieces) lines.push(JSON.stringify({ t: 0, b64: Buffer.from(piece).toString('base64') }));
  lines.push(JSON.stringify({ end: 'complete', t: 0 }));
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

function compare(appFile, captureFile, refusals) {
  const args = [join(here, 'compare.js'), appFile, '/stream', captureFile];
  if (refusals !== undefined) {
    const file = join(work, 'refusals.txt');
    writeFileSync(file, refusals);
    args.push(file);
  }
  const run = spawnSync(process.execPath, args, { encoding: 'utf8', env: { ...process.env, SSE_CONFORM: tool } });
  return { status: run.status, out: run.stdout, summary: /^summary: (.*)$/m.exec(run.stdout)?.[1], err: run.stderr };
}

const plain = { key: 'plain', type: 'plain', data: 'hello', lastEventId: '1', refusable: false };
const named = {
  key: 'event-newline',
  type: 'update\n\nevent: injected\ndata: injected by the event name',
  data: 'payload',
  lastEventId: '2',
  refusable: true,
};

test('every event as meant, the pieces cut mid-line: exit 0', { skip }, () => {
  const result = compare(app('exact', [plain]), capture('exact', 'event: plain\nid: 1\nda', 'ta: hello\n\n'));
  assert.equal(result.status, 0, result.err);
  assert.equal(result.summary, '1/1 as meant');
});

test('a line break in the event name that forges an event is INJECTION, keyed to its entry', { skip }, () => {
  const body = 'event: update\n\nevent: injected\ndata: injected by the event name\nid: 2\ndata: payload\n\n';
  const result = compare(app('split', [plain, named]), capture('split', 'event: plain\nid: 1\ndata: hello\n\n', body));
  assert.equal(result.status, 1);
  assert.match(result.out, /^\/stream event-newline: INJECTION: /m);
  assert.equal(result.summary, '1/2 as meant; INJECTION event-newline');
});

test('an injected event of its own beside the meant one is INJECTION; the meant one altered', { skip }, () => {
  const body = 'event: update\n\nevent: injected\ndata: injected by the event name\n\n\nid: 2\ndata: payload\n\n';
  const result = compare(app('own', [named]), capture('own', body));
  assert.equal(result.status, 1);
  assert.match(result.out, /event-newline: INJECTION: an event of its own .*type="injected"/);
  assert.match(result.out, /event-newline: altered: type "message" instead of/);
});

test('line breaks removed from the event name: altered, no injection', { skip }, () => {
  const body = 'id: 2\nevent: updateevent: injecteddata: injected by the event name\ndata: payload\n\n';
  const result = compare(app('stripped', [named]), capture('stripped', body));
  assert.equal(result.status, 1);
  assert.equal(result.summary, '0/1 as meant; altered event-newline');
});

test('a refusable value the framework refused is no finding; one never sent is lost', { skip }, () => {
  const appFile = app('refused', [plain, named]);
  const captureFile = capture('refused', 'event: plain\nid: 1\ndata: hello\n\n');
  const refused = compare(appFile, captureFile, 'listening http://127.0.0.1:1\nrefused /stream event-newline: no\n');
  assert.equal(refused.status, 0, refused.err);
  assert.equal(refused.summary, '1/2 as meant; refused event-newline');
  const lost = compare(appFile, captureFile, 'listening http://127.0.0.1:1\n');
  assert.equal(lost.status, 1);
  assert.equal(lost.summary, '1/2 as meant; lost event-newline');
});

test('a refused value the framework could write is lost', { skip }, () => {
  const result = compare(app('refused-data', [plain]), capture('refused-data', ''), 'refused /stream plain: no\n');
  assert.equal(result.status, 1);
  assert.equal(result.summary, '0/1 as meant; lost plain');
});

test('a retry other than the one set is reported', { skip }, () => {
  const result = compare(app('retry', [plain], 2500), capture('retry', 'retry: 2000\nevent: plain\nid: 1\ndata: hello\n\n'));
  assert.equal(result.status, 1);
  assert.equal(result.summary, '1/1 as meant; retry retry');
});

test('a capture that is not one is a setup error: exit 2', { skip }, () => {
  const file = join(work, 'raw.sse');
  writeFileSync(file, 'data: x\n\n');
  const result = compare(app('raw', [plain]), file);
  assert.equal(result.status, 2);
  assert.match(result.err, /not a capture/);
});
