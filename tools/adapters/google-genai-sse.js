#!/usr/bin/env node
// SPDX-License-Identifier: MIT
// Adapter for the SSE decoder of the `@google/genai` SDK (npm, pinned): the
// chunks `models.generateContentStream()` reads from the Response, which
// `ApiClient.processStreamResponse` cuts at a blank line and reduces to the
// text after `data:` (each an `HttpResponse` whose JSON the SDK parses next),
// from a synthetic Response. It is reached through the client's `apiClient`
// member, the object every streaming call goes through; its JSON step is no
// part of the wire layer. A chunk carries no event type, no id and no
// reconnection time: every event is reported as `message`, and the hello
// lists neither `last-event-id` nor `retry`.
'use strict';
const { serve } = require('./lib/adapter.js');
const { responseOf, packageVersion } = require('./lib/response.js');
const { GoogleGenAI } = require('@google/genai');

// No request leaves the process: only the decoder of the client is called.
const client = new GoogleGenAI({ apiKey: 'sse-conform' });

serve({
  name: '@google/genai',
  version: packageVersion('@google/genai'),
  layers: ['wire'],
  capabilities: ['bom', 'cr', 'utf8-repair', 'nul'],
  async parse(chunks) {
    const events = [];
    for await (const chunk of client.apiClient.processStreamResponse(responseOf(chunks))) {
      events.push({ type: 'message', data: await chunk.responseInternal.text(), lastEventId: '' });
    }
    return { events, retry: null };
  },
});
