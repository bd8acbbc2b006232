// better-sse with a plain-text serializer: `createSession(req, res, { serializer: String })`.
//
// The same app as better-sse.js, with the one option an application sets to send text as it
// is (LLM tokens, say) instead of JSON. The documented `serializer` option
// (SessionOptions.serializer, "Defaults to `JSON.stringify`"); data then reaches the sanitizer
// and `data:` unencoded, as event names and ids always do.
//
// Usage: node better-sse-text.js PORT   (0 = any; prints `listening http://127.0.0.1:PORT`)
// Routes: /stream (events.js STREAM, dialect wire).

import { expectedStream } from './events.js';
import { isMain, portArgument } from './lib.js';
import { start } from './better-sse.js';

export const meta = {
  framework: 'better-sse (serializer: String)',
  packages: ['better-sse'],
  exposes: 'event, id, data (as text), retry',
  routes: { '/stream': 'wire' },
};

export function expected() {
  return expectedStream();
}

if (isMain(import.meta)) start(portArgument(), { serializer: String });
