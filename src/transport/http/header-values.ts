/**
 * HTTP header values of the MCP transports: the 2026-07-28 value encoding for `Mcp-Name` and
 * `Mcp-Param-*` (plain header-safe ASCII as is, anything else as `=?base64?<UTF-8 base64>?=`),
 * and redaction of credentials before a header or URL appears in an error, a log or a trace.
 */
import { Buffer } from 'node:buffer';

const SENTINEL_START = '=?base64?';
const SENTINEL_END = '?=';

/**
 * True when `value` can travel as a plain header value: only visible ASCII, space and tab
 * (RFC 9110 field values), no leading or trailing whitespace.
 */
export function isPlainHeaderValue(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c === 0x09 || (c >= 0x20 && c <= 0x7e)) continue;
    return false;
  }
  if (value.length === 0) return true;
  const first = value.charCodeAt(0);
  const last = value.charCodeAt(value.length - 1);
  return first !== 0x20 && first !== 0x09 && last !== 0x20 && last !== 0x09;
}

/**
 * Encodes one `Mcp-Name` / `Mcp-Param-*` value as the 2026-07-28 streamable-http.mdx "Value
 * Encoding" section says: strings as is, integers in decimal, booleans `true`/`false`; base64
 * sentinel form for anything not plain header-safe, and for plain values that look like the
 * sentinel themselves (so decoding is unambiguous).
 */
export function encodeHeaderValue(value: string | number | boolean): string {
  const text = typeof value === 'string' ? value : String(value);
  const looksEncoded = text.startsWith(SENTINEL_START) && text.endsWith(SENTINEL_END);
  if (isPlainHeaderValue(text) && !looksEncoded) return text;
  return `${SENTINEL_START}${Buffer.from(text, 'utf8').toString('base64')}${SENTINEL_END}`;
}

/** The inverse of {@link encodeHeaderValue} for sentinel values; plain values come back as is. */
export function decodeHeaderValue(value: string): string {
  if (!(value.startsWith(SENTINEL_START) && value.endsWith(SENTINEL_END))) return value;
  return Buffer.from(value.slice(SENTINEL_START.length, -SENTINEL_END.length), 'base64').toString('utf8');
}

/** Header names whose whole value is a secret. */
const SECRET_HEADER = /^(authorization|proxy-authorization|cookie|set-cookie|x-api-key|api-key)$|token|secret|password|passwd|api[-_]?key|session/i;

/**
 * A display copy of `value` for header `name`: `Authorization: Bearer abc` becomes `Bearer ***`
 * (the scheme stays, it helps debugging), other credential-like headers become `***`, anything
 * else is returned unchanged.
 */
export function redactHeaderValue(name: string, value: string): string {
  if (!SECRET_HEADER.test(name)) return value;
  const scheme = /^([A-Za-z][\w-]*)\s+\S/.exec(value);
  return scheme && /authorization/i.test(name) ? `${scheme[1]} ***` : '***';
}

/** {@link redactHeaderValue} over a whole header record. */
export function redactHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) out[name] = redactHeaderValue(name, value);
  return out;
}

const SECRET_QUERY = /token|secret|password|passwd|key|auth|sig|code/i;

/** A display form of a URL: no password in userinfo, credential-like query values as `***`. */
export function redactUrl(url: string | URL): string {
  let parsed: URL;
  try {
    parsed = new URL(String(url));
  } catch {
    return String(url);
  }
  if (parsed.password) parsed.password = '***';
  for (const key of [...parsed.searchParams.keys()]) {
    if (SECRET_QUERY.test(key)) parsed.searchParams.set(key, '***');
  }
  return parsed.toString().replace(/%2A%2A%2A/g, '***');
}

/**
 * Replaces every occurrence of each secret in `text` by `***` (secrets shorter than 4
 * characters are left alone: they would mangle ordinary words).
 */
export function scrubSecrets(text: string, secrets: Iterable<string>): string {
  let out = text;
  for (const secret of secrets) {
    if (secret.length >= 4) out = out.split(secret).join('***');
  }
  return out;
}
