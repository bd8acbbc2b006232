#!/usr/bin/env node
// SPDX-License-Identifier: MIT
// An agent client written like agent-service.txt's own loop: its "Robust
// parser" (frames split on blank lines, the `data: ` line parsed as JSON) and
// the usage loop: append message_chunk content, save resume_update data,
// throw on error, stop on done. It renders the text so far.
'use strict';

function* sse(text) {
  const frames = text.split('\n\n');
  frames.pop();
  for (const frame of frames) {
    const line = frame.split('\n').find((l) => l.startsWith('data: '));
    if (line) yield [JSON.parse(line.slice(6)), line.slice(6)];
  }
}

function consume(input) {
  const events = [];
  let text = '';
  for (const [ev, raw] of sse(input)) {
    if (ev.type === 'message_chunk') {
      text += ev.content;
      events.push({ kind: 'structured', type: ev.type, fields: { type: ev.type, content: text }, raw });
    }
    if (ev.type === 'resume_update') events.push({ kind: 'structured', type: ev.type, fields: { type: ev.type, data: ev.data }, raw });
    if (ev.type === 'error') throw new Error(ev.error);
    if (ev.type === 'done') { events.push({ kind: 'structured', type: 'done', fields: { type: 'done' }, raw }); break; }
  }
  return events;
}

module.exports = { name: 'ground truth: agent client', dialect: 'agent', consume };
if (require.main === module) require('./adapter-main.js').run(module.exports);
