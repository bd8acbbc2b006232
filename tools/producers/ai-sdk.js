// The Vercel AI SDK (`ai`): a UI message stream, on Node's http server.
//
// API used: `createUIMessageStream({ execute: ({ writer }) => writer.write(chunk) })`, then
// `pipeUIMessageStreamToResponse({ response, stream })` at /stream and
// `createUIMessageStreamResponse({ stream })` at /response (its body piped to Node's response).
// The chunks are what a chat route streams: `start`, `text-start`, one `text-delta` per entry of
// events.js STREAM with the entry's data as `delta`, `text-end`, `finish`. Every chunk becomes
// one frame `data: ${JSON.stringify(chunk)}\n\n`, and the stream ends with `data: [DONE]\n\n`
// (node_modules/ai/dist/index.mjs, `JsonToSseTransformStream`); `start` carries a messageId, or
// the SDK adds a generated one (`handleUIMessageStreamFinish`). Not exposed: the event name, the
// id and retry (no frame carries an `event:`, `id:` or `retry:` line), so the entries' event
// names and ids are not sent; comments only as the optional keep-alive (`keepAliveMs`).
//
// Usage: node ai-sdk.js PORT   (0 = any; prints `listening http://127.0.0.1:PORT`)
// Routes: /stream and /response (dialect wire); the UI message stream is not the agent protocol.

import { createServer } from 'node:http';
import { Readable } from 'node:stream';
import { createUIMessageStream, createUIMessageStreamResponse, pipeUIMessageStreamToResponse } from 'ai';
import { STREAM } from './events.js';
import { announce, isMain, portArgument } from './lib.js';

export const meta = {
  framework: 'ai (UI message stream)',
  packages: ['ai'],
  exposes: 'data only: each chunk as JSON; no event name, id or retry',
  routes: { '/stream': 'wire', '/response': 'wire' },
};

const TEXT = 'text-1';

// The chunks the app writes, each with the key compare.js reports it under.
function chunks() {
  return [
    ['start', { type: 'start', messageId: 'message-1' }],
    ['text-start', { type: 'text-start', id: TEXT }],
    ...STREAM.map((entry) => [entry.key, { type: 'text-delta', id: TEXT, delta: entry.data }]),
    ['text-end', { type: 'text-end', id: TEXT }],
    ['finish', { type: 'finish' }],
  ];
}

export function expected() {
  const events = chunks().map(([key, chunk]) => ({ key, type: 'message', data: JSON.stringify(chunk), lastEventId: '' }));
  events.push({ key: 'done', type: 'message', data: '[DONE]', lastEventId: '' });
  return { events, retry: undefined };
}

function uiStream() {
  return createUIMessageStream({
    execute: ({ writer }) => {
      for (const [, chunk] of chunks()) writer.write(chunk);
    },
  });
}

function handle(req, res) {
  const path = new URL(req.url, 'http://localhost').pathname;
  if (path === '/stream') {
    pipeUIMessageStreamToResponse({ response: res, stream: uiStream() });
  } else if (path === '/response') {
    const response = createUIMessageStreamResponse({ stream: uiStream() });
    res.writeHead(response.status, Object.fromEntries(response.headers));
    Readable.fromWeb(response.body).pipe(res);
  } else {
    res.writeHead(404).end();
  }
}

if (isMain(import.meta)) {
  const server = createServer(handle);
  server.listen(portArgument(), '127.0.0.1', () => announce(server.address().port));
}
