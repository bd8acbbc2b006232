// SPDX-License-Identifier: MIT
// A helper for writing adapters in JavaScript (Node 18+): it speaks the
// adapter protocol, version 1 (tools/docs/adapter-protocol.md), with
// pipelining (its hello declares max_in_flight: requests are answered in
// order, answers written together), so that an adapter only says how to
// parse one stream, or how its client connects to a URL. Usage:
//
//   const { serve } = require('./lib/adapter.js');
//   serve({
//     name: 'my-parser', version: '1.2.3', layers: ['wire'],
//     capabilities: ['bom', 'cr', 'retry'],        // omit: all of them
//     // chunks: Uint8Array[] (the stream, as split); returns
//     // { events: [{type, data, lastEventId}], retry: number | null }.
//     // Throwing rejects the stream: the answer becomes {"id", "error"}.
//     async parse(chunks, layer) { ... },
//     // Optional, for the client cases (adapter-protocol.md, "connect"):
//     // its presence adds the layer "client" to the hello. request is
//     // { url, closeAfterEvents, limitMs } (closeAfterEvents 0: never);
//     // returns { events: [{type, data, lastEventId}],
//     // ended: 'closed' | 'failed' | 'limit' }. Throwing answers {"id", "error"}.
//     async connect(request) { ... },
//   });
//
// Requests are answered one at a time, in the order they were read: a
// connect holds the answers after it until its run has ended.
'use strict';

const readline = require('node:readline');

const PROTOCOL = 1;
// Requests the harness may send before it reads the first answer
// (adapter-protocol.md, "Pipelining"): they are read and answered in order.
const MAX_IN_FLIGHT = 64;

// Answers of the requests read in one go leave in one write, once the
// requests already buffered are answered (setImmediate runs after them).
let outgoing = [];
function flush() {
  if (outgoing.length === 0) return;
  process.stdout.write(outgoing.join(''));
  outgoing = [];
}
function answer(obj) {
  if (outgoing.length === 0) setImmediate(flush);
  outgoing.push(JSON.stringify(obj) + '\n');
}

function errorAnswer(request, message) {
  const out = {};
  if (request && typeof request === 'object') {
    if (request.op !== undefined && request.op !== 'parse' && request.op !== 'connect') out.op = request.op;
    if (request.id !== undefined) out.id = request.id;
  }
  out.error = message;
  return out;
}

// The stream's chunks as bytes; null when a chunk is not base64 text.
function decodeChunks(chunks) {
  if (!Array.isArray(chunks)) return null;
  const out = [];
  for (const c of chunks) {
    if (typeof c !== 'string' || !/^[A-Za-z0-9+/]*={0,2}$/.test(c)) return null;
    const bytes = Buffer.from(c, 'base64');
    // A plain Uint8Array view of the decoded bytes (no copy).
    out.push(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length));
  }
  return out;
}

// A well-formed wire answer: every member a string, retry a number or null.
function checkWire(result) {
  if (!result || !Array.isArray(result.events)) throw new Error('adapter bug: parse() returned no events array');
  return {
    events: result.events.map((e) => ({ type: String(e.type), data: String(e.data), lastEventId: String(e.lastEventId) })),
    retry: result.retry === undefined || result.retry === null ? null : Number(result.retry),
  };
}

const ENDINGS = ['closed', 'failed', 'limit'];

// A well-formed connect answer: the events as strings, one of the three endings.
function checkConnect(result) {
  if (!result || !Array.isArray(result.events)) throw new Error('adapter bug: connect() returned no events array');
  if (!ENDINGS.includes(result.ended)) throw new Error(`adapter bug: connect() ended "${result.ended}"`);
  return {
    events: result.events.map((e) => ({ type: String(e.type), data: String(e.data), lastEventId: String(e.lastEventId) })),
    ended: result.ended,
  };
}

// The layers the hello lists: the parse layers, and "client" for an adapter
// that defines connect().
function helloLayers(spec) {
  const layers = [...(spec.layers || [])];
  if (typeof spec.connect === 'function' && !layers.includes('client')) layers.push('client');
  return layers;
}

// A connect request's members, checked; null when one is malformed.
function connectRequest(request) {
  if (typeof request.url !== 'string') return null;
  const closeAfter = request.close_after_events === undefined ? 0 : request.close_after_events;
  const limit = request.limit_ms === undefined ? 3000 : request.limit_ms;
  if (!Number.isInteger(closeAfter) || closeAfter < 0 || !Number.isInteger(limit) || limit < 0) return null;
  return { url: request.url, closeAfterEvents: closeAfter, limitMs: limit };
}

async function handleConnect(spec, request) {
  if (typeof spec.connect !== 'function') return errorAnswer(request, 'this adapter has no client: layer "client" is not supported');
  if (typeof request.id !== 'string') return errorAnswer(request, 'a connect request needs a string "id"');
  const args = connectRequest(request);
  if (!args) return errorAnswer(request, 'a connect request needs a string "url" and non-negative integers "close_after_events" and "limit_ms"');
  try {
    return { id: request.id, ...checkConnect(await spec.connect(args)) };
  } catch (err) {
    return errorAnswer(request, `${err && err.name ? err.name : 'Error'}: ${err && err.message ? err.message : String(err)}`);
  }
}

async function handle(spec, request) {
  if (!request || typeof request !== 'object' || typeof request.op !== 'string') {
    return errorAnswer(request, 'a request must be a JSON object with a string "op"');
  }
  if (request.op === 'hello') {
    if (request.protocol !== PROTOCOL) return errorAnswer(request, 'unsupported protocol version; this adapter speaks 1');
    const hello = {
      op: 'hello', protocol: PROTOCOL, name: spec.name, version: spec.version, layers: helloLayers(spec),
      max_in_flight: MAX_IN_FLIGHT,
    };
    if (spec.capabilities) hello.capabilities = spec.capabilities;
    return hello;
  }
  if (request.op === 'connect') return handleConnect(spec, request);
  if (request.op !== 'parse') return errorAnswer(request, `unknown op "${request.op}"`);
  if (typeof request.id !== 'string' || typeof request.layer !== 'string') {
    return errorAnswer(request, 'a parse request needs a string "id" and "layer"');
  }
  if (typeof spec.parse !== 'function' || !(spec.layers || []).includes(request.layer)) {
    return errorAnswer(request, `layer "${request.layer}" is not supported`);
  }
  const chunks = decodeChunks(request.chunks);
  if (!chunks) return errorAnswer(request, '"chunks" must be an array of base64 strings');
  try {
    const result = await spec.parse(chunks, request.layer);
    if (request.layer === 'wire') return { id: request.id, ...checkWire(result) };
    return { id: request.id, events: result.events };
  } catch (err) {
    // The implementation rejected (or choked on) the stream.
    return errorAnswer(request, `${err && err.name ? err.name : 'Error'}: ${err && err.message ? err.message : String(err)}`);
  }
}

async function serve(spec) {
  const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
  for await (const line of lines) {
    let request;
    try {
      request = JSON.parse(line);
    } catch {
      answer({ error: 'request is not valid JSON' });
      continue;
    }
    if (request && request.op === 'bye') break;
    answer(await handle(spec, request));
  }
  flush();
  // Exit once the answers are written (a pipe write may still be pending).
  process.stdout.write('', () => process.exit(0));
}

// What an EventSource built on a parser reports as lastEventId: the WHATWG
// "last event ID buffer" survives events and is set by every `id` field
// (an empty value resets it). Parsers that report the id per event give it here.
class LastEventId {
  constructor() {
    this.value = '';
  }
}

module.exports = { serve, LastEventId };
