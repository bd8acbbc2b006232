// SPDX-License-Identifier: MIT
// Runs one ground-truth consumer as an adapter (adapter protocol 1, through
// tools/adapters/lib/adapter.js): the stream's chunks are decoded as the
// browser's TextDecoder does and handed to the consumer's `consume(text)`,
// whose return value (the events it rendered, in the dialect-event JSON form)
// is the answer; a throw is an `error` answer.
'use strict';
const path = require('node:path');
const { serve } = require(path.join(__dirname, '..', '..', '..', 'adapters', 'lib', 'adapter.js'));

function run(consumer) {
  serve({
    name: consumer.name,
    version: 'ground truth',
    layers: [consumer.dialect],
    async parse(chunks) {
      const decoder = new TextDecoder();
      let text = '';
      for (const c of chunks) text += decoder.decode(c, { stream: true });
      text += decoder.decode();
      return { events: consumer.consume(text) };
    },
  });
}

module.exports = { run };
