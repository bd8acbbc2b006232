// better-sse: `createSession` on Node's http server, its options left at their defaults.
//
// API used: `createSession(req, res)`, then per event `session.push(data, eventName, eventId)`,
// and for the entry with a retry `session.batch((buffer) => buffer.retry(ms).push(data,
// eventName, eventId))`: event name, id, data and retry are all exposed. `push` always writes
// `event:` and `id:` (a random UUID when no id is given); the session writes `retry:2000` first
// (option `retry`) and a comment every 10 s (option `keepAlive`). Data goes through the
// `serializer` option (default `JSON.stringify`), so a client reads it back with JSON.parse;
// every field value then goes through the `sanitizer` option (default: CR, LF and CRLF become
// LF, trailing LFs are removed) and is written as `name:value` with no space
// (node_modules/better-sse/build/index.mjs, `sanitize` and `EventBuffer.writeField`).
// better-sse throws on none of the values. Not exposed: nothing; a field without a value is
// written as `name:`.
//
// Usage: node better-sse.js PORT   (0 = any; prints `listening http://127.0.0.1:PORT`)
// Routes: /stream (events.js STREAM, dialect wire), /agent (events.js AGENT_RUN pushed as
// objects, dialect agent). better-sse-text.js is the same app with a plain-text serializer.

import { createServer } from 'node:http';
import { createSession } from 'better-sse';
import { AGENT_RUN, STREAM, expectedAgent, expectedStream } from './events.js';
import { announce, isMain, portArgument, refused } from './lib.js';

export const meta = {
  framework: 'better-sse',
  packages: ['better-sse'],
  exposes: 'event, id, data (serialized, JSON by default), retry (push, batch, EventBuffer.retry)',
  routes: { '/stream': 'wire', '/agent': 'agent' },
};

export function expected(route) {
  return route === '/agent' ? expectedAgent() : expectedStream(JSON.stringify);
}

// The app, with `options` for createSession (better-sse-text.js passes a serializer).
export function start(port, options = {}) {
  const server = createServer(async (req, res) => {
    const path = new URL(req.url, 'http://localhost').pathname;
    if (path !== '/stream' && path !== '/agent') {
      res.writeHead(404).end();
      return;
    }
    const session = await createSession(req, res, options);
    if (path === '/stream') {
      for (const entry of STREAM) {
        try {
          if (entry.retry === undefined) session.push(entry.data, entry.event, entry.id);
          else await session.batch((buffer) => buffer.retry(entry.retry).push(entry.data, entry.event, entry.id));
        } catch (error) {
          refused('/stream', entry.key, error);
        }
      }
    } else {
      for (const { object } of AGENT_RUN) session.push(object);
    }
    res.end();
  });
  server.listen(port, '127.0.0.1', () => announce(server.address().port));
  return server;
}

if (isMain(import.meta)) start(portArgument());
