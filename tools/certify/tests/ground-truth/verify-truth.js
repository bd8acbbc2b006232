#!/usr/bin/env node
// SPDX-License-Identifier: MIT
// Checks the ground truth of truth.json by feeding streams straight to the
// consumers: each consumer must render OLD's stream of its dialect cleanly,
// and breaks on a change's NEW stream exactly when the change lists it.
// Broken means: it throws, or what it renders holds a value the stream never
// had (`undefined`, `NaN`, `[object Object]`) or lost a key it rendered for
// the same frame of OLD's stream.
// Usage: verify-truth.js [truth.json]; exit 0 when every row holds.
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const truth = JSON.parse(fs.readFileSync(process.argv[2] || path.join(__dirname, 'truth.json'), 'utf8'));
const MANGLED = /undefined|NaN|\[object Object\]/;

function mangled(value) {
  if (value === undefined || (typeof value === 'number' && Number.isNaN(value))) return true;
  if (typeof value === 'string') return MANGLED.test(value);
  if (value && typeof value === 'object') return Object.values(value).some(mangled);
  return false;
}

// Why the consumer breaks on `stream`, or null.
function breaks(consumer, stream, before) {
  let events;
  try {
    events = consumer.consume(stream);
  } catch (e) {
    return `throws ${e.message}`;
  }
  for (const [i, ev] of events.entries()) {
    if (mangled(ev.fields) || (ev.text !== undefined && mangled(ev.text))) return `renders ${JSON.stringify(ev, (k, v) => (v === undefined ? 'undefined' : v))}`;
    const was = before && before[i];
    if (was && was.fields && ev.fields && was.type === ev.type) {
      const lost = Object.keys(was.fields).filter((k) => !(k in ev.fields) || ev.fields[k] === undefined);
      if (lost.length) return `loses ${lost.join(', ')} of event ${i + 1}`;
    }
  }
  return null;
}

let failures = 0;
for (const c of truth.consumers) {
  const consumer = require(path.join(__dirname, c.script));
  const old = truth.old_streams[c.dialect];
  const why = breaks(consumer, old, null);
  if (why) { console.log(`FAIL ${c.name} on OLD's ${c.dialect} stream: ${why}`); failures++; }
  const before = consumer.consume(old);
  for (const ch of truth.changes) {
    const stream = ch.dialect === c.dialect ? ch.new_stream : old;
    const got = breaks(consumer, stream, before);
    const want = ch.breaks.includes(c.name);
    const line = `${ch.id} x ${c.name}: ${got ? 'broke (' + got + ')' : 'fine'}`;
    if (Boolean(got) !== want) { console.log(`FAIL ${line}; truth.json says ${want ? 'broke' : 'fine'}`); failures++; }
    else console.log(`ok   ${line}`);
  }
}
process.exit(failures ? 1 : 0);
