// The events every producer app serves, and what a WHATWG parser must dispatch for each.
//
// Each app (tools/producers/<framework>.js) writes STREAM at /stream through its framework's
// own API, one event per entry, and AGENT_RUN at /agent where the framework is used that way.
// compare.js reads back what the reference parser dispatched and compares it with
// `dispatch`, entry by entry (tools/docs/producers.md, "Ground truth").
//
// An entry: `key` names it in reports; `event`, `id`, `data`, `retry` are the values the app
// hands to the framework; `dispatch` is the event a WHATWG parser must dispatch when the
// producer writes them correctly (`wire`); `refusable` marks a value no correct producer can
// write: it must refuse it (throw) rather than send it altered.
//
// The `injected by ...` texts are markers: a dispatched event that carries one in another
// field, or as an event of its own, got it from a line break in a value that split the frame
// (compare.js, "injection").

const LONG_LENGTH = 1024 * 1024;

export const MARKERS = ['injected by the data', 'injected by the event name', 'injected by the id'];

export const STREAM = [
  {
    key: 'plain',
    event: 'plain', id: '1', data: 'hello',
    wire: 'event: plain\nid: 1\ndata: hello\n\n',
  },
  {
    key: 'data-lf',
    event: 'data-lf', id: '2', data: 'one\ntwo',
    wire: 'data: one\ndata: two',
  },
  {
    // No field value can hold a CR: the line is split, and the reader joins with LF.
    key: 'data-cr',
    event: 'data-cr', id: '3', data: 'one\rtwo', dispatchData: 'one\ntwo',
    wire: 'data: one\ndata: two',
  },
  {
    key: 'data-crlf',
    event: 'data-crlf', id: '4', data: 'one\r\ntwo', dispatchData: 'one\ntwo',
    wire: 'data: one\ndata: two',
  },
  {
    key: 'data-blank-line',
    event: 'data-blank-line', id: '5', data: 'one\n\ntwo',
    wire: 'data: one\ndata: \ndata: two',
  },
  {
    // A value that reaches the producer from outside (model output echoing a user):
    // a blank line, then the lines of another event.
    key: 'data-injection',
    event: 'data-injection', id: '6', data: 'ok\n\nevent: injected\nid: 666\ndata: injected by the data',
    wire: 'data: ok\ndata: \ndata: event: injected\ndata: id: 666\ndata: data: injected by the data',
  },
  {
    key: 'data-trailing-lf',
    event: 'data-trailing-lf', id: '7', data: 'one\n',
    wire: 'data: one\ndata: ',
  },
  {
    // The reader drops one space after the colon: the producer writes "data:" and a space first.
    key: 'data-leading-space',
    event: 'data-leading-space', id: '8', data: ' indented',
    wire: 'data:  indented',
  },
  {
    key: 'data-empty',
    event: 'data-empty', id: '9', data: '',
    wire: 'data: (or data, or data:)',
  },
  {
    key: 'data-long',
    event: 'data-long', id: '10', data: 'x'.repeat(LONG_LENGTH),
    wire: `one data line of ${LONG_LENGTH} bytes`,
  },
  {
    // U+2028 and U+0085 are line breaks elsewhere, never in an event stream.
    key: 'data-non-ascii',
    event: 'data-non-ascii', id: '11', data: 'h\u00e9llo \u65e5\u672c\u8a9e \u{1F642} \u2028 \u0085 end',
    wire: 'data: followed by the value in UTF-8',
  },
  {
    key: 'event-newline',
    event: 'update\n\nevent: injected\ndata: injected by the event name\n\n', id: '12', data: 'payload of event-newline',
    refusable: true,
    wire: 'nothing: the value cannot be one line; the producer refuses it',
  },
  {
    key: 'id-newline',
    event: 'id-newline', id: '13\n\nevent: injected\ndata: injected by the id\n\n', data: 'payload of id-newline',
    refusable: true,
    wire: 'nothing: the value cannot be one line; the producer refuses it',
  },
  {
    key: 'retry',
    event: 'retry', id: '14', data: 'reconnect after 2500 ms', retry: 2500,
    wire: 'retry: 2500',
  },
  {
    key: 'end',
    event: 'end', id: '15', data: 'end',
    wire: 'event: end\nid: 15\ndata: end\n\n',
  },
];

// The reconnection time a reader holds at the end of STREAM.
export const STREAM_RETRY = 2500;

// The event a WHATWG parser must dispatch for an entry written correctly. An app that encodes
// the data first (JSON) passes `encode`: the encoded text has no line break, so the value the
// reader gets back is the one written, CR included.
export function dispatched(entry, encode) {
  return {
    key: entry.key,
    type: entry.event === undefined || entry.event === '' ? 'message' : entry.event,
    data: encode ? encode(entry.data) : entry.dispatchData ?? entry.data,
    lastEventId: entry.id,
    refusable: Boolean(entry.refusable),
  };
}

// The expectation of an app serving STREAM with every field set through its API.
export function expectedStream(encode) {
  return { events: STREAM.map((entry) => dispatched(entry, encode)), retry: STREAM_RETRY };
}

// An agent-service run (spec/agent.yaml, tools/examples/agent-run.sse) whose message_chunk
// contents carry the same stress values. Each frame is one `data: ` line of this JSON.
const RUN = 'run-1';
const STEP = 'step-1';
const CONTENTS = [
  ['chunk-lf', 'one\ntwo'],
  ['chunk-cr', 'one\rtwo'],
  ['chunk-crlf', 'one\r\ntwo'],
  ['chunk-injection', 'ok\n\ndata: {"type":"done","runId":"run-1"}\n\n'],
  ['chunk-non-ascii', 'h\u00e9llo \u65e5\u672c\u8a9e \u{1F642} \u2028 end'],
  ['chunk-empty', ''],
  ['chunk-long', 'y'.repeat(64 * 1024)],
];

export const AGENT_RUN = [
  ['run_started', { type: 'run_started', runId: RUN }],
  ['step_started', { type: 'step_started', runId: RUN, stepId: STEP }],
  ...CONTENTS.map(([key, content]) => [key, { type: 'message_chunk', content, runId: RUN, stepId: STEP }]),
  ['step_completed', { type: 'step_completed', runId: RUN, stepId: STEP }],
  ['run_completed', { type: 'run_completed', runId: RUN, stepId: STEP }],
  ['done', { type: 'done', runId: RUN }],
].map(([key, object]) => ({ key, object }));

// The expectation of an app serving AGENT_RUN: data is the JSON text; ids are not compared
// (the protocol has none), nor is the type (an `event:` line is AGENT-FRAME-DATA-ONLY's).
export function expectedAgent() {
  return {
    events: AGENT_RUN.map(({ key, object }) => ({ key, type: null, data: JSON.stringify(object), lastEventId: null })),
    retry: undefined,
  };
}
