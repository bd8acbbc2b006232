#!/usr/bin/env node
// SPDX-License-Identifier: MIT
// A consumer at the `chat` layer: a transcript builder of the kind a frontend
// writes for the chat stream of chat-and-code-sessions.txt. An SSE parser
// (eventsource-parser, pinned in package.json) hands it frames; it detects the
// three frame shapes ("[ERROR]" error frame, a JSON object with a `type`,
// else plain text appended as `plainText`), maps each structured event to a
// typed object with the exact keys it knows, keeps unknown types with their
// raw JSON ("unmapped events are never lost"), and a reducer folds the events
// into a transcript: the assistant message (body, reasoning, plain text),
// tool calls with their results, approvals, questions, usage, files, notices.
//
// Its `parse` answer (adapter protocol 1) is the events as it understood them
// (the dialect-event JSON form, spec/FORMAT.md section 2), so that `certify`
// can compare them with the reference decoder's: `fields` holds only the keys
// its mapping reads (usage fields missing fall back to 0, as the document
// says), `raw` the frame's data. A throw anywhere (mapping or reducer) is an
// `error` answer. Profile: chat-transcript-consumer.profile.yaml.
'use strict';
const { serve } = require('./lib/adapter.js');

// The frontend's typed events: the JSON keys each type maps (casing is the contract).
const MAPPING = {
  content: ['text'],
  thinking: ['text'],
  tool_call: ['id', 'name', 'arguments', 'hidden'],
  tool_result: ['id', 'name', 'content', 'isError', 'collapsed', 'hidden'],
  approval_request: ['id', 'name', 'arguments'],
  question: ['toolCallId', 'data'],
  todo: ['data'],
  plan: ['toolCallId', 'data'],
  usage: ['promptTokens', 'completionTokens', 'cachedTokens', 'totalTokens', 'latencyMs'],
  file_change: ['path', 'action'],
  checkpoint: ['id', 'label', 'fileCount'],
  subagent: ['id', 'description', 'stage', 'tool', 'steps', 'message'],
  search_results: ['results'],
  knowledge_results: ['results'],
  memory_results: ['results'],
  notice: ['kind', 'text'],
  steering: ['text'],
  debug: ['text'],
  done: [],
};
const ERROR_PREFIX = '[ERROR]';

// One frame's data -> the typed event the dispatcher receives.
function toEvent(raw) {
  if (raw.startsWith(ERROR_PREFIX)) {
    const rest = raw.slice(ERROR_PREFIX.length);
    return { kind: 'error', text: rest.startsWith(' ') ? rest.slice(1) : rest, raw };
  }
  let obj;
  try {
    obj = JSON.parse(raw);
  } catch {
    obj = undefined;
  }
  if (obj === null || typeof obj !== 'object' || Array.isArray(obj) || typeof obj.type !== 'string') {
    return { kind: 'plain_text', text: raw, raw };
  }
  const keys = MAPPING[obj.type];
  if (!keys) return { kind: 'unknown', type: obj.type, fields: obj, raw };
  const fields = { type: obj.type };
  for (const k of keys) if (k in obj) fields[k] = obj[k];
  if (obj.type === 'usage') for (const k of keys) if (typeof fields[k] !== 'number') fields[k] = 0;
  return { kind: 'structured', type: obj.type, fields, raw };
}

function newTranscript() {
  return {
    message: { role: 'assistant', body: '', reasoning: '', plainText: '', error: null },
    toolCalls: [], approvals: [], questions: [], plan: null, todos: null, usage: null,
    files: [], checkpoints: [], subagents: new Map(), hits: { search: [], knowledge: [], memory: [] },
    notices: [], steers: [], debug: [], unknown: [], done: false,
  };
}

// The reducer: what the timeline renders.
function reduce(t, ev) {
  if (ev.kind === 'error') { t.message.error = ev.text; return; }
  if (ev.kind === 'plain_text') { t.message.plainText += ev.text; return; }
  if (ev.kind === 'unknown') { t.unknown.push({ type: ev.type, raw: ev.raw }); return; }
  const f = ev.fields;
  switch (ev.type) {
    case 'content': t.message.body += f.text; break;
    case 'thinking': t.message.reasoning += f.text; break;
    case 'tool_call': {
      let args = f.arguments;
      if (typeof args === 'string') {
        try { args = JSON.parse(args); } catch { /* shown as text */ }
      }
      t.toolCalls.push({ id: f.id, name: f.name, args, hidden: f.hidden === true, result: null });
      break;
    }
    case 'tool_result': {
      const result = { content: f.content, isError: f.isError === true, collapsed: f.collapsed === true };
      const call = t.toolCalls.find((c) => c.id === f.id);
      if (call) call.result = result;
      else t.toolCalls.push({ id: f.id, name: f.name, args: null, hidden: f.hidden === true, result });
      break;
    }
    case 'approval_request': t.approvals.push({ id: f.id, name: f.name, args: f.arguments }); break;
    case 'question': t.questions.push({ toolCallId: f.toolCallId, data: f.data }); break;
    case 'todo': t.todos = f.data; break;
    case 'plan': t.plan = { toolCallId: f.toolCallId, data: f.data }; break;
    case 'usage': t.usage = { ...f }; break;
    case 'file_change': t.files.push(`${f.action} ${f.path}`); break;
    case 'checkpoint': t.checkpoints.push({ id: f.id, label: f.label, fileCount: f.fileCount }); break;
    case 'subagent': t.subagents.set(f.id, { ...t.subagents.get(f.id), ...f }); break;
    case 'search_results': t.hits.search.push(...f.results); break;
    case 'knowledge_results': t.hits.knowledge.push(...f.results); break;
    case 'memory_results': t.hits.memory.push(...f.results); break;
    case 'notice': t.notices.push({ kind: f.kind, text: f.text }); break;
    case 'steering': t.steers.push(f.text); break;
    case 'debug': t.debug.push(f.text); break;
    case 'done': t.done = true; break;
    default: break;
  }
}

serve({
  name: 'chat transcript builder',
  version: '1.0.0',
  layers: ['chat'],
  async parse(chunks) {
    const { createParser } = await import('eventsource-parser');
    const transcript = newTranscript();
    const events = [];
    const parser = createParser({
      onEvent: (e) => {
        const ev = toEvent(e.data);
        reduce(transcript, ev);
        events.push(ev);
      },
    });
    const decoder = new TextDecoder();
    for (const chunk of chunks) parser.feed(decoder.decode(chunk, { stream: true }));
    parser.feed(decoder.decode());
    return { events };
  },
});
