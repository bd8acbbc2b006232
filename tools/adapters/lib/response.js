// SPDX-License-Identifier: MIT
// A synthetic fetch Response whose body delivers the request's chunks one per
// pull, as a network stream delivers them (no network). Enqueueing them all
// at once makes Node's stream queue cost quadratic time in the number of
// chunks: the glue, not the library, would time out.
'use strict';

function responseOf(chunks) {
  let next = 0;
  return new Response(new ReadableStream({
    pull(controller) {
      if (next < chunks.length) controller.enqueue(chunks[next++]);
      else controller.close();
    },
  }, { highWaterMark: 0 }), { headers: { 'content-type': 'text/event-stream' } });
}

// The version of an installed package, read from its package.json on disk
// (some packages do not export it).
function packageVersion(name) {
  const fs = require('node:fs');
  const path = require('node:path');
  return JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'node_modules', name, 'package.json'), 'utf8')).version;
}

module.exports = { responseOf, packageVersion };
