// SPDX-License-Identifier: MIT
// The parse operation for a client with the WHATWG EventSource interface fed
// one synthetic stream: every MessageEvent it dispatches, whatever its type,
// is recorded (its dispatchEvent is observed, so no type needs a listener of
// its own), and the stream's end (an `error` event that is no MessageEvent; a
// stream's own `event: error` is one, with data) closes it before it
// reconnects. EventSource exposes no reconnection time: `retry` is null.
'use strict';

// Resolves { events, retry: null } at the stream's end; rejects after 5 s without one.
function recordUntilEnd(source) {
  return new Promise((resolve, reject) => {
    const events = [];
    const dispatch = source.dispatchEvent.bind(source);
    source.dispatchEvent = (event) => {
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
}

module.exports = { recordUntilEnd };
