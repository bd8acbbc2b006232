#!/usr/bin/env node
// SPDX-License-Identifier: MIT
// Adapter for `eventsource-client` (npm, pinned): the client layer only, its
// `createEventSource` as the package's Node entry exports it.
//
// connect (the client cases): `createEventSource({ url, onMessage,
// onDisconnect })` and no other option, so the package's defaults decide:
// the global `fetch` (Node's) with the request options the package builds,
// its reconnection (2 s until a `retry` field) and its handling of a
// response. The application sees each message's `data` and `event` (an
// empty `event` is the default type) and the client's `lastEventId`, which
// it updates before calling onMessage; it calls close() once enough events
// arrived ("closed") or the limit passed ("limit"). The client closes itself
// only on a 204: `readyState` is then `closed` right after its
// onDisconnect, which answers "failed".
'use strict';
const { serve } = require('./lib/adapter.js');
const { packageVersion } = require('./lib/response.js');
const { createEventSource } = require('eventsource-client');

serve({
  name: 'eventsource-client',
  version: packageVersion('eventsource-client'),
  layers: [],
  connect({ url, closeAfterEvents, limitMs }) {
    return new Promise((resolve) => {
      const events = [];
      let client = null;
      let done = false;
      const finish = (ended) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        if (client) client.close();
        resolve({ events, ended });
      };
      const timer = setTimeout(() => finish('limit'), limitMs);
      client = createEventSource({
        url,
        onMessage(msg) {
          if (done) return;
          events.push({ type: msg.event || 'message', data: msg.data, lastEventId: client.lastEventId ?? '' });
          if (closeAfterEvents > 0 && events.length >= closeAfterEvents) finish('closed');
        },
        onDisconnect() {
          // A 204 closes the client right after this callback returns.
          queueMicrotask(() => {
            if (client.readyState === 'closed') finish('failed');
          });
        },
      });
    });
  },
});
