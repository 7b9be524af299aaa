/**
 * The McpErrors of HTTP exchanges. Every message names the URL (redacted) and, through the
 * error's prefix, the server and the method; `data` carries what a program needs to decide
 * (`status`, `wwwAuthenticate`, `body`, `retryable`), `cause` the underlying error.
 */
import { McpError } from '../../protocol/errors.js';
import { redactUrl, scrubSecrets } from '../../protocol/redact.js';

/** What one failing exchange was about. */
export interface ExchangeContext {
  server: string;
  /** The JSON-RPC method of the message, or a label such as `GET stream`. */
  method: string | undefined;
  url: string;
  /** Values that must never appear in an error (configured header values). */
  secrets: readonly string[];
}

/** Longest response body quoted in an error. */
const BODY_QUOTE = 300;

/**
 * The error for a response with a failing status. 401/403 give `AUTH_REQUIRED` with the
 * `WWW-Authenticate` challenge; everything else `TRANSPORT` with the status and a quote of the
 * body (JSON-RPC error text when the body is one).
 */
export function statusError(ctx: ExchangeContext, status: number, wwwAuthenticate: string | undefined, body: string): McpError {
  const url = redactUrl(ctx.url);
  const quoted = quoteBody(body, ctx.secrets);
  if (status === 401 || status === 403) {
    const challenge = wwwAuthenticate ? scrubSecrets(wwwAuthenticate, ctx.secrets) : undefined;
    const what = status === 401 ? 'authorization required' : 'forbidden (insufficient scope or credentials)';
    return new McpError('AUTH_REQUIRED', `HTTP ${status} from ${url}: ${what}${challenge ? ` (WWW-Authenticate: ${challenge})` : ''}`, {
      server: ctx.server,
      method: ctx.method,
      data: { status, url, ...(challenge ? { wwwAuthenticate: challenge } : {}), ...(quoted ? { body: quoted } : {}) },
    });
  }
  return new McpError('TRANSPORT', `HTTP ${status} from ${url}${quoted ? `: ${quoted}` : ''}`, {
    server: ctx.server,
    method: ctx.method,
    data: { status, url, ...(quoted ? { body: quoted } : {}) },
  });
}

/** The error for a request that never got a response: refused, DNS, TLS, reset. */
export function networkError(ctx: ExchangeContext, error: unknown): McpError {
  const url = redactUrl(ctx.url);
  const detail = describeNetworkError(error);
  return new McpError('TRANSPORT', `cannot reach ${url}: ${scrubSecrets(detail, ctx.secrets)}`, {
    server: ctx.server,
    method: ctx.method,
    cause: error,
    // `unreachable`: no HTTP exchange happened at all (refused, DNS, TLS, reset before a status).
    data: { url, retryable: true, unreachable: true },
  });
}

/**
 * The error for a request whose response stream broke and whose server then refused the
 * reconnect (`Last-Event-ID`): the server is gone, and the request may have run before it went.
 */
export function resumeRefusedError(ctx: ExchangeContext, error: unknown): McpError {
  const url = redactUrl(ctx.url);
  const detail = scrubSecrets(describeNetworkError(error), ctx.secrets);
  return new McpError('TRANSPORT', `the response stream broke and cannot be resumed: cannot reach ${url}: ${detail} (the server may have run the request; it is not re-sent)`, {
    server: ctx.server,
    method: ctx.method,
    cause: error,
    data: { url, unreachable: true },
  });
}

/** The error for a response that broke the rules: not JSON, wrong content type, oversize, cut short. */
export function responseError(ctx: ExchangeContext, what: string, extra: Record<string, unknown> = {}): McpError {
  const url = redactUrl(ctx.url);
  return new McpError('TRANSPORT', `${what} (${url})`, { server: ctx.server, method: ctx.method, data: { url, ...extra } });
}

function quoteBody(body: string, secrets: readonly string[]): string {
  const trimmed = body.trim();
  if (trimmed === '') return '';
  let text = trimmed;
  try {
    const parsed = JSON.parse(trimmed) as { error?: { code?: unknown; message?: unknown } };
    if (parsed && typeof parsed.error === 'object' && parsed.error !== null && typeof parsed.error.message === 'string') {
      text = `${parsed.error.message}${typeof parsed.error.code === 'number' ? ` (${parsed.error.code})` : ''}`;
    }
  } catch {
    // Not JSON: quote the text.
  }
  text = scrubSecrets(text, secrets).replace(/\s+/g, ' ');
  return text.length > BODY_QUOTE ? `${text.slice(0, BODY_QUOTE)}…` : text;
}

const CONNECT_FAILURES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'EADDRNOTAVAIL']);

/**
 * True when `error` (or one of its causes) says no connection could be made at all: refused, no
 * such host, no route. Such a server is down, not slow: a transport that sees it on any exchange
 * closes, so pending requests fail at once and a supervisor can restart. (A reset or a timeout
 * may be transient and does not count.)
 */
export function isConnectFailure(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; current instanceof Error && depth < 5; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && CONNECT_FAILURES.has(code)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/** Turns undici / Node socket errors into one readable line: `connect ECONNREFUSED 127.0.0.1:9`. */
function describeNetworkError(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current instanceof Error && depth < 4; depth++) {
    const code = (current as { code?: unknown }).code;
    const line = current.message || String(code ?? current.name);
    if (!parts.includes(line)) parts.push(typeof code === 'string' && !line.includes(code) ? `${line} (${code})` : line);
    current = (current as { cause?: unknown }).cause;
  }
  return parts.length > 0 ? parts.join(': ') : String(error);
}
