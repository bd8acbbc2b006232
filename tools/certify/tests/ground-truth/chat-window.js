#!/usr/bin/env node
// SPDX-License-Identifier: MIT
// A tolerant chat window, as a frontend writes it from
// chat-and-code-sessions.txt: it renders the body and a usage badge and
// ignores every other type. The badge sums the counters of each `usage` frame
// ("N tokens, M ms"); it reads them straight from the frame.
'use strict';

function frames(text) {
  const out = [];
  for (const block of text.split('\n\n').slice(0, -1)) {
    const line = block.split('\n').find((l) => l.startsWith('data: '));
    if (line) out.push(line.slice(6));
  }
  return out;
}

function consume(text) {
  const events = [];
  let tokens = 0;
  for (const raw of frames(text)) {
    let ev;
    try { ev = JSON.parse(raw); } catch { ev = null; }
    if (!ev || typeof ev.type !== 'string') continue;
    if (ev.type === 'content') events.push({ kind: 'structured', type: 'content', fields: { type: 'content', text: ev.text }, raw });
    if (ev.type === 'usage') {
      tokens += ev.promptTokens + ev.completionTokens;
      const badge = `${tokens} tokens, ${ev.latencyMs.toFixed(0)} ms`;
      events.push({ kind: 'structured', type: 'usage', fields: { type: 'usage', badge }, raw });
    }
  }
  return events;
}

module.exports = { name: 'ground truth: chat window', dialect: 'chat', consume };
if (require.main === module) require('./adapter-main.js').run(module.exports);
