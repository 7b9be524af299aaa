/**
 * One message's POST (Streamable HTTP, both eras) and its answer: a JSON body or an SSE stream
 * for a request (`sse-resumption.ts` reads and resumes that), 202 for a notification or a
 * response (some servers send 200 and a body, passed on when it is a JSON-RPC message), the
 * request's JSON-RPC error in a 4xx body (the request's answer, not a transport failure).
 *
 * Contract: resolves when the exchange is over (the response delivered, or the POST accepted);
 * rejects with `TRANSPORT` (an `HttpError` saying whether the message may be re-sent),
 * `AUTH_REQUIRED`, `CONNECTION_CLOSED`, or — legacy, a 404 for the session id sent —
 * `SessionExpiredError` after the host forgot that id. A server that cannot be reached closes the
 * transport (`lost`).
 */
import { McpError, SessionExpiredError, SizeLimitError } from '../../protocol/errors.js';
import type { JsonRpcMessage } from '../../protocol/jsonrpc.js';
import type { AbortLike } from '../../protocol/send-signal.js';
import { redactUrl } from '../../util/redact.js';
import type { LiteResponse } from './http-engine.js';
import type { ExchangeLink } from './exchange-link.js';
import { discard, headerOf, mediaType, readText, type Body } from './http-body.js';
import {
  isConnectFailure,
  networkError,
  oversizeError,
  responseError,
  statusError,
  type ExchangeContext,
} from './http-errors.js';
import { isResponseTo, quote, safeParse, type Awaited, type Ctx } from './response-values.js';
import { abortedExchange, readPostStream, type ResumeHost } from './sse-resumption.js';

/** What a POST exchange needs of its transport. */
export interface PostHost extends ResumeHost {
  readonly name: string;
  /** Time allowed for a notification or response POST to be answered. */
  readonly notificationTimeoutMs: number;
  /** Legacy: keeps the session id a response assigned. */
  assigned(headers: Record<string, string | string[] | undefined>): void;
  /** Legacy: a 404 answered session id `sent`; forgotten when it is still the current one. */
  expired(sent: string): void;
}

/** POSTs `message` with `headers` and reads its answer (see the file comment). */
export async function postExchange(
  host: PostHost,
  message: JsonRpcMessage,
  method: string | undefined,
  isRequest: boolean,
  signal: AbortLike | undefined,
  abort: ExchangeLink,
  headers: Record<string, string>,
  ctx: ExchangeContext,
): Promise<void> {
  const traced = host.reporter.out('POST', host.url, headers, message);
  let response: LiteResponse;
  try {
    response = await host.engine.exchange(host.url, {
      method: 'POST',
      headers,
      body: JSON.stringify(message),
      ...abort.signals,
      // A request's lifetime is the connection's business (timeouts, progress resets); an idle
      // SSE stream must never be cut by a default body timeout while its request is pending.
      headersTimeout: isRequest ? 0 : host.notificationTimeoutMs,
      bodyTimeout: 0,
    });
  } catch (error) {
    if (abort.aborted) return abortedExchange(host.url, signal, ctx);
    const failure = networkError(ctx, error);
    if (isConnectFailure(error)) host.lost(failure);
    throw failure;
  }
  const { statusCode: status, headers: responseHeaders, body } = response;
  const facts = host.reporter.facts(traced, 'POST', host.url, status, responseHeaders);
  const read: Ctx = facts ? { ...ctx, traced: facts } : ctx;

  const sentSession = headers['mcp-session-id'];
  if (status === 404 && sentSession !== undefined) {
    // The session is gone and the server never ran this message: whoever owns the session
    // starts a new one and sends again. Only the id that failed is forgotten (a concurrent
    // 404 must not drop a new session's id).
    host.reporter.in(facts);
    discard(body);
    host.expired(sentSession);
    // The session id is a credential of sorts (spec: handle it securely): not repeated in errors.
    throw new SessionExpiredError(
      `the session expired (HTTP 404 for its id); ${method ?? 'the message'} was not run (${redactUrl(host.url)})`,
      {
        server: host.name,
        method,
        url: redactUrl(host.url),
      },
    );
  }
  if (status < 200 || status >= 300) return rejectStatus(host, message, status, responseHeaders, body, read);
  if (host.era === 'legacy') host.assigned(responseHeaders);
  if (!isRequest) return readStray(host, body, responseHeaders, read);
  const id = (message as { id: string | number }).id;
  if (status === 202 || status === 204) {
    host.reporter.in(facts);
    discard(body);
    host.diagnostic(
      'no-response-body',
      `${method} was answered with HTTP ${status} and no body; waiting for the response on another stream`,
    );
    return;
  }
  const type = mediaType(responseHeaders);
  if (type === 'application/json') return readJson(host, body, read);
  if (type === 'text/event-stream') {
    const awaited: Awaited = { id, got: false };
    return readPostStream(host, body, awaited, abort, signal, read);
  }
  host.reporter.in(facts);
  discard(body);
  throw responseError(
    ctx,
    `unexpected Content-Type ${JSON.stringify(headerOf(responseHeaders, 'content-type') ?? '')} for ${method}`,
    { status },
  );
}

/** A status outside 2xx: the request's JSON-RPC error when the body is one, else an `HttpError`. */
async function rejectStatus(
  host: PostHost,
  message: JsonRpcMessage,
  status: number,
  headers: Record<string, string | string[] | undefined>,
  body: Body,
  ctx: Ctx,
): Promise<void> {
  const text = await readText(body, 64 * 1024).catch(() => '');
  // A modern server answers with the request's JSON-RPC error (unsupported version, header
  // mismatch, unknown method): that is the request's answer, not a transport failure.
  const value = text.trim() === '' ? undefined : safeParse(text);
  const id = 'id' in message ? message.id : undefined;
  if (id !== undefined && id !== null && isResponseTo(value, id)) {
    host.deliver(value, ctx);
    return;
  }
  host.reporter.in(ctx.traced);
  if (status >= 300 && status < 400) {
    const location = headerOf(headers, 'location');
    throw responseError(
      ctx,
      `HTTP ${status}: redirected${location ? ` to ${redactUrl(new URL(location, host.url))}` : ''}; a POST is not re-sent to another URL automatically`,
      { status },
    );
  }
  throw statusError(ctx, status, headerOf(headers, 'www-authenticate'), text, headerOf(headers, 'dpop-nonce'));
}

/** The answer to a notification or response POST: normally 202; some servers send 200 and a body. */
async function readStray(
  host: PostHost,
  body: Body,
  headers: Record<string, string | string[] | undefined>,
  ctx: Ctx,
): Promise<void> {
  if (mediaType(headers) !== 'application/json') {
    host.reporter.in(ctx.traced);
    discard(body);
    return;
  }
  const text = await readText(body, host.maxBytes).catch(() => '');
  const value = text.trim() === '' ? undefined : safeParse(text);
  // Only JSON-RPC messages are passed on; anything else (`{}`, `"ok"`) is tolerated silently.
  if (value !== undefined && typeof value === 'object' && value !== null && 'jsonrpc' in value)
    host.deliver(value, ctx);
  else host.reporter.in(ctx.traced);
}

/** A request's JSON answer, read whole under the size cap. */
async function readJson(host: PostHost, body: Body, ctx: Ctx): Promise<void> {
  let text: string;
  try {
    text = await readText(body, host.maxBytes);
  } catch (error) {
    host.reporter.in(ctx.traced);
    if (error instanceof SizeLimitError) throw oversizeError(ctx, error.reason, error.limit, error.size);
    // The transport closing under the read (its own McpError): that is the reason, not a broken stream.
    if (error instanceof McpError) throw error;
    throw responseError(ctx, `the response body broke off: ${String(error)}`, { resend: 'if-idempotent' });
  }
  const value = safeParse(text);
  if (value === undefined) {
    host.reporter.in(ctx.traced);
    throw responseError(ctx, `the response is not JSON: ${quote(text)}`);
  }
  host.deliver(value, ctx);
}
