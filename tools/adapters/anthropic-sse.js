#!/usr/bin/env node
// SPDX-License-Identifier: MIT
// Adapter for the SSE decoder of the `@anthropic-ai/sdk` SDK (npm, pinned):
// the messages its streaming code reads from a Response (`_iterSSEMessages`,
// what `Stream.fromSSEResponse` iterates), from a synthetic Response. Its
// messages carry `event` (null when no `event` field came) and `data`, no id
// and no reconnection time: the hello lists neither `last-event-id` nor `retry`.
'use strict';
const { serve } = require('./lib/adapter.js');
const { responseOf, packageVersion } = require('./lib/response.js');
const { _iterSSEMessages } = require('@anthropic-ai/sdk/core/streaming');

serve({
  name: '@anthropic-ai/sdk',
  version: packageVersion('@anthropic-ai/sdk'),
  layers: ['wire'],
  capabilities: ['bom', 'cr', 'utf8-repair', 'nul'],
  async parse(chunks) {
    const events = [];
    for await (const sse of _iterSSEMessages(responseOf(chunks), new AbortController())) {
      // Only null means "no type": the SDK's own consumer skips a message whose
      // event is null but reads one whose event is empty, so an empty name stays.
      events.push({ type: sse.event ?? 'message', data: sse.data, lastEventId: '' });
    }
    return { events, retry: null };
  },
});
