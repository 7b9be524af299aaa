/**
 * The spans of one traced session, built record by record: a request's span runs from the
 * record of the request to the record of its answer (or its cancel notice); a notification's
 * span is an instant. What the recording side sent is a CLIENT span, what it received and
 * handled a SERVER span (the conventions' `mcp.client` / `mcp.server`): a `dir: 'out'` request
 * of a client's trace is CLIENT, a server→client request (sampling, elicitation, roots) SERVER.
 *
 * Used whole by `trace export` and live by `--otlp-endpoint`: {@link SessionSpans.add} returns
 * the spans a record completes, {@link SessionSpans.finish} ends the requests still open.
 *
 * Rules beyond the conventions (documented in docs/cli.md):
 * - A request without an answer ends at its session's close or exit event with `error.type`
 *   {@link CONNECTION_CLOSED_ERROR} (what `mcpwire/otel` says of it; a change feed at a clean
 *   close is `cancelled`: the client ends it), or else at the session's last record with
 *   {@link UNANSWERED_ERROR}.
 * - A cancel notice ends the request it names: `error.type` `timeout` when its reason says it
 *   timed out (mcpwire's client words it so), else `cancelled`. A later answer is ignored.
 * - A POST answered by an HTTP error status alone ends its request with `error.type` the status.
 * - Progress and cancel notices are children of the request they name.
 * - `mcp.session.id` is the `Mcp-Session-Id` header of the record's own HTTP exchange (so legacy
 *   HTTP sessions only); `server.address` / `server.port` come from its URL (every span: the
 *   recording side is the client, as `mcpwire/otel` does for a client's connection).
 * - With `includePayloads`, a tool's result is kept when the call did not fail (as `mcpwire/otel`).
 */
import { META_KEYS } from '../../protocol/meta-keys.js';
import type { TraceRecord } from '../../observe/trace-record.js';
import {
  ATTR,
  classifyOutcome,
  EXECUTE_TOOL,
  networkTransportOf,
  spanNameOf,
  targetOf,
  type OperationOutcome,
} from '../../util/mcp-semconv.js';
import type { McpSpan, SpanAttributeValue, SpanOptions } from './mcp-span.js';
import { SessionClock } from './session-clock.js';
import { derivedSpanId, derivedTraceId, traceContextOf } from './span-ids.js';

/** `error.type` of a request the trace holds no answer to (and no close after it). */
export const UNANSWERED_ERROR = 'unanswered';
/** `error.type` of a request open when its connection closed: `mcpwire/otel`'s (the `McpError` code, lower-cased). */
export const CONNECTION_CLOSED_ERROR = 'connection_closed';

/** Requests remembered per session before the oldest is ended as unanswered. */
const MAX_OPEN = 10_000;

interface OpenRequest {
  span: McpSpan;
  /** `{dir}:{token}` when the request asked for progress. */
  progressToken?: string;
}

type Message = Record<string, unknown>;

export class SessionSpans {
  private readonly traceId: string;
  private readonly open = new Map<string, OpenRequest>();
  /** Open requests that asked for progress, by direction and progress token. */
  private readonly byToken = new Map<string, OpenRequest>();
  private readonly clock = new SessionClock();
  private seq = 0;
  private overHttp = false;
  private address: { host: string; port: number } | undefined;

  /** `session` names the session in ids and in {@link McpSpan.session}: the same name gives the same ids. */
  constructor(
    readonly server: string,
    readonly session: string,
    private readonly options: SpanOptions = {},
  ) {
    this.traceId = derivedTraceId(server, session);
  }

  /** Takes the session's next record (in order); returns the spans it finished. Never throws. */
  add(record: TraceRecord): McpSpan[] {
    const at = this.clock.timeOf(record);
    this.seq++;
    this.noteTransport(record);
    const done: McpSpan[] = [];
    if (record.kind === 'event') {
      if (record.event === 'close' || record.event === 'exit') done.push(...this.endAll(at, closedOutcome(record)));
      else if (record.event === 'http') this.httpStatusOnly(record, at, done);
      return done;
    }
    if (record.kind === 'invalid') return done;
    const items = Array.isArray(record.message) ? (record.message as unknown[]) : [record.message ?? sampled(record)];
    items.forEach((item, index) => {
      if (item === null || typeof item !== 'object' || Array.isArray(item)) return;
      this.item(record, item as Message, index, at, done);
    });
    return done;
  }

  /** Ends every request still open at the session's last record, as unanswered. */
  finish(): McpSpan[] {
    return this.endAll(this.clock.last, unanswered);
  }

  private item(record: TraceRecord, message: Message, index: number, at: number, done: McpSpan[]): void {
    const method = typeof message.method === 'string' ? message.method : undefined;
    // An error with id null answers the request its recorder (or the reader) matched it to.
    const id = message.id === null && 'error' in message && record.answers !== undefined ? record.answers : message.id;
    const hasId = typeof id === 'string' || typeof id === 'number';
    if (method !== undefined && hasId) this.start(record, message, method, id, index, at, done);
    else if (method !== undefined) done.push(this.notification(record, message, method, index, at, done));
    else if (hasId && ('result' in message || 'error' in message)) {
      // An answer travels the other way from its request.
      const key = keyOf(record.dir === 'in' ? 'out' : 'in', id);
      const open = this.take(key);
      if (!open) return;
      const span = open.span;
      if (record.protocolVersion !== undefined) span.attributes[ATTR.protocolVersion] ??= record.protocolVersion;
      const sessionId = sessionIdOf(record);
      if (sessionId !== undefined) span.attributes[ATTR.sessionId] ??= sessionId;
      const ended = this.end(span, at, outcomeOf(span.method, message));
      if (record.http) ended.http = httpOf(record);
      if (this.options.includePayloads && span.method === 'tools/call' && 'result' in message && !ended.status.error)
        span.attributes[ATTR.toolResult] = jsonText(message.result);
      done.push(ended);
    }
  }

  private start(
    record: TraceRecord,
    message: Message,
    method: string,
    id: string | number,
    index: number,
    at: number,
    done: McpSpan[],
  ): void {
    const kind = record.dir === 'out' ? 'client' : 'server';
    const params = message.params;
    const context = traceContextOf(params);
    const traceId = context?.traceId ?? this.traceId;
    const key = keyOf(record.dir, id);
    const span: McpSpan = {
      traceId,
      spanId: derivedSpanId(traceId, 'request', record.dir, key, String(this.seq), String(index)),
      ...(context ? { parentSpanId: context.parentSpanId } : {}),
      name: spanNameOf(method, targetOf(method, params)),
      kind,
      type: 'request',
      method,
      startMs: at,
      endMs: at,
      attributes: { ...this.common(record, method, params), [ATTR.requestId]: String(id) },
      status: { error: false },
      server: this.server,
      session: this.session,
    };
    if (this.options.includePayloads && method === 'tools/call' && params !== null && typeof params === 'object')
      span.attributes[ATTR.toolArguments] = jsonText((params as { arguments?: unknown }).arguments ?? {});
    // A reused id ends the request it reused (the peer broke the protocol, or a restart).
    const previous = this.take(key);
    if (previous) done.push(this.end(previous.span, at, unanswered()));
    else if (this.open.size >= MAX_OPEN) {
      const oldest = this.take(this.open.keys().next().value as string)!;
      done.push(this.end(oldest.span, at, unanswered()));
    }
    const token = progressTokenOf(params);
    const open: OpenRequest = token === undefined ? { span } : { span, progressToken: `${record.dir}:${token}` };
    this.open.set(key, open);
    if (open.progressToken !== undefined) this.byToken.set(open.progressToken, open);
  }

  private notification(
    record: TraceRecord,
    message: Message,
    method: string,
    index: number,
    at: number,
    done: McpSpan[],
  ): McpSpan {
    const kind = record.dir === 'out' ? 'client' : 'server';
    const params = message.params;
    const context = traceContextOf(params);
    const parent = this.parentOf(record, method, params, at, done);
    const traceId = context?.traceId ?? parent?.traceId ?? this.traceId;
    const parentSpanId = context?.parentSpanId ?? parent?.spanId;
    return {
      traceId,
      spanId: derivedSpanId(traceId, 'notification', record.dir, method, String(this.seq), String(index)),
      ...(parentSpanId !== undefined ? { parentSpanId } : {}),
      name: spanNameOf(method, targetOf(method, params)),
      kind,
      type: 'notification',
      method,
      startMs: at,
      endMs: at,
      attributes: this.common(record, method, params),
      status: { error: false },
      server: this.server,
      session: this.session,
    };
  }

  /**
   * The request a progress or cancel notice is about (and, for a cancel, ends it): a cancel names
   * a request that went the same way, progress one that went the other way.
   */
  private parentOf(
    record: TraceRecord,
    method: string,
    params: unknown,
    at: number,
    done: McpSpan[],
  ): McpSpan | undefined {
    if (params === null || typeof params !== 'object') return undefined;
    if (method === 'notifications/cancelled') {
      const requestId = (params as { requestId?: unknown }).requestId;
      if (typeof requestId !== 'string' && typeof requestId !== 'number') return undefined;
      const open = this.take(keyOf(record.dir, requestId));
      if (!open) return undefined;
      const reason = (params as { reason?: unknown }).reason;
      const message = typeof reason === 'string' ? reason : undefined;
      const outcome: OperationOutcome =
        message !== undefined && /timed out|timeout/i.test(message)
          ? { kind: 'timeout', message }
          : { kind: 'cancelled', ...(message !== undefined ? { message } : {}) };
      done.push(this.end(open.span, at, outcome));
      return open.span;
    }
    if (method === 'notifications/progress') {
      const token = (params as { progressToken?: unknown }).progressToken;
      if (typeof token !== 'string' && typeof token !== 'number') return undefined;
      // Progress travels the other way from the request that asked for it.
      return this.byToken.get(`${record.dir === 'in' ? 'out' : 'in'}:${String(token)}`)?.span;
    }
    return undefined;
  }

  /** Removes and returns the open request under `key`. */
  private take(key: string): OpenRequest | undefined {
    const open = this.open.get(key);
    if (!open) return undefined;
    this.open.delete(key);
    if (open.progressToken !== undefined && this.byToken.get(open.progressToken) === open)
      this.byToken.delete(open.progressToken);
    return open;
  }

  private common(record: TraceRecord, method: string, params: unknown): Record<string, SpanAttributeValue> {
    const target = targetOf(method, params);
    const attributes: Record<string, SpanAttributeValue> = { [ATTR.methodName]: method };
    const version = record.protocolVersion ?? metaVersion(params);
    if (version !== undefined) attributes[ATTR.protocolVersion] = version;
    const sessionId = sessionIdOf(record);
    if (sessionId !== undefined) attributes[ATTR.sessionId] = sessionId;
    if (target.toolName !== undefined) {
      attributes[ATTR.toolName] = target.toolName;
      if (method === 'tools/call') attributes[ATTR.operationName] = EXECUTE_TOOL;
    }
    if (target.promptName !== undefined) attributes[ATTR.promptName] = target.promptName;
    if (target.resourceUri !== undefined) attributes[ATTR.resourceUri] = target.resourceUri;
    const transport = networkTransportOf(this.overHttp ? 'http' : 'stdio');
    if (transport !== undefined) attributes[ATTR.networkTransport] = transport;
    if (this.overHttp) attributes[ATTR.networkProtocolName] = 'http';
    // The recording side is the client: the peer is the server, on both kinds of span.
    if (this.address) {
      attributes[ATTR.serverAddress] = this.address.host;
      attributes[ATTR.serverPort] = this.address.port;
    }
    return attributes;
  }

  private end(span: McpSpan, at: number, outcome: OperationOutcome): McpSpan {
    const side = span.kind === 'client' ? 'client' : 'server';
    const classified = classifyOutcome(side, outcome);
    span.endMs = Math.max(span.startMs, at);
    if (classified.errorType !== undefined) span.attributes[ATTR.errorType] = classified.errorType;
    if (classified.statusCode !== undefined) span.attributes[ATTR.statusCode] = classified.statusCode;
    span.status = {
      error: classified.isError,
      ...(classified.message !== undefined ? { message: classified.message } : {}),
    };
    return span;
  }

  private endAll(at: number, outcome: (method: string) => OperationOutcome): McpSpan[] {
    const spans = [...this.open.values()].map((open) => this.end(open.span, at, outcome(open.span.method)));
    this.open.clear();
    this.byToken.clear();
    return spans;
  }

  /** A POST answered by an HTTP error status and no message ends the request it carried. */
  private httpStatusOnly(record: TraceRecord, at: number, done: McpSpan[]): void {
    const status = record.http?.status;
    const id = record.detail?.id;
    if (status === undefined || status < 400 || (typeof id !== 'string' && typeof id !== 'number')) return;
    const open = this.take(keyOf('out', id));
    if (!open) return;
    const ended = this.end(open.span, at, { kind: 'failed', errorType: String(status), message: `HTTP ${status}` });
    ended.http = httpOf(record);
    done.push(ended);
  }

  private noteTransport(record: TraceRecord): void {
    const http = record.http;
    if (!http) return;
    this.overHttp = true;
    try {
      const url = new URL(http.url);
      const port = url.port !== '' ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
      this.address = { host: url.hostname.replace(/^\[|\]$/g, ''), port };
    } catch {
      // A URL the recorder could not write whole: keep the last good address.
    }
  }
}

/** The HTTP facts a span keeps of the record that ended it. */
function httpOf(record: TraceRecord): NonNullable<McpSpan['http']> {
  const http = record.http!;
  return {
    ...(http.status !== undefined ? { status: http.status } : {}),
    ...(http.headers ? { headers: http.headers } : {}),
  };
}

/** `mcp.session.id`: the `Mcp-Session-Id` header the record's exchange carried (legacy HTTP sessions only). */
function sessionIdOf(record: TraceRecord): string | undefined {
  const id = record.http?.headers?.['mcp-session-id'];
  return id === undefined || id === '' ? undefined : id;
}

function keyOf(dir: TraceRecord['dir'], id: string | number): string {
  return `${dir}:${typeof id === 'string' ? 's' : 'n'}:${id}`;
}

/** A record whose message JSON could not write keeps its id and method: enough for a span. */
function sampled(record: TraceRecord): Message | undefined {
  if (record.method === undefined && record.id === undefined) return undefined;
  const message: Message = {};
  if (record.method !== undefined && (record.kind === 'request' || record.kind === 'notification'))
    message.method = record.method;
  if (record.id !== undefined) message.id = record.id;
  if (record.kind === 'response') message.result = {};
  if (record.kind === 'error') message.error = {};
  return message;
}

function outcomeOf(method: string, answer: Message): OperationOutcome {
  if ('error' in answer) {
    const error = (answer.error ?? {}) as { code?: unknown; message?: unknown };
    const code = typeof error.code === 'number' ? error.code : 0;
    return { kind: 'rpc-error', code, ...(typeof error.message === 'string' ? { message: error.message } : {}) };
  }
  const result = answer.result as { isError?: unknown } | null | undefined;
  return { kind: 'result', isError: method === 'tools/call' && result?.isError === true };
}

function unanswered(): OperationOutcome {
  return { kind: 'failed', errorType: UNANSWERED_ERROR, message: 'no answer in the trace' };
}

/**
 * How a request open at a close or exit ended: a change feed (`subscriptions/listen`) at a clean
 * close was ended by the client itself (it cancels its streams as it closes); anything else lost
 * its connection.
 */
function closedOutcome(record: TraceRecord): (method: string) => OperationOutcome {
  const clean = record.event === 'close' && record.detail?.error === undefined;
  return (method) =>
    clean && method === 'subscriptions/listen'
      ? { kind: 'cancelled', message: 'ended by the client as it closed' }
      : { kind: 'failed', errorType: CONNECTION_CLOSED_ERROR, message: 'the connection closed before an answer' };
}

function metaOf(params: unknown): Record<string, unknown> | undefined {
  if (params === null || typeof params !== 'object') return undefined;
  const meta = (params as { _meta?: unknown })._meta;
  return meta !== null && typeof meta === 'object' ? (meta as Record<string, unknown>) : undefined;
}

function progressTokenOf(params: unknown): string | undefined {
  const token = metaOf(params)?.progressToken;
  return typeof token === 'string' || typeof token === 'number' ? String(token) : undefined;
}

/** The revision a 2026 request names in its `_meta`. */
function metaVersion(params: unknown): string | undefined {
  const version = metaOf(params)?.[META_KEYS.protocolVersion];
  return typeof version === 'string' ? version : undefined;
}

function jsonText(value: unknown): string {
  try {
    return JSON.stringify(value) ?? 'null';
  } catch {
    return '"(not writable as JSON)"';
  }
}
