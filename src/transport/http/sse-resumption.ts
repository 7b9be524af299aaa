/**
 * Reading a request's SSE stream (Streamable HTTP) until its response arrives, resuming it after
 * a drop as the legacy shape allows (`D/2025-11-25/basic/transports.mdx`): a GET with
 * `Last-Event-ID` after the server's `retry` (else `defaultRetryMs`, doubling), the replayed
 * events going through the same decoder, at most `maxResumeAttempts` tries in a row without
 * progress. The modern era and a stream without event ids are not resumed.
 *
 * Contract: resolves once the response was delivered, or quietly when the request's own signal
 * aborted (the connection already settled it); rejects with `CONNECTION_CLOSED` when the
 * transport closed under it, a `SizeLimitError` when the response was most likely an event over
 * the cap (never re-sent), and otherwise a `TRANSPORT` `HttpError` whose `resend` is
 * `if-idempotent` (the server may have run the request). A refused resumption closes the
 * transport (`lost`): the server is gone.
 */
import { errorMessage, McpError } from '../../protocol/errors.js';
import { redactUrl } from '../../util/redact.js';
import type { AbortLike } from '../../protocol/send-signal.js';
import type { HttpEngine, LiteResponse } from './http-engine.js';
import type { ExchangeLink } from './exchange-link.js';
import { discard, headerOf, mediaType, pumpSse, readText, type Body } from './http-body.js';
import {
  isConnectFailure,
  oversizeError,
  responseError,
  resumeRefusedError,
  statusError,
  type ExchangeContext,
} from './http-errors.js';
import type { HttpSession } from './legacy-session.js';
import { takeEvent, type AnswerSink, type Awaited, type Ctx } from './response-values.js';
import { SseDecoder } from './sse-decoder.js';
import { sleep } from './sleep.js';

/** What resuming needs of its transport. */
export interface ResumeHost extends AnswerSink {
  readonly url: URL;
  /** What sends the resumption GETs. */
  readonly engine: HttpEngine;
  /** The era the transport was told; read at each drop. */
  readonly era: HttpSession['era'];
  readonly defaultRetryMs: number;
  readonly maxResumeAttempts: number;
  /** Session id and negotiated version (legacy) on top of the fixed headers. */
  /** The headers of a GET on the session (a fresh DPoP proof, when the login is DPoP-bound). */
  sessionHeaders(signal?: AbortSignal): Promise<Record<string, string>>;
  /** The server cannot be reached any more: the transport closes with `error`. */
  lost(error: McpError): void;
}

/** Where a request's SSE stream stands, for resuming it. */
interface Cursor {
  lastEventId: string | undefined;
  retryMs: number | undefined;
  /** The context events are read in (with the facts of the latest GET when resumed and traced). */
  ctx: Ctx;
}

type Outcome = { end: 'ended' | 'stopped' | 'broken' | 'aborted'; error?: unknown };

/**
 * The end of an exchange whose signal aborted: quiet for the caller's abort (the connection
 * already settled the request), `CONNECTION_CLOSED` for the transport's close.
 */
export function abortedExchange(url: URL, signal: AbortLike | undefined, ctx: ExchangeContext): undefined {
  if (signal?.aborted) return undefined;
  throw new McpError('CONNECTION_CLOSED', `the HTTP transport to ${redactUrl(url)} was closed`, {
    server: ctx.server,
    method: ctx.method,
  });
}

/** Reads the SSE answer of a POST awaiting `awaited`, resuming it after drops (see the file comment). */
export async function readPostStream(
  host: ResumeHost,
  body: Body,
  awaited: Awaited,
  abort: ExchangeLink,
  signal: AbortLike | undefined,
  ctx: Ctx,
): Promise<void> {
  // `ctx` changes with each resumption: replayed events carry the facts of the GET that brought them.
  const cursor: Cursor = { lastEventId: undefined, retryMs: undefined, ctx };
  let progress = false;
  /** Size of an event the decoder dropped for exceeding the cap, if one was. */
  let dropped: number | undefined;
  const decoder = new SseDecoder(
    {
      event: (event) => {
        progress = true;
        takeEvent(host, event.event, event.data, cursor.ctx, awaited);
      },
      id: (id) => {
        cursor.lastEventId = id;
      },
      retry: (ms) => {
        cursor.retryMs = ms;
      },
      oversize: (chars) => {
        dropped = chars;
        host.diagnostic('oversize', `dropped an SSE event of ${chars} characters (cap ${host.maxBytes})`);
      },
    },
    { maxEventChars: host.maxBytes },
  );
  let outcome: { end: string; error?: unknown } = await pumpSse(body, decoder, () => awaited.got);
  let attempts = 0;
  while (!awaited.got) {
    if (abort.aborted) return abortedExchange(host.url, signal, ctx);
    // The response was most likely the event over the cap: say so, and never have it re-sent
    // (the same answer would be fetched, and dropped, again).
    if (dropped !== undefined) {
      throw oversizeError(
        ctx,
        `the SSE stream ended without the response after an event of ${dropped} characters was dropped: it exceeds ${host.maxBytes} bytes, the size limit (maxMessageBytes)`,
        host.maxBytes,
      );
    }
    const resumable = host.era !== 'modern' && cursor.lastEventId !== undefined;
    if (!resumable) {
      const why = outcome.error ? `: ${errorMessage(outcome.error)}` : '';
      throw responseError(ctx, `the SSE stream ended before the response arrived${why}`, { resend: 'if-idempotent' });
    }
    if (progress) attempts = 0;
    progress = false;
    if (++attempts > host.maxResumeAttempts) {
      throw responseError(
        ctx,
        `the SSE stream could not be resumed after ${host.maxResumeAttempts} attempts (last event id ${JSON.stringify(cursor.lastEventId)})`,
        { resend: 'if-idempotent' },
      );
    }
    const wait = cursor.retryMs ?? host.defaultRetryMs * 2 ** Math.max(0, attempts - 1);
    if (!(await sleep(wait, abort.combined()))) return abortedExchange(host.url, signal, ctx);
    outcome = await resume(host, cursor, decoder, awaited, abort, ctx);
  }
}

/** One GET with `Last-Event-ID`; the replayed events go through the same decoder. */
async function resume(
  host: ResumeHost,
  cursor: Cursor,
  decoder: SseDecoder,
  awaited: Awaited,
  abort: ExchangeLink,
  ctx: ExchangeContext,
): Promise<Outcome> {
  const headers: Record<string, string> = {
    ...(await host.sessionHeaders()),
    accept: 'text/event-stream',
    'last-event-id': cursor.lastEventId!,
  };
  const traced = host.reporter.out('GET', host.url, headers);
  let response: LiteResponse;
  try {
    response = await host.engine.exchange(host.url, {
      method: 'GET',
      headers,
      ...abort.signals,
      headersTimeout: 0,
      bodyTimeout: 0,
    });
  } catch (error) {
    if (abort.aborted) return { end: 'aborted' };
    // Refused (or no such host): the server is gone, e.g. a stateless server that died
    // mid-call. No later attempt can do better, and backing off would cost the caller its
    // whole timeout: fail now, and close like any exchange that finds the server unreachable.
    if (isConnectFailure(error)) {
      const failure = resumeRefusedError(ctx, error);
      host.lost(failure);
      throw failure;
    }
    return { end: 'broken', error };
  }
  const { statusCode: status, body } = response;
  const facts = host.reporter.facts(traced, 'GET', host.url, status, response.headers);
  host.reporter.in(facts);
  if (facts) cursor.ctx = { ...ctx, traced: facts };
  if (status === 404 && headers['mcp-session-id'] !== undefined) {
    discard(body);
    throw responseError(
      ctx,
      `the session expired while ${ctx.method} was in flight; the server may have executed it, so it is not re-sent`,
      { status },
    );
  }
  if (status < 200 || status >= 300 || mediaType(response.headers) !== 'text/event-stream') {
    const text = await readText(body, 64 * 1024).catch(() => '');
    throw statusError(
      { ...ctx, method: `${ctx.method} (resuming its stream)` },
      status,
      headerOf(response.headers, 'www-authenticate'),
      text,
    );
  }
  return pumpSse(body, decoder, () => awaited.got);
}
