#!/usr/bin/env node
// SPDX-License-Identifier: MIT
// A consumer at the `agent` layer: the agent-service document's own consumer
// loop ("usage", agent-service.txt), as the document gives it: its "Robust
// parser", then a switch on type that appends `message_chunk`, saves
// `resume_update`, throws on `error` and stops on `done`; every other type is
// ignored ("Switch on type and ignore the ones you don't handle").
//
// Its `parse` answer (adapter protocol 1, tools/docs/adapter-protocol.md) is
// the events the loop handled, in the dialect-event JSON form of
// spec/FORMAT.md section 2: `fields` is the object the loop held (what
// JSON.parse gave), `raw` the frame's data. Types it ignores are not in the
// answer, as they never reach the application. The `error` throw and any
// throw of the parser (JSON.parse on a frame that is not JSON) become an
// `error` answer: the run is aborted, as it is for the document's reader.
// Profile: agent-service-consumer.profile.yaml.
'use strict';
const { serve } = require('./lib/adapter.js');

// The frame data each parsed object came from (the document's parser keeps
// no such thing; it is recorded beside it, without changing what it yields).
const rawOf = new WeakMap();

// ---- transcribed from agent-service.txt ("Robust parser") ----
async function* sse(res) {
  const reader = res.body.getReader()
  const decoder = new TextDecoder()
  let buffer = ''
  for (;;) {
    const { value, done } = await reader.read()
    if (done) break
    buffer += decoder.decode(value, { stream: true })
    const frames = buffer.split('\n\n')
    buffer = frames.pop() ?? '' // keep partial frame for next read
    for (const frame of frames) {
      const line = frame.split('\n').find((l) => l.startsWith('data: '))
      if (line) {
        const ev = JSON.parse(line.slice(6))
        if (ev !== null && typeof ev === 'object') rawOf.set(ev, line.slice(6)) // recorded for the answer
        yield ev
      }
    }
  }
}
// ---- end of transcription ----

const { responseOf } = require('./lib/response.js');

function handled(ev) {
  return { kind: 'structured', type: ev.type, fields: ev, raw: rawOf.get(ev) ?? JSON.stringify(ev) };
}

serve({
  name: 'agent-service document consumer loop',
  version: 'agent-service.txt',
  layers: ['agent'],
  async parse(chunks) {
    const events = [];
    // The application's state: the text so far and the saved resume.
    let text = '';
    let resume = null;
    const append = (content) => { text += content; };
    const save = (data) => { resume = data; };
    // ---- transcribed from agent-service.txt ("usage"); each handled event is also recorded ----
    for await (const ev of sse(responseOf(chunks))) {
      if (ev.type === 'message_chunk') { append(ev.content); events.push(handled(ev)); }
      if (ev.type === 'resume_update') { save(ev.data); events.push(handled(ev)); }
      if (ev.type === 'error') throw new Error(ev.error)
      if (ev.type === 'done') { events.push(handled(ev)); break }
    }
    // ---- end of transcription ----
    void text;
    void resume;
    return { events };
  },
});
