// SPDX-License-Identifier: MIT
// The connect operation (tools/docs/adapter-protocol.md, "connect (client
// cases)") for a client with the WHATWG EventSource interface: what an
// application writes, and nothing more. It listens for `message` events (the
// client cases use the default type) and `error` events through
// addEventListener, calls close() once `closeAfterEvents` events arrived
// ("closed") or `limitMs` passed ("limit"), and answers "failed" as soon as an
// `error` event finds readyState CLOSED: the client failed the connection and
// will not reconnect.
'use strict';

const CLOSED = 2; // EventSource.CLOSED

// create(url) returns the EventSource; resolves { events, ended }.
function runEventSource(create, { url, closeAfterEvents, limitMs }) {
  return new Promise((resolve, reject) => {
    const events = [];
    let source = null;
    let done = false;
    const finish = (ended) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      if (source) source.close();
      resolve({ events, ended });
    };
    const timer = setTimeout(() => finish('limit'), limitMs);
    try {
      source = create(url);
    } catch (err) {
      done = true;
      clearTimeout(timer);
      reject(err);
      return;
    }
    source.addEventListener('message', (event) => {
      if (done) return;
      events.push({ type: event.type, data: event.data, lastEventId: event.lastEventId });
      if (closeAfterEvents > 0 && events.length >= closeAfterEvents) finish('closed');
    });
    source.addEventListener('error', () => {
      if (source.readyState === CLOSED) finish('failed');
    });
  });
}

module.exports = { runEventSource };
