#!/usr/bin/env node
// SPDX-License-Identifier: MIT
// Adapter for @microsoft/fetch-event-source (npm, pinned): the same pipeline
// fetchEventSource() builds, getBytes -> getLines -> getMessages, with its
// onId / onRetry / onmessage callbacks.
//
// connect (the client cases): `fetchEventSource(url, { onmessage, signal })`
// and nothing else, so its defaults decide: the default `onopen` (it accepts
// any status and checks only that Content-Type starts with
// text/event-stream), no `onclose` (the body's end settles the promise: no
// reconnection), no `onerror` (a thrown `onopen` or a network error is
// retried after the reconnection time, 1 s until a `retry` field, forever),
// `fetch` (the global one, Node's) with its own default request options. The
// application sees `msg.id`, the message's own `id` field, as its last event
// id: the library exposes no last event ID string. To behave as an
// EventSource it would have to write an `onopen` that throws a fatal error
// for a status other than 200 and for a Content-Type other than
// text/event-stream, an `onerror` that rethrows that error (stopping the
// retries), an `onclose` that throws to reconnect, and `cache: 'no-store'`
// among the fetch options. The library is written for a browser page: it
// reads `window.fetch`, `window.setTimeout` and `document`'s visibility, so
// the adapter gives it Node's globals as `window` and a `document` that stays
// visible (its default `openWhenHidden: false` then never closes the
// connection), as an application running it on Node must.
// "ended" is "failed" when the promise settles by itself: the client stops.
'use strict';
const { serve } = require('./lib/adapter.js');
const { getBytes, getLines, getMessages } = require('@microsoft/fetch-event-source/lib/cjs/parse.js');
const { fetchEventSource } = require('@microsoft/fetch-event-source');
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
  async connect({ url, closeAfterEvents, limitMs }) {
    // A browser page's globals, as the library reads them (see above).
    if (globalThis.window === undefined) globalThis.window = globalThis;
    if (globalThis.document === undefined) {
      globalThis.document = { hidden: false, addEventListener() {}, removeEventListener() {} };
    }
    const events = [];
    const controller = new AbortController();
    let ended = null;
    const stop = (how) => {
      if (ended) return;
      ended = how;
      controller.abort();
    };
    const timer = setTimeout(() => stop('limit'), limitMs);
    try {
      await fetchEventSource(url, {
        signal: controller.signal,
        onmessage(msg) {
          if (ended) return;
          // An application reads an empty `event` as the default type.
          events.push({ type: msg.event || 'message', data: msg.data, lastEventId: msg.id });
          if (closeAfterEvents > 0 && events.length >= closeAfterEvents) stop('closed');
        },
      });
    } catch {
      // Rejected (an `onerror` that throws; none here): it stopped as well.
    } finally {
      clearTimeout(timer);
    }
    // Settled without the adapter's abort: the client stopped by itself.
    if (!ended) stop('failed');
    return { events, ended };
  },
});
