#!/usr/bin/env node
// SPDX-License-Identifier: MIT
// Adapter for undici's `EventSource` (npm `undici`, pinned): the EventSource
// Node.js builds on, its message events as an application receives them.
// No socket is opened: the EventSource is given a `dispatcher` of its own
// (undici's documented Dispatcher interface) that answers its request with
// status 200, `text/event-stream`, and the request's chunks as the response
// body, one per macrotask, so that its fetch hands them on as they were split.
// The events are recorded until the stream ends (lib/record.js).
// EventSource exposes no reconnection time: no `retry`.
//
// connect (the client cases): `new EventSource(url)` with no options, so
// undici's own fetch and its global dispatcher make every request over a
// socket, with undici's headers, reconnection and failure handling; the
// application's side is `message` and `error` listeners, `readyState` and
// close() (lib/connect.js).
'use strict';
const { serve } = require('./lib/adapter.js');
const { runEventSource } = require('./lib/connect.js');
const { recordUntilEnd } = require('./lib/record.js');
const { packageVersion } = require('./lib/response.js');
const { EventSource, Dispatcher } = require('undici');

// Answers every request with the chunks of one stream, then ends it.
class ChunkDispatcher extends Dispatcher {
  constructor(chunks) {
    super();
    this.chunks = chunks;
    this.served = false;
  }

  // undici 7's fetch hands a handler of the callbacks onConnect, onHeaders,
  // onData, onComplete and onError (Dispatcher, "dispatch"); a chunk waits
  // while onData has asked for a pause, until the resume given to onHeaders.
  dispatch(options, handler) {
    if (this.served) {
      handler.onError(new Error('no reconnection'));
      return true;
    }
    this.served = true;
    const chunks = this.chunks;
    let next = 0;
    let paused = false;
    let aborted = false;
    const resume = () => {
      if (!paused) return;
      paused = false;
      setImmediate(send);
    };
    const send = () => {
      if (aborted || paused) return;
      if (next < chunks.length) {
        if (handler.onData(Buffer.from(chunks[next++])) === false) paused = true;
        setImmediate(send);
      } else {
        handler.onComplete([]);
      }
    };
    setImmediate(() => {
      handler.onConnect(() => { aborted = true; });
      if (aborted) return;
      handler.onHeaders(200, [Buffer.from('content-type'), Buffer.from('text/event-stream')], resume, 'OK');
      setImmediate(send);
    });
    return true;
  }

  close() { return Promise.resolve(); }

  destroy() { return Promise.resolve(); }
}

serve({
  name: 'undici',
  version: packageVersion('undici'),
  layers: ['wire'],
  capabilities: ['bom', 'cr', 'utf8-repair', 'nul', 'last-event-id'],
  async parse(chunks) {
    return recordUntilEnd(new EventSource('http://sse-conform.invalid/', { dispatcher: new ChunkDispatcher(chunks) }));
  },
  connect(request) {
    return runEventSource((url) => new EventSource(url), request);
  },
});
