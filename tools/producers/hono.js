// hono: `streamSSE` (hono/streaming), served by @hono/node-server.
//
// API used: `streamSSE(c, async (stream) => ...)` and, per event,
// `stream.writeSSE({ event, id, data, retry })`: all four fields are exposed. writeSSE splits
// `data` on CRLF, CR and LF into `data: ` lines, and throws when `event`, `id` or `retry`
// holds CR or LF (node_modules/hono/dist/helper/streaming/sse.js, writeSSE). A value it throws on
// is reported (`refused ...`) and the stream goes on with the next event. Not exposed:
// comments (only as raw `stream.write`).
//
// Usage: node hono.js PORT   (0 = any; prints `listening http://127.0.0.1:PORT`)
// Routes: /stream (events.js STREAM, dialect wire), /agent (events.js AGENT_RUN, dialect agent).

import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import { AGENT_RUN, STREAM, expectedAgent, expectedStream } from './events.js';
import { announce, isMain, portArgument, refused } from './lib.js';

export const meta = {
  framework: 'hono',
  packages: ['hono', '@hono/node-server'],
  exposes: 'event, id, data, retry (writeSSE)',
  routes: { '/stream': 'wire', '/agent': 'agent' },
};

export function expected(route) {
  return route === '/agent' ? expectedAgent() : expectedStream();
}

function app() {
  const hono = new Hono();
  hono.get('/stream', (c) =>
    streamSSE(c, async (stream) => {
      for (const entry of STREAM) {
        const message = { event: entry.event, id: entry.id, data: entry.data };
        if (entry.retry !== undefined) message.retry = entry.retry;
        try {
          await stream.writeSSE(message);
        } catch (error) {
          refused('/stream', entry.key, error);
        }
      }
    }),
  );
  hono.get('/agent', (c) =>
    streamSSE(c, async (stream) => {
      for (const { object } of AGENT_RUN) await stream.writeSSE({ data: JSON.stringify(object) });
    }),
  );
  return hono;
}

if (isMain(import.meta)) {
  const port = portArgument();
  serve({ fetch: app().fetch, port, hostname: '127.0.0.1' }, (info) => announce(info.port));
}
