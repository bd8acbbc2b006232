// Express, the event stream written by hand, the way tutorials show it.
//
// API used: none for SSE (Express has none): `res.set` for the headers, `res.flushHeaders()`,
// then per event one `res.write` of a template,
//   `${retry ? `retry: ${retry}\n` : ''}event: ${event}\nid: ${id}\ndata: ${value}\n\n`,
// and `res.end()`. Every field is "exposed" as far as the template goes; nothing is split,
// escaped or checked: a line break in any value goes to the wire as it is.
//
// Usage: node express.js PORT   (0 = any; prints `listening http://127.0.0.1:PORT`)
// Routes: /stream (events.js STREAM, dialect wire), /agent (events.js AGENT_RUN written as
// `data: ${JSON.stringify(object)}\n\n`, dialect agent).

import express from 'express';
import { AGENT_RUN, STREAM, expectedAgent, expectedStream } from './events.js';
import { announce, isMain, portArgument } from './lib.js';

export const meta = {
  framework: 'express (by hand)',
  packages: ['express'],
  exposes: 'whatever the template writes: event, id, data, retry, unchecked',
  routes: { '/stream': 'wire', '/agent': 'agent' },
};

export function expected(route) {
  return route === '/agent' ? expectedAgent() : expectedStream();
}

function open(res) {
  res.set({ 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache', Connection: 'keep-alive' });
  res.flushHeaders();
}

function app() {
  const server = express();
  server.get('/stream', (req, res) => {
    open(res);
    for (const { event, id, data, retry } of STREAM) {
      res.write(`${retry ? `retry: ${retry}\n` : ''}event: ${event}\nid: ${id}\ndata: ${data}\n\n`);
    }
    res.end();
  });
  server.get('/agent', (req, res) => {
    open(res);
    for (const { object } of AGENT_RUN) res.write(`data: ${JSON.stringify(object)}\n\n`);
    res.end();
  });
  return server;
}

if (isMain(import.meta)) {
  const server = app().listen(portArgument(), '127.0.0.1', () => announce(server.address().port));
}
