/**
 * The calls of a trace: each request paired with its answer by (server, session, id, direction),
 * and the notifications that belong to a call (its progress, its cancel, the notifications of a
 * 2026 listen stream) tied to it. What `trace show --json` and `trace report` compute their
 * latency, error and timeline figures from. Pure computation; no I/O.
 *
 * Pairing rules: an answer travels the other way from its request, in the same session; among
 * requests still waiting under the same id the oldest is answered first. A request sent while
 * another with the same id still waits is a `duplicate`; an answer nobody waits for is an
 * orphan; an answer that comes after the request was cancelled is `late`. An error answer with id
 * `null` answers the request its recorder matched it to ({@link TraceRecord.answers}), else the
 * only request waiting in its session. A POST answered by an HTTP status alone (the `http` event
 * of mcpwire's client, the proxy's `http-response`, naming the request) with an error status (400
 * and up) answers that request; the proxy's `aborted` event naming a request (the client went
 * away from its exchange) leaves it `cancelled`.
 *
 * Negotiation: the era probe (a client's `server/discover`) refused with an error or left
 * unanswered before the client went on with `initialize` (or another discover), or whose refusal
 * its recorder marked `negotiation`, has the status `negotiation`: not an error, not open; so has
 * an `initialize` refused by HTTP 404 or 405 alone before the client tried again (a fall-back from
 * Streamable HTTP to HTTP+SSE).
 */
import { classifyOutcome, targetOf } from '../../util/mcp-semconv.js';
import type { TraceDirection, TraceRecord } from '../../observe/trace-record.js';
import { splitSessions, type TraceSession } from './trace-sessions.js';

/**
 * How a call ended: answered (`ok` or `error`), cancelled without an answer, never answered, or
 * `negotiation`: the era probe the server refused or ignored (the client then went on with `initialize`).
 */
export type CallStatus = 'ok' | 'error' | 'cancelled' | 'open' | 'negotiation';

/** One request and what became of it. Record positions are indices in the list that was paired. */
export interface TraceCall {
  server: string;
  /** The session's index (1-based, {@link splitSessions} order). */
  session: number;
  /** The request's direction (`out`: the client asked; `in`: the server asked). */
  dir: TraceDirection;
  id: string | number;
  method: string;
  /** The tool of a `tools/call`. */
  tool?: string;
  /** Position of the request's record, and of the item within it when it is a batch. */
  request: number;
  requestItem?: number;
  answer?: number;
  answerItem?: number;
  /** `t` of the request's record and of the answer's (ms on the session's clock). */
  sentAt?: number;
  answeredAt?: number;
  /** The answer record's `latencyMs`, else the difference of the two `t`s. */
  latencyMs?: number;
  status: CallStatus;
  /** `error.type` by the MCP conventions (client rule for `out` calls, server rule for `in` ones). */
  errorType?: string;
  /** The JSON-RPC error code of an error answer, as text. */
  statusCode?: string;
  errorMessage?: string;
  /** The HTTP status of the answer (or of the request's record when only a status came back). */
  httpStatus?: number;
  /** `params._meta.traceparent` of the request, when it carried one. */
  traceparent?: string;
  /** Position of the `notifications/cancelled` naming this call (or of the proxy's `aborted` event ending it). */
  cancel?: number;
  late?: boolean;
  duplicate?: boolean;
  /** The request's recorder marked it as the era probe ({@link TraceRecord.negotiation}). */
  probe?: boolean;
  /** Positions of notifications tied to this call (progress, cancel, stream notifications). */
  notes: number[];
}

/** The outcome of {@link pairCalls}. */
export interface TraceCalls {
  calls: TraceCall[];
  /** Positions of answers no request waited for (with the item, for batches). */
  orphans: Array<{ record: number; item?: number }>;
  /** The sessions of the records ({@link splitSessions}), and for each record position its session's index. */
  sessions: TraceSession[];
  sessionOf: number[];
  /** For a notification's position, the index in `calls` of the call it belongs to. */
  noteOf: Map<number, number>;
}

type Message = Record<string, unknown>;

/** The JSON-RPC messages of a record with their item index (undefined unless the record is a batch). */
function messagesOf(record: TraceRecord): Array<{ message: Message; item?: number }> {
  const m = record.message;
  if (Array.isArray(m))
    return m
      .map((message: unknown, item) => ({ message: message as Message, item }))
      .filter((e) => typeof e.message === 'object' && e.message !== null && !Array.isArray(e.message));
  if (typeof m === 'object' && m !== null) return [{ message: m as Message }];
  // A frame JSON could not write keeps its kind, id and method on the record.
  if (record.kind === 'request' || record.kind === 'notification')
    return [{ message: { id: record.id, method: record.method } }];
  if (record.kind === 'response' || record.kind === 'error')
    return [{ message: record.kind === 'error' ? { id: record.id, error: {} } : { id: record.id, result: {} } }];
  return [];
}

function isId(value: unknown): value is string | number {
  return typeof value === 'string' || typeof value === 'number';
}

function objectAt(value: unknown, key: string): Message | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const inner = (value as Message)[key];
  return typeof inner === 'object' && inner !== null && !Array.isArray(inner) ? (inner as Message) : undefined;
}

const other = (dir: TraceDirection): TraceDirection => (dir === 'out' ? 'in' : 'out');

/** Settles `call` with the answer `message` (at `position`, item `item`) of `record`. */
function settle(call: TraceCall, record: TraceRecord, position: number, item: number | undefined, message: Message) {
  call.answer = position;
  if (item !== undefined) call.answerItem = item;
  if (typeof record.t === 'number') call.answeredAt = record.t;
  if (item === undefined && typeof record.latencyMs === 'number') call.latencyMs = record.latencyMs;
  else if (call.sentAt !== undefined && call.answeredAt !== undefined)
    call.latencyMs = Math.round((call.answeredAt - call.sentAt) * 1000) / 1000;
  if (typeof record.http?.status === 'number') call.httpStatus = record.http.status;
  if (call.cancel !== undefined) call.late = true;
  if (record.kind === 'event') {
    // Only an HTTP status came back.
    const status = call.httpStatus;
    if (status !== undefined && status < 400) call.status = 'ok';
    else {
      call.status = 'error';
      call.errorType = status === undefined ? 'http' : String(status);
      call.errorMessage = status === undefined ? 'no message in the answer' : `HTTP ${status}`;
    }
    return;
  }
  const side = call.dir === 'out' ? 'client' : 'server';
  const error = objectAt(message, 'error');
  if ('error' in message) {
    const code = typeof error?.code === 'number' ? error.code : undefined;
    const text = typeof error?.message === 'string' ? error.message : undefined;
    call.status = 'error';
    if (text !== undefined) call.errorMessage = text;
    if (code !== undefined) {
      const outcome = classifyOutcome(side, {
        kind: 'rpc-error',
        code,
        ...(text !== undefined ? { message: text } : {}),
      });
      if (outcome.errorType !== undefined) call.errorType = outcome.errorType;
      if (outcome.statusCode !== undefined) call.statusCode = outcome.statusCode;
    }
    return;
  }
  const isError = objectAt(message, 'result')?.isError === true;
  const outcome = classifyOutcome(side, { kind: 'result', isError });
  call.status = isError ? 'error' : 'ok';
  if (outcome.errorType !== undefined) call.errorType = outcome.errorType;
}

/** Pairs the requests and answers of `records` (file order) and ties notifications to their calls. Never throws. */
export function pairCalls(records: readonly TraceRecord[]): TraceCalls {
  const sessionOf: number[] = new Array<number>(records.length).fill(0);
  const sessions = splitSessions(records);
  for (const session of sessions) for (const position of session.positions) sessionOf[position] = session.index;

  const calls: TraceCall[] = [];
  const orphans: TraceCalls['orphans'] = [];
  const noteOf = new Map<number, number>();
  // session + request direction + id → indices of calls waiting, oldest first.
  const waiting = new Map<string, number[]>();
  // session + request direction + id → the latest call with that id (for cancels and streams).
  const latest = new Map<string, number>();
  // session + request direction + progress token → call.
  const tokens = new Map<string, number>();
  // session + request direction → calls waiting (for an error with id null: the only one waiting).
  const pending = new Map<string, Set<number>>();
  const side = (session: number, dir: TraceDirection) => `${session}\u0000${dir}`;
  const answer = (
    k: string,
    record: TraceRecord,
    position: number,
    item: number | undefined,
    message: Message,
  ): boolean => {
    const queue = waiting.get(k);
    const index = queue?.shift();
    if (index === undefined) return false;
    const call = calls[index]!;
    pending.get(side(call.session, call.dir))?.delete(index);
    settle(call, record, position, item, message);
    return true;
  };
  // session → positions of its `initialize` and `server/discover` requests: what a client sends
  // next when the server refused or ignored its probe.
  const nextStep = new Map<number, number[]>();
  const key = (session: number, dir: TraceDirection, id: unknown) =>
    `${session}\u0000${dir}\u0000${typeof id}:${String(id)}`;
  const tie = (position: number, index: number | undefined) => {
    if (index === undefined || noteOf.has(position)) return;
    noteOf.set(position, index);
    calls[index]!.notes.push(position);
  };

  records.forEach((record, position) => {
    const session = sessionOf[position]!;
    if (record.kind === 'event') {
      const id = record.detail?.id;
      // mcpwire's client: a POST answered by a status line alone names the request it carried.
      const statusOnly = record.event === 'http' || record.event === 'http-response';
      const status = record.http?.status ?? record.detail?.status;
      // Below 400 (a 202) the answer is still to come, on a stream.
      if (
        statusOnly &&
        typeof status === 'number' &&
        status >= 400 &&
        isId(id) &&
        typeof record.detail?.request === 'string'
      )
        answer(key(session, 'out', id), record, position, undefined, {});
      // The proxy saw the client go away from the exchange of a request: it gave up on it.
      if (record.event === 'aborted' && isId(id) && typeof record.detail?.request === 'string') {
        const index = waiting.get(key(session, 'out', id))?.[0];
        if (index !== undefined && calls[index]!.status === 'open') {
          calls[index]!.status = 'cancelled';
          calls[index]!.cancel ??= position;
        }
      }
      return;
    }
    if (record.kind === 'invalid') return;
    for (const { message, item } of messagesOf(record)) {
      const method = typeof message.method === 'string' ? message.method : undefined;
      const id = message.id;
      if (method !== undefined && isId(id)) {
        const params = message.params;
        const call: TraceCall = {
          server: record.server,
          session,
          dir: record.dir,
          id,
          method,
          request: position,
          status: 'open',
          notes: [],
        };
        if (item !== undefined) call.requestItem = item;
        if (typeof record.t === 'number') call.sentAt = record.t;
        const tool = targetOf(method, params).toolName;
        if (tool !== undefined) call.tool = tool;
        const meta = objectAt(params, '_meta');
        if (typeof meta?.traceparent === 'string') call.traceparent = meta.traceparent;
        // Only a status came back (an HTTP error before any JSON-RPC answer).
        if (typeof record.http?.status === 'number') call.httpStatus = record.http.status;
        if (record.negotiation === true) call.probe = true;
        if ((method === 'initialize' || method === 'server/discover') && record.dir === 'out')
          nextStep.set(session, [...(nextStep.get(session) ?? []), position]);
        const k = key(session, record.dir, id);
        const queue = waiting.get(k) ?? [];
        if (queue.length > 0) call.duplicate = true;
        queue.push(calls.length);
        waiting.set(k, queue);
        latest.set(k, calls.length);
        const s = side(session, record.dir);
        if (!pending.has(s)) pending.set(s, new Set());
        pending.get(s)!.add(calls.length);
        const token = meta?.progressToken;
        if (isId(token)) tokens.set(key(session, record.dir, token), calls.length);
        calls.push(call);
      } else if (method !== undefined) {
        const params = message.params;
        // A notification about a call names it: progress by token, a cancel by id, a 2026
        // listen stream's notifications by the listen request's id.
        if (method === 'notifications/progress') {
          const token = (params as Message | undefined)?.progressToken;
          tie(position, tokens.get(key(session, other(record.dir), token)));
        } else if (method === 'notifications/cancelled') {
          const index = latest.get(key(session, record.dir, (params as Message | undefined)?.requestId));
          if (index !== undefined && calls[index]!.cancel === undefined) {
            calls[index]!.cancel = position;
            if (calls[index]!.answer === undefined) calls[index]!.status = 'cancelled';
          }
          tie(position, index);
        } else {
          const stream = objectAt(params, '_meta')?.['io.modelcontextprotocol/subscriptionId'];
          if (isId(stream)) tie(position, latest.get(key(session, other(record.dir), stream)));
        }
      } else if (isId(id) || 'result' in message || 'error' in message) {
        let to: unknown = id;
        if (id === null && 'error' in message && item === undefined) {
          if (isId(record.answers)) to = record.answers;
          else {
            const lone = pending.get(side(session, other(record.dir)));
            if (lone?.size === 1) to = calls[lone.values().next().value!]!.id;
          }
        }
        if (!answer(key(session, other(record.dir), to), record, position, item, message))
          orphans.push(item === undefined ? { record: position } : { record: position, item });
      }
    }
  });
  for (const call of calls)
    if (
      isRefusedProbe(call, records, nextStep) ||
      isRefusedRoute(call, nextStep) ||
      isRefusedGuess(call, records, nextStep)
    )
      call.status = 'negotiation';
  return { calls, orphans, sessions, sessionOf, noteOf };
}

/**
 * An `initialize` a URL refused by status alone (404, 405: not a Streamable HTTP endpoint) before
 * the client went on with another `initialize` in the same session (over HTTP+SSE): the
 * transport's negotiation, not an error.
 */
function isRefusedRoute(call: TraceCall, nextStep: Map<number, number[]>): boolean {
  if (call.dir !== 'out' || call.method !== 'initialize' || call.status !== 'error') return false;
  if (call.httpStatus !== 404 && call.httpStatus !== 405) return false;
  if (call.errorMessage !== `HTTP ${call.httpStatus}`) return false;
  return (nextStep.get(call.session) ?? []).some((position) => position > call.request);
}

/**
 * An `initialize` refused with an error after which the client went back to `server/discover` in
 * the same session: its guess of the legacy era (a ping answered before the probe, a remembered
 * verdict) was wrong, and the probe decides. Negotiation, not an error.
 */
function isRefusedGuess(call: TraceCall, records: readonly TraceRecord[], nextStep: Map<number, number[]>): boolean {
  if (call.dir !== 'out' || call.method !== 'initialize' || call.status !== 'error') return false;
  if (call.httpStatus === 401 || call.httpStatus === 403) return false;
  const later = (nextStep.get(call.session) ?? []).filter((position) => position > call.request);
  return later.some((position) => records[position]!.method === 'server/discover');
}

/**
 * The era probe refused or ignored: a client's `server/discover` answered with an error or left
 * without an answer, when its recorder marked the answer as negotiation or the client went on in
 * the same session with `initialize` (the server is not of the 2026 era) or another discover (a
 * revision the server does not support). Refused credentials (401, 403) are no verdict on the era.
 */
function isRefusedProbe(call: TraceCall, records: readonly TraceRecord[], nextStep: Map<number, number[]>) {
  // The `ping` a client sends behind its probe (marked by the recorder) goes with it.
  if (call.dir !== 'out' || (call.method !== 'server/discover' && !(call.method === 'ping' && call.probe)))
    return false;
  if (call.status !== 'error' && call.status !== 'open' && call.status !== 'cancelled') return false;
  if (call.answer !== undefined && records[call.answer]!.negotiation === true) return true;
  if (call.httpStatus === 401 || call.httpStatus === 403) return false;
  return (nextStep.get(call.session) ?? []).some((position) => position > call.request);
}
