#!/usr/bin/env node
// SPDX-License-Identifier: MIT
// A transcript exporter (markdown), as a backend job writes it from
// chat-and-code-sessions.txt: the body, tool calls and tool results become
// lines; plain text is kept; every type it does not export is dropped.
'use strict';

function frames(text) {
  const out = [];
  for (const block of text.split('\n\n').slice(0, -1)) {
    const data = block.split('\n').filter((l) => l.startsWith('data:')).map((l) => l.slice(5).replace(/^ /, ''));
    if (data.length) out.push(data.join('\n'));
  }
  return out;
}

function consume(text) {
  const events = [];
  for (const raw of frames(text)) {
    let ev;
    try { ev = JSON.parse(raw); } catch { ev = null; }
    if (!ev || typeof ev !== 'object' || typeof ev.type !== 'string') {
      events.push({ kind: 'plain_text', text: raw, raw });
      continue;
    }
    let line = null;
    if (ev.type === 'content') line = { text: `${ev.text}` };
    else if (ev.type === 'tool_call') line = { name: `**${ev.name}**`, arguments: JSON.stringify(ev.arguments) };
    else if (ev.type === 'tool_result') line = { name: `> ${ev.name} returned` };
    if (line) events.push({ kind: 'structured', type: ev.type, fields: { type: ev.type, ...line }, raw });
  }
  return events;
}

module.exports = { name: 'ground truth: transcript exporter', dialect: 'chat', consume };
if (require.main === module) require('./adapter-main.js').run(module.exports);
