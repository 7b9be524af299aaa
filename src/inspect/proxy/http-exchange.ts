/**
 * One request through the HTTP recording proxy: read the client's body, record it, send it on
 * to the target, stream the answer back chunk by chunk as it arrives, and record what it held.
 * Bodies are passed on unchanged, except an SSE `endpoint` event that names the target's own
 * origin: it is pointed back at the proxy (see {@link SseEndpointRewriter}).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { StringDecoder } from 'node:string_decoder';
import type { Dispatcher } from 'undici';
import { redactUrl } from '../../util/redact.js';
import { SAMPLE_CHARS } from '../../protocol/value-sample.js';
import { exchange, type LiteBody, type LiteResponse } from '../../transport/http/dispatch.js';
import { mediaType } from '../../transport/http/http-body.js';
import { SseDecoder } from '../../transport/http/sse-decoder.js';
import { RAW_LIMIT, type TraceBuilder } from '../../observe/trace-builder.js';
import { DEFAULT_MAX_MESSAGE_BYTES } from '../../transport/ndjson-framer.js';
import type { TraceDirection, TraceHttp, TraceRecord } from '../../observe/trace-record.js';
import { endToEndHeaders, requestOf, traceHttp, withHttp } from './http-facts.js';
import { SseEndpointRewriter } from './sse-endpoint-rewriter.js';
import type { ProxySession, ProxySessions } from './proxy-sessions.js';

/** What every exchange of one proxy shares. */
export interface ExchangeContext {
  target: URL;
  /** `http://host:port` of the proxy's listener. */
  proxyOrigin: string;
  /** Added to (and overriding) the client's headers upstream; lower-case names. */
  headers: Record<string, string>;
  secrets: string[];
  /** The client sessions: each exchange is recorded by the builder of the session it belongs to. */
  sessions: ProxySessions;
  /** The builder records go to: the proxy's own (lifecycle), or within an exchange its session's. */
  builder: TraceBuilder;
  /** Within an exchange: the client session it belongs to. */
  session?: ProxySession;
  record: (record: TraceRecord) => void;
  dispatcher: Dispatcher;
  /** Aborted when the proxy closes: every exchange stops at once. */
  life: AbortSignal;
}

/** Largest request body the proxy accepts (a JSON-RPC message; larger gets 413). */
const MAX_REQUEST_BYTES = 64 * 1024 * 1024;
/**
 * Largest response body kept for recording (the transports' message cap); larger ones are forwarded whole but recorded
 * as `oversize`.
 */
const MAX_RECORDED_BYTES = DEFAULT_MAX_MESSAGE_BYTES;
/**
 * Headers the proxy never sends on: the target's host is undici's to set, the length is recomputed, `expect` is not
 * supported upstream.
 */
const NOT_FORWARDED = ['host', 'content-length', 'expect', 'accept-encoding'];

/**
 * Forwards one request and its response. Never rejects: an unreachable target is answered with
 * 502 and recorded as `upstream-error`; a client that goes away aborts the upstream request.
 */
export async function forwardExchange(ctx: ExchangeContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const method = req.method ?? 'GET';
  const path = req.url ?? '/';
  if (!path.startsWith('/')) {
    // Absolute-form targets would let a client point the proxy at any host.
    res
      .writeHead(400, { 'content-type': 'text/plain; charset=utf-8' })
      .end('mcpwire proxy: only origin-form request targets (/path?query) are forwarded\n');
    return;
  }
  const controller = new AbortController();
  const abort = () =>
    controller.abort(ctx.life.aborted ? new Error('the proxy is closing') : new Error('the client went away'));
  res.once('close', () => {
    if (!res.writableFinished) abort();
  });
  ctx.life.addEventListener('abort', abort, { once: true });
  const session = ctx.sessions.of(req);
  try {
    const record = (r: TraceRecord) => {
      ctx.sessions.noted(session, r);
      ctx.record(r);
    };
    const own = { ...ctx, builder: session.builder, record, session };
    await relay(own, session, req, res, method, new URL(ctx.target.origin + path), controller.signal);
  } finally {
    ctx.life.removeEventListener('abort', abort);
  }
}

async function relay(
  ctx: ExchangeContext,
  session: ProxySession,
  req: IncomingMessage,
  res: ServerResponse,
  method: string,
  url: URL,
  signal: AbortSignal,
): Promise<void> {
  const { builder, record } = ctx;
  const body = await readRequestBody(req, MAX_REQUEST_BYTES);
  if (body === 'aborted') return;
  const headers: Record<string, string | string[]> = { ...endToEndHeaders(req.headers, NOT_FORWARDED), ...ctx.headers };
  // Encoded bodies could not be recorded; identity is always acceptable to the client.
  if (req.headers['accept-encoding'] !== undefined) headers['accept-encoding'] = 'identity';
  const outFacts = traceHttp(method, url, headers, ctx.secrets);
  if (body === 'oversize') {
    record(
      withHttp(
        builder.event('oversize', { limit: MAX_REQUEST_BYTES, note: 'request body refused with 413' }, 'out'),
        outFacts,
      ),
    );
    res
      .writeHead(413, { 'content-type': 'text/plain; charset=utf-8', connection: 'close' })
      .end(`mcpwire proxy: request bodies are limited to ${MAX_REQUEST_BYTES} bytes\n`);
    return;
  }
  // The request an error with id null in the answer refers to (a lone request, not a batch).
  const carried = body.length > 0 ? requestOf(recordMessage(ctx, 'out', body, outFacts)) : undefined;
  const answering = carried?.id;
  // An abort names the request it ends: the client gave up on it (or, for a stream, closed it).
  const ended = carried ? { request: carried.method, id: carried.id } : {};
  if (body.length === 0) record(withHttp(builder.event('http-request', {}, 'out'), outFacts));

  let response: LiteResponse;
  try {
    // No header or body timeout: the client owns its timeouts, and its going away aborts this.
    response = await exchange(ctx.dispatcher, url, {
      method: method,
      headers,
      body: body.length > 0 ? body : null,
      signal,
      headersTimeout: 0,
      bodyTimeout: 0,
    });
  } catch (error) {
    if (signal.aborted) {
      record(withHttp(builder.event('aborted', { reason: reasonOf(signal.reason), ...ended }, 'out'), outFacts));
      return;
    }
    const reason = reasonOf(error);
    record(withHttp(builder.event('upstream-error', { error: reason }), outFacts));
    if (!res.headersSent) {
      res
        .writeHead(502, { 'content-type': 'text/plain; charset=utf-8' })
        .end(`mcpwire proxy: ${redactUrl(url)} could not be reached: ${reason}\n`);
    }
    return;
  }

  const { statusCode, headers: upHeaders, body: upBody } = response;
  const type = mediaType(upHeaders);
  const sse = type === 'text/event-stream';
  const inFacts = traceHttp(method, url, upHeaders, ctx.secrets, statusCode);
  ctx.sessions.answered(session, upHeaders);
  try {
    // An SSE stream's length changes when its endpoint event is rewritten; it is chunked from here.
    res.writeHead(statusCode, endToEndHeaders(upHeaders, sse ? ['content-length'] : []));
    // Headers go out now: an SSE client is waiting for them before any event.
    res.flushHeaders();
  } catch (error) {
    // A header Node refuses to send on (undici is more lenient about what it receives).
    upBody.destroy();
    record(
      withHttp(
        builder.event('upstream-error', { error: `the response could not be passed on: ${reasonOf(error)}` }),
        inFacts,
      ),
    );
    if (!res.headersSent)
      res
        .writeHead(502, { 'content-type': 'text/plain; charset=utf-8' })
        .end(`mcpwire proxy: the response of ${redactUrl(url)} could not be passed on\n`);
    return;
  }
  const tap = sse ? sseTap(ctx, inFacts, answering) : bodyTap(ctx, inFacts, type, answering);
  const rewriter = sse ? new SseEndpointRewriter((data) => rewriteEndpoint(ctx, data, url, inFacts)) : undefined;
  await pump(upBody, res, rewriter, tap, (error) => {
    if (signal.aborted)
      record(
        withHttp(
          builder.event('aborted', { reason: reasonOf(signal.reason), during: 'response body', ...ended }, 'out'),
          inFacts,
        ),
      );
    else
      record(withHttp(builder.event('upstream-error', { error: reasonOf(error), during: 'response body' }), inFacts));
  });
}

/** What the recording side does with the chunks of one response body. */
interface Tap {
  push(chunk: Buffer): void;
  end(): void;
}

/**
 * Streams `body` to `res` chunk by chunk (through `rewriter` for SSE), pausing while `res` is
 * full; every chunk is written before it is tapped. A broken upstream body ends the client's
 * response abruptly, so the client sees a broken stream rather than a clean end.
 */
function pump(
  body: LiteBody,
  res: ServerResponse,
  rewriter: SseEndpointRewriter | undefined,
  tap: Tap,
  broken: (error: unknown) => void,
): Promise<void> {
  return new Promise((resolve) => {
    let waiting = false;
    const resume = () => {
      waiting = false;
      body.resume();
    };
    body.on('data', (chunk: Buffer) => {
      const out = rewriter ? rewriter.push(chunk) : chunk;
      if (out.length > 0 && !res.write(out) && !waiting) {
        waiting = true;
        body.pause();
        res.once('drain', resume);
      }
      safely(() => tap.push(chunk));
    });
    body.once('end', () => {
      const rest = rewriter?.end();
      if (rest && rest.length > 0) res.write(rest);
      res.end();
      safely(() => tap.end());
      resolve();
    });
    body.once('error', (error) => {
      res.off('drain', resume);
      res.destroy();
      safely(() => tap.end());
      broken(error);
      resolve();
    });
  });
}

/**
 * JSON (or untyped) bodies become `in` frames; an empty body (202, DELETE) an `http-response` event with the status.
 */
function bodyTap(ctx: ExchangeContext, facts: TraceHttp, type: string, answering?: string | number): Tap {
  let chunks: Buffer[] = [];
  let size = 0;
  return {
    push(chunk) {
      size += chunk.length;
      if (size > MAX_RECORDED_BYTES) chunks = [];
      else chunks.push(chunk);
    },
    end() {
      const { builder, record } = ctx;
      if (size > MAX_RECORDED_BYTES)
        record(
          withHttp(
            builder.event('oversize', { bytes: size, note: 'a body too large to record; it was forwarded unchanged' }),
            facts,
          ),
        );
      else if (size === 0) record(statusAnswer(ctx, facts, answering, { status: facts.status }));
      else if (
        type === 'application/json' ||
        type.endsWith('+json') ||
        (type === '' && (facts.status !== 202 || isJson(chunks, size)))
      )
        recordMessage(ctx, 'in', Buffer.concat(chunks, size), facts, answering);
      else {
        // Not a message: a typed non-JSON body, or an untyped text with a 202 (an HTTP+SSE server's `Accepted`).
        const text = Buffer.concat(chunks, size).toString('utf8');
        record(
          statusAnswer(ctx, facts, answering, {
            status: facts.status,
            ...(type !== '' ? { contentType: type } : {}),
            body: text.length > SAMPLE_CHARS ? `${text.slice(0, SAMPLE_CHARS)}…` : text,
          }),
        );
      }
    },
  };
}

/** Whether a body is JSON (an untyped 202 that is not is the status's text, not a broken message). */
function isJson(chunks: Buffer[], size: number): boolean {
  try {
    JSON.parse(Buffer.concat(chunks, size).toString('utf8'));
    return true;
  } catch {
    return false;
  }
}

/** Each `message` event becomes an `in` frame; `endpoint` is recorded by the rewriter; other events as `sse-event`. */
function sseTap(ctx: ExchangeContext, facts: TraceHttp, answering?: string | number): Tap {
  const text = new StringDecoder('utf8');
  const decoder = new SseDecoder({
    event(event) {
      if (event.event === 'message') recordMessage(ctx, 'in', event.data, facts, answering);
      else if (event.event !== 'endpoint')
        ctx.record(
          withHttp(ctx.builder.event('sse-event', { event: event.event, data: event.data.slice(0, RAW_LIMIT) }), facts),
        );
    },
    oversize(bytes) {
      ctx.record(
        withHttp(
          ctx.builder.event('oversize', {
            bytes,
            note: 'an SSE event too large to record; it was forwarded unchanged',
          }),
          facts,
        ),
      );
    },
  });
  return {
    push: (chunk) => decoder.push(text.write(chunk)),
    end: () => {
      decoder.push(text.end());
      decoder.end();
    },
  };
}

/**
 * Points an endpoint at the proxy when it names the target's origin with an absolute URL. A
 * relative endpoint already resolves against the proxy's URL (same path), so it stays as it is.
 */
function rewriteEndpoint(ctx: ExchangeContext, data: string, streamUrl: URL, facts: TraceHttp): string | undefined {
  const note = (detail: Record<string, unknown>) =>
    ctx.record(withHttp(ctx.builder.event('endpoint', { url: data, ...detail }), facts));
  let resolved: URL;
  try {
    resolved = new URL(data, streamUrl);
  } catch {
    note({ rewritten: false, note: 'not a URL' });
    return undefined;
  }
  // The client's POSTs to this endpoint belong to the stream's session.
  if (ctx.session && resolved.origin === ctx.target.origin) ctx.sessions.endpoint(ctx.session, resolved);
  if (!/^([a-z][a-z\d+.-]*:|\/\/)/i.test(data.trim())) {
    note({ rewritten: false, note: 'relative: it resolves through the proxy as it is' });
    return undefined;
  }
  if (resolved.origin !== ctx.target.origin) {
    note({ rewritten: false, note: 'another origin than the target: left as it is' });
    return undefined;
  }
  const to = `${ctx.proxyOrigin}${resolved.pathname}${resolved.search}${resolved.hash}`;
  note({ rewritten: true, to });
  return to;
}

/**
 * A JSON body (or SSE data) as a frame record; anything that is not JSON as `invalid`. Returns the
 * decoded value (undefined for invalid). `answering`: the request the exchange carried.
 */
function recordMessage(
  ctx: ExchangeContext,
  dir: TraceDirection,
  body: Buffer | string,
  facts: TraceHttp,
  answering?: string | number,
): unknown {
  const text = typeof body === 'string' ? body : body.toString('utf8');
  const bytes = typeof body === 'string' ? Buffer.byteLength(body) : body.length;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    ctx.record(ctx.builder.invalid(dir, text, facts));
    return undefined;
  }
  ctx.record(ctx.builder.frame(dir, value, bytes, facts, answering));
  return value;
}

/**
 * Resolves with the whole body, `'oversize'` past `max` (the rest is drained), or `'aborted'` when the client went
 * away.
 */
function readRequestBody(req: IncomingMessage, max: number): Promise<Buffer | 'oversize' | 'aborted'> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= max) chunks.push(chunk);
    });
    req.once('end', () => resolve(size > max ? 'oversize' : Buffer.concat(chunks, size)));
    req.once('error', () => resolve('aborted'));
    req.once('close', () => {
      if (!req.complete) resolve('aborted');
    });
  });
}

/**
 * The `http-response` event of an answer without a JSON-RPC message. When the POST carried a
 * request and the status is an error (400 and up), that request is answered by this status
 * alone: the event names it (`request`, `id`) and takes its method and latency, as mcpwire's
 * client records such an answer.
 */
function statusAnswer(
  ctx: ExchangeContext,
  facts: TraceHttp,
  answering: string | number | undefined,
  detail: Record<string, unknown>,
): TraceRecord {
  if (answering === undefined || facts.status === undefined || facts.status < 400)
    return withHttp(ctx.builder.event('http-response', detail), facts);
  const answer = ctx.builder.answeredByStatus(answering, facts.status);
  const event = ctx.builder.event('http-response', { ...detail, request: answer.method, id: answering });
  return { ...withHttp(event, facts), ...answer };
}

function reasonOf(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as NodeJS.ErrnoException).code;
    const cause = error.cause instanceof Error ? error.cause.message : undefined;
    return [error.message || code || error.name, cause && cause !== error.message ? cause : undefined]
      .filter(Boolean)
      .join(': ');
  }
  return String(error);
}

function safely(fn: () => void): void {
  try {
    fn();
  } catch {
    // Recording never breaks forwarding; the recorder itself reports its failures.
  }
}
