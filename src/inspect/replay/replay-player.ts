/**
 * The server side of a recorded session, played back on the one JSON-RPC engine
 * ({@link JsonRpcConnection} in its server role: its router answers each request, its pending map
 * carries the replayed requests to the client). One player serves one client session from the
 * start of its script.
 *
 * Which recorded request a live one is:
 * - strict (the default): the next recorded request not served yet, in order; a recorded `ping`
 *   and a recorded `server/discover` the server refused (a client's era probe) are optional and
 *   skipped when the client sends the next request instead;
 * - loose: the first recorded request not served yet that matches, in any order;
 * - matching itself is `replay-match.ts`'s rule (method, params without `_meta`).
 * A live `ping` the recording does not have is answered `{}`; a live `server/discover` a legacy
 * recording does not have is answered -32601, as a legacy server does. Anything else that does
 * not match is answered {@link REPLAY_MISMATCH}, naming what was expected and what came, and
 * reported through `onLog`; the expected request stays expected.
 *
 * What the server sent while a request ran is sent tied to the live request before its answer,
 * with the spacing it was recorded with (each gap at most {@link MAX_GAP_MS}: clients that drop
 * progress arriving together with the answer see it as they did live), and the answer follows
 * at its recorded distance from the last of them. A progress notification carries the live
 * request's progress token (it is left out when the request has none); a request to the client
 * waits for the client's answer. What the server sent after an answer, or after a client
 * notification, follows that answer or the arrival of that notification. A request recorded
 * without an answer (cancelled, cut off) gets none: it waits for the client's cancel.
 */
import type { JsonRpcConnection } from '../../protocol/connection.js';
import { errorMessage } from '../../protocol/errors.js';
import type { InboundRequestContext } from '../../protocol/inbound-requests.js';
import {
  makeErrorResponse,
  makeResponse,
  RpcErrorCode,
  type JsonRpcId,
  type JsonRpcMessage,
  type JsonRpcRequest,
} from '../../protocol/jsonrpc.js';
import type { ServerRole } from '../../protocol/methods.js';
import type { Disposer } from '../../protocol/transport.js';
import { describeRequest, matchesRecorded } from './replay-match.js';
import type { RecordedRequest, ReplayScript, ServerMessage } from './replay-script.js';

/** The JSON-RPC error code of a request the recording does not have at this point (implementation-defined range). */
export const REPLAY_MISMATCH = -32090;

/** The longest pause kept between two messages the server sent while a request ran. */
export const MAX_GAP_MS = 1_000;

/** How long a replayed request to the client not tied to a live request may wait for its answer. */
const UNRELATED_REQUEST_MS = 60_000;

/** Options of {@link ReplayPlayer}. */
export interface ReplayOptions {
  /** Match in any order (default: in recorded order). */
  loose?: boolean;
  /** Receives one line per mismatch and per failed replayed request (the CLI writes them to stderr). */
  onLog?: (line: string) => void;
}

/** What a player has done so far. */
export interface ReplayStats {
  /** Recorded requests in the script. */
  recorded: number;
  /** Live requests answered from the recording. */
  served: number;
  /** Live requests answered {@link REPLAY_MISMATCH}. */
  mismatches: number;
  /** Recorded requests neither served nor skipped as optional. */
  unserved: number;
}

type Pick =
  | { step: RecordedRequest; skipped: RecordedRequest[] }
  | { answer: 'pong' | 'no-discover' }
  | { expected?: RecordedRequest };

const isOptional = (step: RecordedRequest): boolean =>
  step.method === 'ping' || (step.method === 'server/discover' && step.answer !== undefined && 'error' in step.answer);

export class ReplayPlayer {
  private readonly done = new Set<RecordedRequest>();
  private readonly noticed = new Set<object>();
  private readonly afterAnswer = new Map<JsonRpcId, RecordedRequest>();
  private preludeSent = false;
  /** Messages not tied to a live request go out one after another. */
  private queue: Promise<void> = Promise.resolve();
  private mismatches = 0;
  private served = 0;
  /** Aborted by {@link stop}: requests recorded without an answer stop waiting for the client's cancel. */
  private readonly stopping = new AbortController();

  constructor(
    readonly script: ReplayScript,
    private readonly options: ReplayOptions = {},
  ) {}

  /** Serves the script through `connection`'s router. Returns the disposers of what it registered. */
  attach(connection: JsonRpcConnection<ServerRole>): Disposer[] {
    return [
      connection.onAnyRequest((request, context) => this.answer(connection, request, context)),
      connection.onInboundEnd((id) => {
        const step = this.afterAnswer.get(id);
        if (!step) return;
        this.afterAnswer.delete(id);
        this.unrelated(connection, step.after);
      }),
      connection.onNotification('*', (_params, method) => this.notified(connection, method)),
    ];
  }

  /** What has been served so far. */
  stats(): ReplayStats {
    const requests = this.script.steps.filter((s): s is RecordedRequest => s.kind === 'request');
    return {
      recorded: requests.length,
      served: this.served,
      mismatches: this.mismatches,
      unserved: requests.filter((s) => !this.done.has(s)).length,
    };
  }

  /** The client will send nothing more: requests recorded without an answer are answered with an error now. */
  stop(): void {
    this.stopping.abort();
  }

  /** Resolves once every message not tied to a request that was due so far has been sent (or failed). */
  settled(): Promise<void> {
    return this.queue;
  }

  private async answer(
    connection: JsonRpcConnection<ServerRole>,
    request: JsonRpcRequest,
    context: InboundRequestContext,
  ): Promise<JsonRpcMessage> {
    const params = request.params as Record<string, unknown> | undefined;
    if (!this.preludeSent) {
      this.preludeSent = true;
      this.unrelated(connection, this.script.prelude);
    }
    const pick = this.pick(request.method, params);
    if ('answer' in pick)
      return pick.answer === 'pong'
        ? makeResponse(request.id, {})
        : makeErrorResponse(request.id, RpcErrorCode.MethodNotFound, 'Method not found');
    if (!('step' in pick)) return this.mismatch(request, params, pick.expected);
    const { step } = pick;
    for (const skipped of pick.skipped) this.done.add(skipped);
    this.done.add(step);
    this.served++;
    const token = (params?._meta as { progressToken?: unknown } | undefined)?.progressToken;
    let last = step.t;
    for (const message of step.before) {
      await pause(message.t - last, context.signal);
      last = message.t;
      if (context.signal.aborted) break;
      if (message.kind === 'notification') {
        const sent = withToken(message, token);
        if (sent !== false) context.notify(message.method, sent);
        continue;
      }
      try {
        await context.request(message.method, message.params);
      } catch (error) {
        this.log(`${this.where(message)}: ${message.method} to the client failed: ${errorMessage(error)}`);
      }
    }
    if (step.before.length > 0) await pause(step.answerT - last, context.signal);
    if (!step.answer) {
      // Recorded without an answer (cancelled, cut off): none now either, until the client cancels.
      await untilAborted([context.signal, this.stopping.signal]);
      return makeErrorResponse(request.id, RpcErrorCode.InternalError, 'the recording has no answer to this request');
    }
    if (step.after.length > 0) this.afterAnswer.set(request.id, step);
    if ('result' in step.answer) return makeResponse(request.id, step.answer.result);
    const { code, message, data } = step.answer.error as { code?: unknown; message?: unknown; data?: unknown };
    return makeErrorResponse(
      request.id,
      typeof code === 'number' ? code : RpcErrorCode.InternalError,
      typeof message === 'string' ? message : 'error',
      data,
    );
  }

  private pick(method: string, params: Record<string, unknown> | undefined): Pick {
    const open = this.script.steps.filter((s): s is RecordedRequest => s.kind === 'request' && !this.done.has(s));
    let expected: RecordedRequest | undefined;
    if (this.options.loose) {
      const step = open.find((s) => matchesRecorded(s, method, params));
      if (step) return { step, skipped: [] };
      expected = open.find((s) => s.method === method);
    } else {
      const skipped: RecordedRequest[] = [];
      for (const step of open) {
        if (matchesRecorded(step, method, params)) return { step, skipped };
        if (!isOptional(step)) {
          expected = step;
          break;
        }
        skipped.push(step);
      }
    }
    if (method === 'ping') return { answer: 'pong' };
    if (method === 'server/discover' && this.script.era === 'legacy') return { answer: 'no-discover' };
    return expected ? { expected } : {};
  }

  private mismatch(
    request: JsonRpcRequest,
    params: Record<string, unknown> | undefined,
    expected: RecordedRequest | undefined,
  ): JsonRpcMessage {
    this.mismatches++;
    const got = describeRequest(request.method, params);
    const message = expected
      ? `replay mismatch: expected request #${expected.index} ${describeRequest(expected.method, expected.params)} (${this.script.file}:${expected.line}), got ${got}`
      : this.options.loose
        ? `replay mismatch: no recorded request left matches ${got} (${this.script.file})`
        : `replay mismatch: the recording has no more requests, got ${got} (${this.script.file})`;
    this.log(message);
    const data = {
      ...(expected
        ? { expected: { index: expected.index, line: expected.line, method: expected.method, params: expected.params } }
        : {}),
      received: { method: request.method, ...(params !== undefined ? { params } : {}) },
    };
    return makeErrorResponse(request.id, REPLAY_MISMATCH, message, data);
  }

  private notified(connection: JsonRpcConnection<ServerRole>, method: string): void {
    const step = this.script.steps.find(
      (s) => s.kind === 'notification' && s.method === method && !this.noticed.has(s),
    );
    if (!step || step.kind !== 'notification') return;
    this.noticed.add(step);
    this.unrelated(connection, step.after);
  }

  /** Sends `messages` tied to no request, after whatever is queued already. */
  private unrelated(connection: JsonRpcConnection<ServerRole>, messages: readonly ServerMessage[]): void {
    if (messages.length === 0) return;
    this.queue = this.queue.then(async () => {
      for (const message of messages) {
        if (connection.isClosed) return;
        try {
          if (message.kind === 'notification') {
            // Progress of a request that is over has no token to carry: left out.
            if (message.method !== 'notifications/progress') await connection.notifyRaw(message.method, message.params);
          } else if (!this.stopping.signal.aborted) {
            const options = { timeoutMs: UNRELATED_REQUEST_MS, signal: this.stopping.signal };
            await connection.requestRaw(message.method, message.params, options);
          }
        } catch (error) {
          this.log(`${this.where(message)}: ${message.method} to the client failed: ${errorMessage(error)}`);
        }
      }
    });
  }

  private where(message: ServerMessage): string {
    return `${this.script.file}:${message.line}`;
  }

  private log(line: string): void {
    this.options.onLog?.(line);
  }
}

/** Waits `ms` (at most {@link MAX_GAP_MS}; nothing for 0 or less), or until `signal` aborts. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  if (!(ms > 0) || signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, Math.min(ms, MAX_GAP_MS));
    signal.addEventListener('abort', done, { once: true });
  });
}

/** Resolves once one of `signals` aborts. */
function untilAborted(signals: AbortSignal[]): Promise<void> {
  const any = AbortSignal.any(signals);
  if (any.aborted) return Promise.resolve();
  return new Promise((resolve) => any.addEventListener('abort', () => resolve(), { once: true }));
}

/** A notification's params for the live request: a progress notification gets its token (none without one). */
function withToken(message: ServerMessage, token: unknown): Record<string, unknown> | undefined | false {
  if (message.method !== 'notifications/progress') return message.params ?? undefined;
  if (token === undefined) return false;
  return { ...message.params, progressToken: token };
}
