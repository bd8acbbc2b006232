#!/usr/bin/env node
// SPDX-License-Identifier: MIT
// Adapter for fetch-event-stream (npm, pinned): events(Response) as an
// application iterates it.
'use strict';
const { serve } = require('./lib/adapter.js');
const { events: sseEvents } = require('fetch-event-stream');
// Its package.json is not exported, so read it from disk.
const { version } = JSON.parse(require('node:fs').readFileSync(require('node:path').join(__dirname, 'node_modules/fetch-event-stream/package.json'), 'utf8'));

function responseOf(chunks) {
  let next = 0;
  return new Response(new ReadableStream({
    // One chunk per pull, as a network stream delivers them. (Enqueueing
    // them all at once makes Node's stream queue cost quadratic time in
    // the number of chunks: the glue, not the library, would time out.)
    pull(controller) {
      if (next < chunks.length) controller.enqueue(chunks[next++]);
      else controller.close();
    },
  }, { highWaterMark: 0 }));
}

serve({
  name: 'fetch-event-stream',
  version,
  layers: ['wire'],
  async parse(chunks) {
    const events = [];
    let retry = null;
    let lastEventId = '';
    for await (const e of sseEvents(responseOf(chunks))) {
      // The library turns numeric ids into numbers; the id's text is String(id).
      if (e.id !== undefined) lastEventId = String(e.id);
      if (e.retry !== undefined) retry = e.retry;
      events.push({ type: e.event ?? 'message', data: e.data ?? '', lastEventId });
    }
    return { events, retry };
  },
});
