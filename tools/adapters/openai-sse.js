#!/usr/bin/env node
// SPDX-License-Identifier: MIT
// Adapter for the SSE decoder of the `openai` SDK (npm, pinned): the
// messages its streaming code reads from a Response (`_iterSSEMessages`, what
// `Stream.fromSSEResponse` iterates), from a synthetic Response. Its messages
// carry `event` (null, or empty, when no event type was set) and `data`, no id and no
// reconnection time: the hello lists neither `last-event-id` nor `retry`.
'use strict';
const { serve } = require('./lib/adapter.js');
const { responseOf, packageVersion } = require('./lib/response.js');
const { _iterSSEMessages } = require('openai/core/streaming');

serve({
  name: 'openai',
  version: packageVersion('openai'),
  layers: ['wire'],
  capabilities: ['bom', 'cr', 'utf8-repair', 'nul'],
  async parse(chunks) {
    const events = [];
    for await (const sse of _iterSSEMessages(responseOf(chunks), new AbortController())) {
      // The SDK's own consumer treats an empty event name as none: both are "message".
      events.push({ type: sse.event || 'message', data: sse.data, lastEventId: '' });
    }
    return { events, retry: null };
  },
});
