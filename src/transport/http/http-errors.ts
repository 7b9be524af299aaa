/**
 * The errors of HTTP exchanges: {@link HttpError}s (and a {@link SizeLimitError} for a response
 * over the size limit) whose message names the URL (redacted) and, through the error's prefix,
 * the server and the method. What a program needs to decide — `status`, the parsed
 * `WWW-Authenticate` `challenge`, `body`, `unreachable`, `resend` — are typed fields of the
 * error; `cause` is the underlying error. No field or message holds a configured header value.
 */
import { parseAuthChallenges } from '../../util/auth-challenge.js';
import { HttpError, SizeLimitError, type ResendPolicy } from '../../protocol/errors.js';
import { redactUrl, scrubSecrets } from '../../util/redact.js';
import { peerText } from '../../protocol/value-sample.js';

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
/** Longest `WWW-Authenticate` value quoted in a message (the parsed `challenge` reads more of it). */
const CHALLENGE_QUOTE = 1000;

/**
 * The error for a response with a failing status. 401/403 give `AUTH_REQUIRED` with the
 * `WWW-Authenticate` challenges parsed into `challenge`; everything else `TRANSPORT` with the
 * status and a quote of the body (JSON-RPC error text when the body is one). Never re-sent.
 */
export function statusError(
  ctx: ExchangeContext,
  status: number,
  wwwAuthenticate: string | undefined,
  body: string,
  dpopNonce?: string,
): HttpError {
  const url = redactUrl(ctx.url);
  const quoted = quoteBody(body, ctx.secrets);
  const facts = { server: ctx.server, method: ctx.method, url, status, ...(quoted ? { body: quoted } : {}) };
  if (status === 401 || status === 403) {
    const header = wwwAuthenticate ? scrubSecrets(wwwAuthenticate, ctx.secrets) : undefined;
    const what = status === 401 ? 'authorization required' : 'forbidden (insufficient scope or credentials)';
    const challenge = parseAuthChallenges(header);
    return new HttpError(
      'AUTH_REQUIRED',
      `HTTP ${status} from ${url}: ${what}${header ? ` (WWW-Authenticate: ${peerText(header, CHALLENGE_QUOTE)})` : ''}`,
      {
        ...facts,
        ...(challenge.length > 0 ? { challenge } : {}),
        ...(dpopNonce !== undefined ? { dpopNonce } : {}),
      },
    );
  }
  return new HttpError('TRANSPORT', `HTTP ${status} from ${url}${quoted ? `: ${quoted}` : ''}`, facts);
}

/**
 * The error for a request that never got a response: refused, DNS, TLS, reset. `unreachable`;
 * `resend: 'unsent'` only when no connection was made at all (see {@link isConnectFailure}): a
 * reset may come after the server read the request.
 */
export function networkError(ctx: ExchangeContext, error: unknown): HttpError {
  const url = redactUrl(ctx.url);
  const detail = describeNetworkError(error);
  return new HttpError('TRANSPORT', `cannot reach ${url}: ${scrubSecrets(detail, ctx.secrets)}`, {
    server: ctx.server,
    method: ctx.method,
    cause: error,
    url,
    unreachable: true,
    resend: isConnectFailure(error) ? 'unsent' : 'never',
  });
}

/**
 * The error for a request whose response stream broke and whose server then refused the
 * reconnect (`Last-Event-ID`): the server is gone, and the request may have run before it went.
 */
export function resumeRefusedError(ctx: ExchangeContext, error: unknown): HttpError {
  const url = redactUrl(ctx.url);
  const detail = scrubSecrets(describeNetworkError(error), ctx.secrets);
  return new HttpError(
    'TRANSPORT',
    `the response stream broke and cannot be resumed: cannot reach ${url}: ${detail} (the server may have run the request; it is not re-sent)`,
    {
      server: ctx.server,
      method: ctx.method,
      cause: error,
      url,
      unreachable: true,
    },
  );
}

/**
 * The error for a response that broke the rules: not JSON, wrong content type, cut short. `facts`:
 * the status, and `resend: 'if-idempotent'` when the stream broke after the request went out.
 */
export function responseError(
  ctx: ExchangeContext,
  what: string,
  facts: { status?: number; resend?: ResendPolicy } = {},
): HttpError {
  const url = redactUrl(ctx.url);
  return new HttpError('TRANSPORT', `${what} (${url})`, { server: ctx.server, method: ctx.method, url, ...facts });
}

/**
 * The error for a response over `limit` bytes (`maxMessageBytes`): never re-sent, since the
 * same answer would be dropped again.
 */
export function oversizeError(ctx: ExchangeContext, what: string, limit: number, size?: number): SizeLimitError {
  const url = redactUrl(ctx.url);
  return new SizeLimitError(`${what} (${url})`, {
    server: ctx.server,
    method: ctx.method,
    url,
    limit,
    ...(size !== undefined ? { size } : {}),
  });
}

function quoteBody(body: string, secrets: readonly string[]): string {
  const trimmed = body.trim();
  if (trimmed === '') return '';
  let text = trimmed;
  try {
    const parsed = JSON.parse(trimmed) as { error?: { code?: unknown; message?: unknown } };
    if (
      parsed &&
      typeof parsed.error === 'object' &&
      parsed.error !== null &&
      typeof parsed.error.message === 'string'
    ) {
      text = `${parsed.error.message}${typeof parsed.error.code === 'number' ? ` (${parsed.error.code})` : ''}`;
    }
  } catch {
    // Not JSON: quote the text.
  }
  text = scrubSecrets(text, secrets).replace(/\s+/g, ' ');
  return text.length > BODY_QUOTE ? `${text.slice(0, BODY_QUOTE)}…` : text;
}

const CONNECT_FAILURES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'EADDRNOTAVAIL',
]);

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
    // Deno's fetch says it in words only: `client error (Connect): tcp connect error: Connection refused`.
    if (DENO_CONNECT_FAILURE.test(current.message)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

const DENO_CONNECT_FAILURE = /client error \(Connect\): (tcp connect error|dns error)/;

/** Turns undici / Node socket errors into one readable line: `connect ECONNREFUSED 127.0.0.1:9`. */
function describeNetworkError(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current instanceof Error && depth < 4; depth++) {
    const code = (current as { code?: unknown }).code;
    const line = current.message || String(code ?? current.name);
    if (!parts.includes(line))
      parts.push(typeof code === 'string' && !line.includes(code) ? `${line} (${code})` : line);
    current = (current as { cause?: unknown }).cause;
  }
  return parts.length > 0 ? parts.join(': ') : String(error);
}
