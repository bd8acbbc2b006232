#!/usr/bin/env node
// SPDX-License-Identifier: MIT
// Adapter for the `eventsource` polyfill (npm, pinned; an ES module): an
// EventSource whose `fetch` option answers with a synthetic Response of the
// request's chunks (no network). Every MessageEvent it dispatches, whatever
// its type, is recorded (its dispatchEvent is observed, so no type needs a
// listener of its own); the stream's end (an `error` event, as the
// connection closes) ends the parse and the EventSource is closed before it
// reconnects. EventSource exposes no reconnection time: no `retry`.
//
// connect (the client cases): `new EventSource(url)` with no options, so the
// package's own default `fetch` (the global one, Node's) makes every request,
// with its own headers, reconnection and failure handling; the application's
// side is `message` and `error` listeners, `readyState` and close()
// (lib/connect.js).
'use strict';
const { serve } = require('./lib/adapter.js');
const { runEventSource } = require('./lib/connect.js');
const { responseOf, packageVersion } = require('./lib/response.js');

const loaded = import('eventsource');

serve({
  name: 'eventsource',
  version: packageVersion('eventsource'),
  layers: ['wire'],
  capabilities: ['bom', 'cr', 'utf8-repair', 'nul', 'last-event-id'],
  async parse(chunks) {
    const { EventSource } = await loaded;
    const events = [];
    return new Promise((resolve, reject) => {
      let served = false;
      const source = new EventSource('http://sse-conform.invalid/', {
        fetch: async () => {
          if (served) throw new Error('no reconnection');
          served = true;
          return responseOf(chunks);
        },
      });
      const dispatch = source.dispatchEvent.bind(source);
      source.dispatchEvent = (event) => {
        // The connection's end is an `error` event that is no MessageEvent (a
        // stream's own `event: error` is one, with data).
        if (event.type === 'error' && typeof event.data !== 'string') {
          source.close();
          resolve({ events, retry: null });
        } else if (typeof event.data === 'string') {
          events.push({ type: event.type, data: event.data, lastEventId: event.lastEventId });
        }
        return dispatch(event);
      };
      setTimeout(() => {
        source.close();
        reject(new Error('the stream did not end'));
      }, 5000).unref();
    });
  },
  async connect(request) {
    const { EventSource } = await loaded;
    return runEventSource((url) => new EventSource(url), request);
  },
});
