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
  return new ReadableStream({
    start(controller) {
      for (const c of chunks) controller.enqueue(c);
      controller.close();
    },
  });
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
