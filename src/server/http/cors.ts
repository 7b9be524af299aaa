/**
 * CORS for the HTTP handler (the Fetch standard's CORS protocol), as pure functions of the
 * request and the `cors` option, so a browser page on another origin can call the server and read
 * what MCP answers in headers (`Mcp-Session-Id`, `WWW-Authenticate`, `DPoP-Nonce`…):
 * - {@link preflight}: the answer to a preflight `OPTIONS` — 204 with the methods and request
 *   headers MCP uses (and any `Mcp-*` header the preflight asks for: a tool's `Mcp-Param-*`) for
 *   an allowed origin, a 403 refusal for any other.
 * - {@link answerHeaders}: the headers every other answer carries, streams included.
 * - {@link originAllowed}: whether an `Origin` is allowed (the Origin guard takes a listed origin).
 * Header names are lower-case, as {@link ResponseSink} takes them.
 */
import { McpError } from '../../protocol/errors.js';
import type { HttpRequestIn, Refusal } from '../../transport/http-server/http-exchange.js';

/** The `cors` option of the HTTP handlers. */
export interface CorsOptions {
  /**
   * The origins a browser page may call from (`https://app.example.com`, `http://localhost:5173`),
   * or `'*'` for any (answered `Access-Control-Allow-Origin: *`). An origin is a scheme, a host
   * and a port, without a path.
   */
  origins: readonly string[] | '*';
  /** How long a browser may keep a preflight's answer, in seconds (default 7200; browsers cap it). */
  maxAgeSeconds?: number;
  /**
   * Pages may send credentials (cookies, TLS client certificates): answered
   * `Access-Control-Allow-Credentials: true`. Needs an origin list, never `'*'`. Default false.
   */
  credentials?: boolean;
}

/** A preflight's answer: 204 with the CORS headers, or 403 for an origin that is not allowed. */
export type PreflightAnswer =
  | { readonly status: 204; readonly headers: Readonly<Record<string, string>> }
  | (Refusal & { readonly status: 403; readonly headers: Readonly<Record<string, string>> });

/** The methods MCP's Streamable HTTP uses. */
export const CORS_METHODS = 'GET, POST, DELETE, OPTIONS';
/** The request headers MCP clients send (the 2026 `Mcp-Param-*` ones are echoed when asked). */
export const CORS_REQUEST_HEADERS: readonly string[] = Object.freeze([
  'Content-Type',
  'Accept',
  'Authorization',
  'DPoP',
  'Mcp-Protocol-Version',
  'Mcp-Session-Id',
  'Last-Event-ID',
  'Mcp-Method',
  'Mcp-Name',
]);
/** The response headers a page may read beside the safelisted ones. */
export const CORS_EXPOSED_HEADERS: readonly string[] = Object.freeze([
  'Mcp-Session-Id',
  'Mcp-Protocol-Version',
  'WWW-Authenticate',
  'DPoP-Nonce',
  'Retry-After',
]);

const KEYS = new Set(['origins', 'maxAgeSeconds', 'credentials']);
const DEFAULT_MAX_AGE_SECONDS = 7200;
/** `scheme://host[:port]`, as an `Origin` header serialises an origin. */
const ORIGIN = /^[a-z][a-z0-9+.-]*:\/\/[^/?#@\s]+$/;
/** An RFC 9110 header name token that starts with `mcp-`. */
const MCP_HEADER = /^mcp-[!#$%&'*+.^_`|~0-9a-z-]+$/;
const REFUSED = 'Forbidden: the Origin header is not an allowed origin';
const EXPOSED = CORS_EXPOSED_HEADERS.join(', ');
const BASE_REQUEST_HEADERS = new Set(CORS_REQUEST_HEADERS.map((name) => name.toLowerCase()));

/** The option read once: origins normalised, headers that do not depend on the request precomputed. */
interface CorsPolicy {
  /** Null: any origin (then never with credentials). */
  readonly origins: ReadonlySet<string> | null;
  readonly credentials: boolean;
  readonly maxAge: string;
}

const policies = new WeakMap<CorsOptions, CorsPolicy>();

/**
 * Checks the `cors` option (the handlers call it when they are made; the functions below call
 * it on first use of an options object). Throws `INVALID_ARGUMENT` for an unknown key, an entry
 * that is not an origin, `'*'` with `credentials`, or a bad `maxAgeSeconds`.
 */
export function checkCorsOptions(options: CorsOptions): void {
  policyOf(options);
}

/** True when a page of `origin` (an `Origin` header's value) may call the server. */
export function originAllowed(origin: string, options: CorsOptions): boolean {
  const { origins } = policyOf(options);
  return origins === null || origins.has(origin.toLowerCase());
}

/**
 * The answer to a CORS preflight (`OPTIONS` with `Origin` and `Access-Control-Request-Method`),
 * or undefined for any other request (it is served as usual, with {@link answerHeaders}).
 * Nothing of the server runs for a preflight.
 */
export function preflight(req: HttpRequestIn, options: CorsOptions): PreflightAnswer | undefined {
  if (req.method !== 'OPTIONS') return undefined;
  const origin = req.header('origin');
  if (origin === undefined || req.header('access-control-request-method') === undefined) return undefined;
  const policy = policyOf(options);
  if (!originAllowed(origin, options)) return { status: 403, message: REFUSED, headers: { vary: 'Origin' } };
  const headers: Record<string, string> = {
    ...allowOrigin(origin, policy),
    'access-control-allow-methods': CORS_METHODS,
    'access-control-allow-headers': allowedRequestHeaders(req.header('access-control-request-headers')),
    'access-control-max-age': policy.maxAge,
    // The allowed headers echo the asked ones; the allowed origin is the asker's unless any may call.
    vary: policy.origins === null ? 'Access-Control-Request-Headers' : 'Origin, Access-Control-Request-Headers',
  };
  // Chromium asks before a public page reaches a private address (Private Network Access); a listed origin may.
  if (req.header('access-control-request-private-network')?.toLowerCase() === 'true')
    headers['access-control-allow-private-network'] = 'true';
  return { status: 204, headers };
}

/**
 * The CORS headers of an answer to `req` (every answer but a preflight's, streams included: set
 * them before the first byte). An allowed origin is named (`*` when any may call) with the
 * headers a page may read, and `Access-Control-Allow-Credentials` with `credentials`;
 * `Vary: Origin` whenever the answer depends on the origin, so a cache never hands one origin's
 * answer to another. A request without `Origin` (not a cross-origin call) gets only that `Vary`.
 */
export function answerHeaders(req: HttpRequestIn, options: CorsOptions): Record<string, string> {
  const policy = policyOf(options);
  if (policy.origins === null) return { 'access-control-allow-origin': '*', 'access-control-expose-headers': EXPOSED };
  const origin = req.header('origin');
  if (origin === undefined || !originAllowed(origin, options)) return { vary: 'Origin' };
  return { ...allowOrigin(origin, policy), 'access-control-expose-headers': EXPOSED, vary: 'Origin' };
}

/** `Access-Control-Allow-Origin` (and `-Allow-Credentials`) for an allowed origin. */
function allowOrigin(origin: string, policy: CorsPolicy): Record<string, string> {
  if (policy.origins === null) return { 'access-control-allow-origin': '*' };
  const headers: Record<string, string> = { 'access-control-allow-origin': origin };
  if (policy.credentials) headers['access-control-allow-credentials'] = 'true';
  return headers;
}

/** MCP's request headers, and each `Mcp-*` header the preflight names that is not among them. */
function allowedRequestHeaders(requested: string | undefined): string {
  const names = [...CORS_REQUEST_HEADERS];
  if (requested === undefined) return names.join(', ');
  const added = new Set<string>();
  for (const part of requested.split(',')) {
    const name = part.trim().toLowerCase();
    if (MCP_HEADER.test(name) && !BASE_REQUEST_HEADERS.has(name) && !added.has(name)) {
      added.add(name);
      names.push(name);
    }
  }
  return names.join(', ');
}

function policyOf(options: CorsOptions): CorsPolicy {
  let policy = policies.get(options);
  if (!policy) policies.set(options, (policy = compile(options)));
  return policy;
}

function compile(options: CorsOptions): CorsPolicy {
  if (typeof options !== 'object' || options === null)
    throw new McpError('INVALID_ARGUMENT', 'HTTP handler option "cors" must be an object with "origins"');
  for (const key of Object.keys(options))
    if (!KEYS.has(key)) throw new McpError('INVALID_ARGUMENT', `unknown HTTP handler cors option "${key}"`);
  const credentials = options.credentials ?? false;
  if (typeof credentials !== 'boolean')
    throw new McpError('INVALID_ARGUMENT', 'HTTP handler option "cors.credentials" must be a boolean');
  const maxAge = options.maxAgeSeconds ?? DEFAULT_MAX_AGE_SECONDS;
  if (!Number.isInteger(maxAge) || maxAge < 0)
    throw new McpError(
      'INVALID_ARGUMENT',
      'HTTP handler option "cors.maxAgeSeconds" must be a whole number, not negative',
    );
  if (options.origins === '*') {
    // Any page sending its user's credentials would make every site a trusted one (Fetch forbids `*` there).
    if (credentials)
      throw new McpError('INVALID_ARGUMENT', 'HTTP handler option "cors.credentials" needs a list of origins, not "*"');
    return { origins: null, credentials, maxAge: String(maxAge) };
  }
  if (!Array.isArray(options.origins))
    throw new McpError('INVALID_ARGUMENT', 'HTTP handler option "cors.origins" must be a list of origins or "*"');
  const origins = new Set<string>();
  for (const entry of options.origins as readonly unknown[]) origins.add(originOf(entry));
  return { origins, credentials, maxAge: String(maxAge) };
}

/** An entry as browsers serialise it (`https://a.example`, lower case, no default port), or `INVALID_ARGUMENT`. */
function originOf(entry: unknown): string {
  const text = typeof entry === 'string' ? entry.trim().toLowerCase().replace(/\/$/, '') : '';
  if (!ORIGIN.test(text))
    throw new McpError(
      'INVALID_ARGUMENT',
      `HTTP handler option "cors.origins" takes origins (scheme://host[:port], no path): ${JSON.stringify(entry)}`,
    );
  if (!text.startsWith('http://') && !text.startsWith('https://')) return text; // an app scheme (an extension, a webview)
  try {
    return new URL(text).origin;
  } catch {
    throw new McpError(
      'INVALID_ARGUMENT',
      `HTTP handler option "cors.origins" has an entry that is not a URL: ${text}`,
    );
  }
}
