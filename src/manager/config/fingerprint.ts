/**
 * A stable identity for a server's effective (expanded) definition, so a reload can tell changed
 * servers from unchanged ones, and an approval can be tied to exactly what was approved.
 */
import { sha256Hex } from '../hashing.js';
import type { ManagedServer } from '../servers/managed-server.js';

/**
 * Fields that describe where a definition came from or how to display it, not what it runs; they
 * never change a fingerprint.
 */
const NOT_IDENTITY = new Set(['provenance', 'secrets', 'trusted', 'origins']);

/**
 * JSON with object keys sorted at every depth and `undefined` members left out: equal values give
 * equal text whatever their key order. Array order is kept (it is meaningful, e.g. `args`).
 */
export function stableJson(value: unknown): string {
  if (Array.isArray(value))
    return `[${value.map((item) => (item === undefined ? 'null' : stableJson(item))).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * A hex SHA-256 of the server's effective definition (keys sorted; `provenance`, `secrets`,
 * `trusted` and `origins` left out). Equal for definitions that differ only in key order; different when any
 * field that affects the connection differs (a changed arg, env value, header, timeout, …).
 * The hash, not the JSON, so it can be stored or logged without revealing expanded secrets.
 */
export function configFingerprint(server: ManagedServer | Record<string, unknown>): string {
  const identity = Object.fromEntries(Object.entries(server).filter(([key]) => !NOT_IDENTITY.has(key)));
  return sha256Hex(stableJson(identity));
}
