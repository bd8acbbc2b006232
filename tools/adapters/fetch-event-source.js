#!/usr/bin/env node
// SPDX-License-Identifier: MIT
// Adapter for @microsoft/fetch-event-source (npm, pinned): the same pipeline
// fetchEventSource() builds, getBytes -> getLines -> getMessages, with its
// onId / onRetry / onmessage callbacks.
'use strict';
const { serve } = require('./lib/adapter.js');
const { getBytes, getLines, getMessages } = require('@microsoft/fetch-event-source/lib/cjs/parse.js');
const { version } = require('@microsoft/fetch-event-source/package.json');

function streamOf(chunks) {
  let next = 0;
  return new ReadableStream({
    // One chunk per pull, as a network stream delivers them. (Enqueueing
    // them all at once makes Node's stream queue cost quadratic time in
    // the number of chunks: the glue, not the library, would time out.)
    pull(controller) {
      if (next < chunks.length) controller.enqueue(chunks[next++]);
      else controller.close();
    },
  }, { highWaterMark: 0 });
}

serve({
  name: '@microsoft/fetch-event-source',
  version,
  layers: ['wire'],
  async parse(chunks) {
    const events = [];
    let retry = null;
    let lastEventId = '';
    await getBytes(
      streamOf(chunks),
      getLines(
        getMessages(
          (id) => { lastEventId = id; },
          (ms) => { retry = ms; },
          // fetchEventSource hands every message to onmessage; an application
          // reads an empty `event` as the default type.
          (msg) => events.push({ type: msg.event || 'message', data: msg.data, lastEventId }),
        ),
      ),
    );
    return { events, retry };
  },
});
