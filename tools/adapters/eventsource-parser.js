#!/usr/bin/env node
// SPDX-License-Identifier: MIT
// Adapter for eventsource-parser (npm, pinned in package.json): the glue an
// application writes, an EventSource-like consumer of createParser().
'use strict';
const { serve } = require('./lib/adapter.js');
const { version } = require('eventsource-parser/package.json');

serve({
  name: 'eventsource-parser',
  version,
  layers: ['wire'],
  // Omitted capabilities mean all: the parser's API reports everything the protocol asks.
  async parse(chunks) {
    const { createParser } = await import('eventsource-parser');
    const events = [];
    let retry = null;
    let lastEventId = '';
    const parser = createParser({
      onId: (id) => { lastEventId = id; },
      onRetry: (ms) => { retry = ms; },
      onEvent: (e) => events.push({ type: e.event || 'message', data: e.data, lastEventId }),
    });
    // The WHATWG decoder: UTF-8, BOM stripped once, invalid bytes replaced.
    const decoder = new TextDecoder();
    for (const chunk of chunks) parser.feed(decoder.decode(chunk, { stream: true }));
    parser.feed(decoder.decode());
    // End of stream: an undispatched event is dropped, so no reset({consume: true}).
    return { events, retry };
  },
});
