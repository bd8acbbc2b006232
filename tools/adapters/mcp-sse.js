#!/usr/bin/env node
// SPDX-License-Identifier: MIT
// Adapter for the SSE decoding of the MCP TypeScript SDK,
// `@modelcontextprotocol/sdk` (npm, pinned). Its current client transport,
// `StreamableHTTPClientTransport` (dist/cjs/client/streamableHttp.js,
// `_handleSseStream`), pipes a response body through a `TextDecoderStream`,
// then eventsource-parser's `EventSourceParserStream` with an `onRetry` that
// sets its reconnection delay; the transport then skips events with empty
// data or a type other than `message`, keeps the last non-empty id as its
// resumption token, and parses the rest as JSON-RPC messages. Only what
// survives that last step reaches the application, so the wire layer cannot
// be read there; this adapter grades the pipeline before it, from a synthetic
// Response, with the eventsource-parser the transport itself loads (resolved
// from the SDK's own folder). The deprecated `SSEClientTransport` uses the
// `eventsource` package instead. The reconnection time is what `onRetry`
// hands the transport; the events' ids are not the WHATWG last event ID (the
// transport keeps its own token), so the hello lists `retry` and not
// `last-event-id`.
'use strict';
const { createRequire } = require('node:module');
const { serve } = require('./lib/adapter.js');
const { responseOf, packageVersion } = require('./lib/response.js');

const transport = require.resolve('@modelcontextprotocol/sdk/client/streamableHttp.js');
const { EventSourceParserStream } = createRequire(transport)('eventsource-parser/stream');

serve({
  name: '@modelcontextprotocol/sdk',
  version: packageVersion('@modelcontextprotocol/sdk'),
  layers: ['wire'],
  capabilities: ['bom', 'cr', 'utf8-repair', 'nul', 'retry'],
  async parse(chunks) {
    const events = [];
    let retry = null;
    const stream = responseOf(chunks).body
      .pipeThrough(new TextDecoderStream())
      .pipeThrough(new EventSourceParserStream({ onRetry: (ms) => { retry = ms; } }));
    for await (const e of stream) events.push({ type: e.event || 'message', data: e.data, lastEventId: '' });
    return { events, retry };
  },
});
