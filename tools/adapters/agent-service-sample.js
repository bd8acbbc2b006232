#!/usr/bin/env node
// SPDX-License-Identifier: MIT
// The "Robust parser" printed in the agent-service document
// (agent-service.txt, the agent-service protocol document, lines 60-75), transcribed faithfully
// (TypeScript annotations removed, nothing else changed), as the example of
// what goes wrong: it splits on "\n\n" only (no CRLF, no lone CR), takes only
// the first `data: ` line of a frame, and needs the space after the colon.
'use strict';
const { serve } = require('./lib/adapter.js');

// ---- transcribed from agent-service.txt:60-75 ----
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
      if (line) yield JSON.parse(line.slice(6))
    }
  }
}
// ---- end of transcription ----

const { responseOf } = require('./lib/response.js');

serve({
  name: 'agent-service sample parser',
  version: 'agent-service.txt',
  layers: ['wire'],
  // It yields parsed JSON objects only: no event type, no id, no retry. The
  // TextDecoder strips a BOM and repairs UTF-8; a lone CR is never a line end.
  capabilities: ['bom', 'utf8-repair', 'nul'],
  async parse(chunks) {
    const events = [];
    // The parser yields JSON values; the wire `data` they came from is their
    // JSON text (exact for the compact JSON of the cases that use it). A
    // frame whose data is not JSON throws: the stream is rejected, as it
    // would be for the document's reader.
    for await (const value of sse(responseOf(chunks))) {
      events.push({ type: 'message', data: JSON.stringify(value), lastEventId: '' });
    }
    return { events, retry: null };
  },
});
