#!/usr/bin/env node
// SPDX-License-Identifier: MIT
// Adapter for the `eventsource` polyfill (npm, pinned; an ES module): an
// EventSource whose `fetch` option answers with a synthetic Response of the
// request's chunks (no network), recorded until the stream ends
// (lib/record.js). EventSource exposes no reconnection time: no `retry`.
//
// connect (the client cases): `new EventSource(url)` with no options, so the
// package's own default `fetch` (the global one, Node's) makes every request,
// with its own headers, reconnection and failure handling; the application's
// side is `message` and `error` listeners, `readyState` and close()
// (lib/connect.js).
'use strict';
const { serve } = require('./lib/adapter.js');
const { runEventSource } = require('./lib/connect.js');
const { recordUntilEnd } = require('./lib/record.js');
const { responseOf, packageVersion } = require('./lib/response.js');

const loaded = import('eventsource');

serve({
  name: 'eventsource',
  version: packageVersion('eventsource'),
  layers: ['wire'],
  capabilities: ['bom', 'cr', 'utf8-repair', 'nul', 'last-event-id'],
  async parse(chunks) {
    const { EventSource } = await loaded;
    let served = false;
    const source = new EventSource('http://sse-conform.invalid/', {
      fetch: async () => {
        if (served) throw new Error('no reconnection');
        served = true;
        return responseOf(chunks);
      },
    });
    return recordUntilEnd(source);
  },
  async connect(request) {
    const { EventSource } = await loaded;
    return runEventSource((url) => new EventSource(url), request);
  },
});
