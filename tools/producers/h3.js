// h3: `createEventStream` (an alias of `new EventStream(event)` in h3 2, marked deprecated),
// the app served on Node's http server through `toNodeHandler`.
//
// API used: `createEventStream(event)`, returned from the handler, then per event
// `stream.push({ id, event, data, retry })` and `stream.close()`: all four fields are exposed.
// `push` splits `data` on CRLF, CR and LF into `data: ` lines, removes every CR and LF from
// `id` and `event`, writes `id` only when it is a string and `retry` only when it is an
// integer (node_modules/h3/dist/h3.mjs, `formatEventStreamMessage`, `_sanitizeSingleLine`).
// It throws on none of the values. Comments: `stream.pushComment`.
//
// Usage: node h3.js PORT   (0 = any; prints `listening http://127.0.0.1:PORT`)
// Routes: /stream (events.js STREAM, dialect wire), /agent (events.js AGENT_RUN, dialect agent).

import { createServer } from 'node:http';
import { H3, createEventStream, toNodeHandler } from 'h3';
import { AGENT_RUN, STREAM, expectedAgent, expectedStream } from './events.js';
import { announce, isMain, portArgument, refused } from './lib.js';

export const meta = {
  framework: 'h3',
  packages: ['h3'],
  exposes: 'event, id, data, retry (EventStream.push)',
  routes: { '/stream': 'wire', '/agent': 'agent' },
};

export function expected(route) {
  return route === '/agent' ? expectedAgent() : expectedStream();
}

function app() {
  const h3 = new H3();
  h3.get('/stream', (event) => {
    const stream = createEventStream(event);
    (async () => {
      for (const entry of STREAM) {
        const message = { event: entry.event, id: entry.id, data: entry.data };
        if (entry.retry !== undefined) message.retry = entry.retry;
        try {
          await stream.push(message);
        } catch (error) {
          refused('/stream', entry.key, error);
        }
      }
      await stream.close();
    })();
    return stream;
  });
  h3.get('/agent', (event) => {
    const stream = createEventStream(event);
    (async () => {
      for (const { object } of AGENT_RUN) await stream.push({ data: JSON.stringify(object) });
      await stream.close();
    })();
    return stream;
  });
  return h3;
}

if (isMain(import.meta)) {
  const server = createServer(toNodeHandler(app()));
  server.listen(portArgument(), '127.0.0.1', () => announce(server.address().port));
}
