// Node's http module and `res.write`, the data encoded as JSON (the other pattern tutorials
// show: `data: ${JSON.stringify(value)}`).
//
// API used: `http.createServer`, `res.writeHead(200, { 'Content-Type': 'text/event-stream', ... })`,
// then per event one `res.write` of
//   `${retry ? `retry: ${retry}\n` : ''}event: ${event}\nid: ${id}\ndata: ${JSON.stringify(value)}\n\n`,
// and `res.end()`. Node adds nothing of SSE: the data cannot hold a line break once it is JSON,
// the event name and id go to the wire as they are. A client reads the data with JSON.parse.
//
// Usage: node node-http.js PORT   (0 = any; prints `listening http://127.0.0.1:PORT`)
// Routes: /stream (events.js STREAM, dialect wire), /agent (events.js AGENT_RUN written as
// `data: ${JSON.stringify(object)}\n\n`, dialect agent).

import { createServer } from 'node:http';
import { AGENT_RUN, STREAM, expectedAgent, expectedStream } from './events.js';
import { announce, isMain, portArgument } from './lib.js';

export const meta = {
  framework: 'node:http (by hand, JSON data)',
  packages: [],
  exposes: 'whatever the template writes: event, id, data (JSON), retry, unchecked',
  routes: { '/stream': 'wire', '/agent': 'agent' },
};

export function expected(route) {
  return route === '/agent' ? expectedAgent() : expectedStream(JSON.stringify);
}

function handle(req, res) {
  const path = new URL(req.url, 'http://localhost').pathname;
  if (path !== '/stream' && path !== '/agent') {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache', Connection: 'keep-alive' });
  if (path === '/stream') {
    for (const { event, id, data, retry } of STREAM) {
      res.write(`${retry ? `retry: ${retry}\n` : ''}event: ${event}\nid: ${id}\ndata: ${JSON.stringify(data)}\n\n`);
    }
  } else {
    for (const { object } of AGENT_RUN) res.write(`data: ${JSON.stringify(object)}\n\n`);
  }
  res.end();
}

if (isMain(import.meta)) {
  const server = createServer(handle);
  server.listen(portArgument(), '127.0.0.1', () => announce(server.address().port));
}
