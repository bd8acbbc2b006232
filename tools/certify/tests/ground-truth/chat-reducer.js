#!/usr/bin/env node
// SPDX-License-Identifier: MIT
// A Redux-style chat reducer, as a frontend writes it from
// chat-and-code-sessions.txt: frames split on blank lines, JSON with a `type`
// dispatched as an action, anything else appended as plain text. The reducer's
// switch has no default branch that lets an action through: an action type it
// does not know throws ("unknown action"), which fails the whole stream.
// Tool names are prettified for the timeline (`name.replace`), arguments given
// as JSON text are parsed, usage falls back to 0 as the document says.
// What it renders per event is its answer (the keys of the frame, with the
// values the view shows).
'use strict';

function frames(text) {
  const out = [];
  for (const block of text.split('\n\n').slice(0, -1)) {
    const data = block.split('\n').filter((l) => l.startsWith('data:')).map((l) => l.slice(5).replace(/^ /, ''));
    if (data.length) out.push(data.join('\n'));
  }
  return out;
}

// Arguments given as JSON text are parsed; text that is not JSON is kept as it is.
function parseOr(text) {
  try { return JSON.parse(text); } catch { return text; }
}

function reducer(state, action) {
  switch (action.type) {
    case 'content':
      return { ...state, body: state.body + action.text, view: { type: 'content', text: state.body + action.text } };
    case 'thinking':
      return { ...state, view: { type: 'thinking', text: action.text } };
    case 'tool_call': {
      const args = typeof action.arguments === 'string' ? parseOr(action.arguments) : action.arguments;
      return { ...state, view: { type: 'tool_call', id: action.id, name: action.name.replace(/_/g, ' '), arguments: JSON.stringify(args) } };
    }
    case 'tool_result':
      return { ...state, view: { type: 'tool_result', id: action.id, name: action.name.replace(/_/g, ' ') } };
    case 'usage': {
      const total = (action.promptTokens ?? 0) + (action.completionTokens ?? 0);
      return { ...state, view: { type: 'usage', totalTokens: total } };
    }
    case 'notice':
      return { ...state, view: { type: 'notice', kind: action.kind, text: action.text } };
    case 'debug':
      return { ...state, view: null };
    case 'approval_request': case 'question': case 'todo': case 'plan': case 'file_change': case 'checkpoint':
    case 'subagent': case 'search_results': case 'knowledge_results': case 'memory_results': case 'steering':
      return { ...state, view: null };
    default:
      throw new Error(`unknown action ${action.type}`);
  }
}

function consume(text) {
  let state = { body: '', view: null };
  const events = [];
  for (const raw of frames(text)) {
    let action;
    try { action = JSON.parse(raw); } catch { action = null; }
    if (raw.startsWith('[ERROR]')) { events.push({ kind: 'error', text: raw.slice(7).replace(/^ /, ''), raw }); continue; }
    if (!action || typeof action !== 'object' || typeof action.type !== 'string') {
      events.push({ kind: 'plain_text', text: raw, raw });
      continue;
    }
    state = reducer(state, action);
    if (state.view) events.push({ kind: 'structured', type: action.type, fields: state.view, raw });
  }
  return events;
}

module.exports = { name: 'ground truth: chat reducer', dialect: 'chat', consume };
if (require.main === module) require('./adapter-main.js').run(module.exports);
