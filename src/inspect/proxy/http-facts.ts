/**
 * Headers on the HTTP proxy's two hops: which ones travel end to end (hop-by-hop ones never do),
 * the redacted HTTP facts a trace record carries, and the request a POST body carried.
 */
import { traceHttpFacts } from '../../observe/trace-builder.js';
import type { TraceHttp, TraceRecord } from '../../observe/trace-record.js';

/** Headers as Node and undici hand them over: lower-case names, a list for repeated ones. */
export type HeaderBag = Record<string, string | string[] | undefined>;

/**
 * Hop-by-hop headers (RFC 9110 §7.6.1) and the old `proxy-connection`: they describe one connection, not the message.
 */
const HOP_BY_HOP = [
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
];

/**
 * The end-to-end headers of `headers`: without hop-by-hop ones, without those the `Connection`
 * header names, and without `drop` (lower-case names). Names come back lower-cased.
 */
export function endToEndHeaders(headers: HeaderBag, drop: readonly string[] = []): Record<string, string | string[]> {
  const skip = new Set([...HOP_BY_HOP, ...drop]);
  for (const value of [headers.connection ?? []].flat()) {
    for (const token of value.split(',')) if (token.trim()) skip.add(token.trim().toLowerCase());
  }
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    if (value !== undefined && !skip.has(lower)) out[lower] = value;
  }
  return out;
}

/**
 * The HTTP facts of one exchange as a record carries them (see `traceHttpFacts`: only the headers
 * a trace keeps, credentials redacted, every `secrets` value scrubbed). Safe to attach as is.
 */
export function traceHttp(
  method: string,
  url: string | URL,
  headers: HeaderBag,
  secrets: readonly string[],
  status?: number,
): TraceHttp {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers))
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
  return traceHttpFacts(
    { method, url: String(url), headers: flat, ...(status !== undefined ? { status } : {}) },
    secrets,
  );
}

/** Event records carry the exchange's HTTP facts too (already redacted by {@link traceHttp}). */
export function withHttp(record: TraceRecord, facts: TraceHttp): TraceRecord {
  return { ...record, http: facts };
}

/** The id and method of a lone JSON-RPC request (not a batch, not a notification). */
export function requestOf(value: unknown): { id: string | number; method: string } | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const { id, method } = value as { id?: unknown; method?: unknown };
  return typeof method === 'string' && (typeof id === 'string' || typeof id === 'number') ? { id, method } : undefined;
}
