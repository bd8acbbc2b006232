#!/usr/bin/env node
// SPDX-License-Identifier: MIT
// Adapter for the SSE decoding of the Vercel AI SDK, `@ai-sdk/provider-utils`
// (npm, pinned; an ES module). Every provider's streaming call goes through
// `createEventSourceResponseHandler`, whose `parseJsonEventStream` pipes the
// body through a `TextDecoderStream`, then eventsource-parser's
// `EventSourceParserStream` (the copy provider-utils depends on, which it
// re-exports) with `maxBufferSize` 64 MiB of characters (its
// DEFAULT_MAX_EVENT_SIZE, not exported), then drops the events whose data is
// `[DONE]` and parses the others' data as JSON. The SDK adds no SSE parsing of
// its own: this adapter grades that pipeline up to the parsed events, from a
// synthetic Response, so the row is eventsource-parser at the version the AI
// SDK installs, behind the decoder it uses. The last step keeps only `data`
// (neither type, id nor reconnection time reaches the application), and
// `[DONE]` is the JSON step's sentinel, not a wire rule: neither is graded
// here. No `onRetry` is passed and ids are dropped, so the hello lists
// neither `last-event-id` nor `retry`.
'use strict';
const { serve } = require('./lib/adapter.js');
const { responseOf, packageVersion } = require('./lib/response.js');

const loaded = import('@ai-sdk/provider-utils');
const MAX_EVENT_SIZE = 64 * 1024 * 1024;

serve({
  name: '@ai-sdk/provider-utils',
  version: packageVersion('@ai-sdk/provider-utils'),
  layers: ['wire'],
  capabilities: ['bom', 'cr', 'utf8-repair', 'nul'],
  async parse(chunks) {
    const { EventSourceParserStream } = await loaded;
    const events = [];
    const stream = responseOf(chunks).body
      .pipeThrough(new TextDecoderStream())
      .pipeThrough(new EventSourceParserStream({ maxBufferSize: MAX_EVENT_SIZE }));
    for await (const e of stream) events.push({ type: e.event || 'message', data: e.data, lastEventId: '' });
    return { events, retry: null };
  },
});
