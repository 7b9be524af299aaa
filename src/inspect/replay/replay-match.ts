/**
 * When a live request is the recorded one. The rule, documented in `docs/cli.md`:
 *
 * - the method must be the same;
 * - the params must be deep-equal (object key order aside) once `_meta` is left out: `_meta` holds
 *   what differs per run and per client (the progress token, the 2026 envelope's revision, client
 *   info and capabilities, the log level, trace context);
 * - `initialize` and `server/discover` match by method alone: their params describe the client,
 *   not the session (its name, version and capabilities);
 * - ids never matter: the live request's id answers it.
 *
 * Pure; no I/O.
 */
import type { RecordedRequest } from './replay-script.js';

/** Methods matched by name alone. */
const BY_METHOD_ONLY = new Set(['initialize', 'server/discover']);

/** `params` without `_meta`, or undefined when nothing else is left. */
export function comparableParams(params: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  if (params === undefined) return undefined;
  const { _meta: _ignored, ...rest } = params;
  return Object.keys(rest).length === 0 ? undefined : rest;
}

/** Deep equality of JSON values; object key order does not matter. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const other = b as unknown[];
    return a.length === other.length && a.every((item, i) => jsonEqual(item, other[i]));
  }
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = Object.keys(left).filter((k) => left[k] !== undefined);
  if (keys.length !== Object.keys(right).filter((k) => right[k] !== undefined).length) return false;
  return keys.every((key) => Object.hasOwn(right, key) && jsonEqual(left[key], right[key]));
}

/** True when the live request (`method`, `params`) is `step` under the rule above. */
export function matchesRecorded(step: RecordedRequest, method: string, params: Record<string, unknown> | undefined) {
  if (step.method !== method) return false;
  if (BY_METHOD_ONLY.has(method)) return true;
  return jsonEqual(comparableParams(step.params), comparableParams(params));
}

const SUMMARY_CHARS = 160;

/** `method {params…}` for messages and logs: params without `_meta`, cut at 160 characters. */
export function describeRequest(method: string, params: Record<string, unknown> | undefined): string {
  const shown = comparableParams(params);
  if (shown === undefined) return method;
  const text = JSON.stringify(shown);
  return `${method} ${text.length > SUMMARY_CHARS ? `${text.slice(0, SUMMARY_CHARS - 1)}…` : text}`;
}
