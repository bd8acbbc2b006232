#!/usr/bin/env node
// SPDX-License-Identifier: MIT
// Adapter for fetch-event-stream (npm, pinned): events(Response) as an
// application iterates it.
'use strict';
const { serve } = require('./lib/adapter.js');
const { events: sseEvents } = require('fetch-event-stream');
const { responseOf, packageVersion } = require('./lib/response.js');
// Its package.json is not exported: packageVersion reads it from disk.
const version = packageVersion('fetch-event-stream');

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
