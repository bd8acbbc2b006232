#!/usr/bin/env node
// SPDX-License-Identifier: MIT
// A strict schema-validating SDK for agent-service.txt: every event is
// validated against the AgentSseEvent interface and the event catalog as the
// document gives them (type one of the catalog's, each envelope key of its
// declared JSON type when present); an event that does not validate fails
// the stream, and so does a stream that ends without its terminal `done`
// ("The terminal frame is always {"type":"done", ...}"). Valid events are
// yielded as they are.
'use strict';

const TYPES = new Set(['run_started', 'agent_plan', 'plan_update', 'skill_loaded', 'subagent_started',
  'subagent_completed', 'step_started', 'step_completed', 'llm_started', 'llm_usage', 'tool_started', 'tool_result',
  'tool_completed', 'message_chunk', 'resume_patch', 'resume_update', 'resume_analysis', 'translation_result',
  'interview_question', 'critique', 'suggestion', 'run_completed', 'run_failed', 'done', 'error']);
const SCHEMA = { runId: 'string', stepId: 'string', sequence: 'number', content: 'string', payload: 'object', error: 'string' };

function validate(ev) {
  if (ev === null || typeof ev !== 'object' || Array.isArray(ev)) throw new TypeError('event is not an object');
  if (!TYPES.has(ev.type)) throw new TypeError(`invalid discriminator value: type ${JSON.stringify(ev.type)}`);
  for (const [key, type] of Object.entries(SCHEMA)) {
    if (ev[key] === undefined) continue;
    const actual = ev[key] === null ? 'null' : Array.isArray(ev[key]) ? 'array' : typeof ev[key];
    if (actual !== type) throw new TypeError(`${ev.type}.${key}: expected ${type}, received ${actual}`);
  }
  return ev;
}

function consume(text) {
  const events = [];
  const frames = text.split('\n\n');
  frames.pop();
  for (const frame of frames) {
    const line = frame.split('\n').find((l) => l.startsWith('data: '));
    if (!line) continue;
    const raw = line.slice(6);
    const ev = validate(JSON.parse(raw));
    events.push({ kind: 'structured', type: ev.type, fields: ev, raw });
    if (ev.type === 'done') return events;
  }
  throw new Error('stream ended before the terminal done frame');
}

module.exports = { name: 'ground truth: agent sdk', dialect: 'agent', consume };
if (require.main === module) require('./adapter-main.js').run(module.exports);
