/**
 * What the first characters of a JSON-RPC message say about it, for a message too large to read
 * whole. A transport whose messages share one channel (stdio, the HTTP+SSE stream) drops a
 * message over its size cap and hands the connection only its head; the connection, which owns
 * the ids, reads here whether the message was a response and to which request.
 *
 * The scan is bounded by the head's length and iterative (nested values are skipped with a depth
 * counter, never by recursion), so a hostile head costs what a plain one does.
 */
import type { JsonRpcId } from './jsonrpc.js';

/** How many characters of a dropped message a transport keeps for {@link peekMessageHead}. */
export const MESSAGE_HEAD_CHARS = 4_096;

/**
 * - `response`: a top-level `result` or `error` member was reached; `id` is the top-level `id`
 *   read before it, or undefined when the id comes later (past the head) or is not a JSON-RPC id.
 *   A null id (an error tied to no request) is reported as null.
 * - `peer-message`: a top-level `method` or `params` member was reached: a request or a
 *   notification of the peer, no answer to any request of ours.
 * - `unknown`: nothing decisive within the head (not an object, a batch array, junk, or a head
 *   that ends inside members that say nothing).
 */
export type MessageHead =
  { kind: 'response'; id: JsonRpcId | null | undefined } | { kind: 'peer-message' } | { kind: 'unknown' };

const UNKNOWN: MessageHead = { kind: 'unknown' };

/** Reads `head` (the start of one JSON text, possibly cut anywhere) as described on {@link MessageHead}. */
export function peekMessageHead(head: string): MessageHead {
  let at = skipSpace(head, 0);
  if (head.charCodeAt(at) !== 0x7b) return UNKNOWN; // `{`; a batch `[` cannot be told apart in part
  at++;
  let id: JsonRpcId | null | undefined;
  for (;;) {
    at = skipSpace(head, at);
    if (head.charCodeAt(at) !== 0x22) return UNKNOWN; // a key, or the object ended with nothing decisive
    const keyEnd = stringEnd(head, at);
    if (keyEnd < 0) return UNKNOWN;
    const key = parsed(head.slice(at, keyEnd));
    at = skipSpace(head, keyEnd);
    if (head.charCodeAt(at) !== 0x3a) return UNKNOWN; // `:`
    at = skipSpace(head, at + 1);
    if (key === 'result' || key === 'error') return { kind: 'response', id };
    if (key === 'method' || key === 'params') return { kind: 'peer-message' };
    const valueEnd = valueEndAt(head, at);
    if (valueEnd < 0) return UNKNOWN;
    if (key === 'id') {
      const value = parsed(head.slice(at, valueEnd));
      id = typeof value === 'string' || typeof value === 'number' || value === null ? value : undefined;
    }
    at = skipSpace(head, valueEnd);
    if (head.charCodeAt(at) !== 0x2c) return UNKNOWN; // `,`; `}` means it ended undecided
    at++;
  }
}

function skipSpace(text: string, at: number): number {
  while (at < text.length) {
    const c = text.charCodeAt(at);
    if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) break;
    at++;
  }
  return at;
}

/** The index after the string starting at `at` (a `"`), or -1 when the head ends inside it. */
function stringEnd(text: string, at: number): number {
  for (let i = at + 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x5c)
      i++; // `\`: the next character is escaped
    else if (c === 0x22) return i + 1;
  }
  return -1;
}

/** The index after the JSON value starting at `at`, or -1 when the head ends inside it. */
function valueEndAt(text: string, at: number): number {
  const first = text.charCodeAt(at);
  if (first === 0x22) return stringEnd(text, at);
  if (first === 0x7b || first === 0x5b) {
    let depth = 0;
    for (let i = at; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 0x22) {
        i = stringEnd(text, i) - 1;
        if (i < 0) return -1;
      } else if (c === 0x7b || c === 0x5b) depth++;
      else if (c === 0x7d || c === 0x5d) {
        if (--depth === 0) return i + 1;
      }
    }
    return -1;
  }
  // A number or a literal: up to the next delimiter, which must be inside the head.
  let i = at;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === 0x2c || c === 0x7d || c === 0x5d || c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d)
      return i > at ? i : -1;
    i++;
  }
  return -1;
}

/** `JSON.parse` of a short, already delimited piece; undefined when it is not JSON. */
function parsed(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
