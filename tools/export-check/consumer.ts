// SPDX-License-Identifier: MIT
// A small frontend written against the declarations `sse-conform export --to
// typescript` writes (check.js compiles both with tsc --strict --noEmit).
// It narrows the unions on `type`, reads required and optional fields, and
// keeps unknown events whole.
import {
  type AgentSseEvent,
  type AgentUnknownEvent,
  type ChatEventType,
  type ChatSseEvent,
  type ChatUnknownEvent,
  type CodeSseEvent,
  type WorkflowSseEvent,
  chatEventTypes,
  isKnownChatType,
} from './sse-conform';

const chatTypes: ReadonlySet<string> = new Set<ChatEventType>(['content', 'tool_call', 'usage', 'done']);

// A decoded frame's type, told known or unknown at run time before it is narrowed.
export function classify(type: string): ChatEventType | 'unknown' {
  return isKnownChatType(type) ? type : 'unknown';
}
export const everyChatType: readonly ChatEventType[] = chatEventTypes;

function isUnknown(e: ChatSseEvent | ChatUnknownEvent): e is ChatUnknownEvent {
  return 'raw' in e;
}

export function renderChat(e: ChatSseEvent | ChatUnknownEvent): string {
  if (isUnknown(e)) return `kept ${e.type}: ${JSON.stringify(e.raw)}`;
  switch (e.type) {
    case 'content':
      return e.text; // required: a string
    case 'tool_call': {
      const args: string = typeof e.arguments === 'string' ? e.arguments : JSON.stringify(e.arguments);
      return `${e.name}(${args})${e.hidden === true ? ' hidden' : ''}`; // hidden is optional
    }
    case 'usage':
      return `${e.promptTokens ?? 0}+${e.completionTokens ?? 0} tokens`; // optional, default 0
    case 'question':
      return e.toolCallId;
    default:
      return chatTypes.has(e.type) ? e.type : `unrendered ${e.type}`;
  }
}

export function codeLatency(e: CodeSseEvent): number | undefined {
  return e.type === 'usage' ? e.latencyMs : undefined;
}

export function workflowRun(e: WorkflowSseEvent): string | undefined {
  // Open events: undeclared fields are allowed and typed unknown.
  const extra: unknown = e['anything'];
  return extra === undefined ? e.runId : e.runId;
}

export function agentLine(e: AgentSseEvent | AgentUnknownEvent): string {
  if ('raw' in e) return `ignored ${e.type}`;
  switch (e.type) {
    case 'message_chunk':
      return e.content ?? '';
    case 'run_started':
      return e.runId; // required on run_started
    default:
      return `${e.type} ${e.runId}`;
  }
}

// @ts-expect-error a required field may not be left out
export const missingText: ChatSseEvent = { type: 'content' };
// @ts-expect-error a field's type is the catalog's
export const wrongType: ChatSseEvent = { type: 'content', text: 3 };
