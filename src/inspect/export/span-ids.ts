/**
 * Trace and span ids of exported spans: read from a W3C `traceparent` when a message carries one
 * (so an export joins the live trace it belongs to), otherwise derived deterministically from
 * what identifies the span in the trace file, so exporting the same file twice gives the same ids.
 */
import { createHash } from 'node:crypto';

/** A W3C trace context's ids: the trace, and the span that is the parent of ours. */
export interface TraceContext {
  /** 32 lower-case hex digits, not all zero. */
  traceId: string;
  /** 16 lower-case hex digits, not all zero. */
  parentSpanId: string;
}

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;
const ZERO = /^0+$/;

/**
 * The ids of a W3C `traceparent` header value (version 00, or a later one read as 00 by the
 * spec's forward-compatibility rule), or undefined when `value` is not a valid one.
 */
export function parseTraceparent(value: unknown): TraceContext | undefined {
  if (typeof value !== 'string') return undefined;
  const match = TRACEPARENT.exec(value.trim());
  if (!match) return undefined;
  const [, version, traceId, parentSpanId, , rest] = match;
  if (version === 'ff' || (version === '00' && rest !== undefined)) return undefined;
  if (ZERO.test(traceId!) || ZERO.test(parentSpanId!)) return undefined;
  return { traceId: traceId!, parentSpanId: parentSpanId! };
}

/** The `traceparent` of a message's `params._meta`, when it holds a valid one. */
export function traceContextOf(params: unknown): TraceContext | undefined {
  if (params === null || typeof params !== 'object') return undefined;
  const meta = (params as { _meta?: unknown })._meta;
  if (meta === null || typeof meta !== 'object') return undefined;
  return parseTraceparent((meta as { traceparent?: unknown }).traceparent);
}

function digest(parts: readonly string[], hexDigits: number): string {
  const hex = createHash('sha256').update(parts.join('\u0000')).digest('hex').slice(0, hexDigits);
  // An all-zero id is invalid in OTLP; sha256 will not give one in practice, but never emit it.
  return ZERO.test(hex) ? `${hex.slice(0, -1)}1` : hex;
}

/** A trace id (32 hex digits) for one session of one server. */
export function derivedTraceId(server: string, session: string): string {
  return digest(['mcpwire-trace', server, session], 32);
}

/** A span id (16 hex digits) from the parts that make the span unique within its trace. */
export function derivedSpanId(traceId: string, ...parts: readonly string[]): string {
  return digest(['mcpwire-span', traceId, ...parts], 16);
}
