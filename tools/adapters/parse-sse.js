#!/usr/bin/env node
// SPDX-License-Identifier: MIT
// Adapter for parse-sse (npm, pinned; an ES module): parseServerSentEvents(Response)
// read to its end, from a synthetic Response. Its events carry type, data,
// lastEventId and the block's retry (if any): the stream's reconnection time
// is the last one an event carried.
'use strict';
const { serve } = require('./lib/adapter.js');
const { responseOf, packageVersion } = require('./lib/response.js');

const loaded = import('parse-sse');

serve({
  name: 'parse-sse',
  version: packageVersion('parse-sse'),
  layers: ['wire'],
  async parse(chunks) {
    const { parseServerSentEvents } = await loaded;
    const events = [];
    let retry = null;
    for await (const e of parseServerSentEvents(responseOf(chunks))) {
      if (e.retry !== undefined) retry = e.retry;
      events.push({ type: e.type, data: e.data, lastEventId: e.lastEventId });
    }
    return { events, retry };
  },
});
