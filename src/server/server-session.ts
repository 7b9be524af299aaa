/**
 * `ServerSession`: one connection of a server over a message transport (stdio, an in-memory
 * pair). It reads requests and notifications, runs each request with an AbortSignal of its own
 * (aborted by `notifications/cancelled` or the close), answers it — unless it was cancelled: the
 * spec says a cancelled request gets no answer — and tells a legacy client when the tool list
 * changes, and carries the server's own requests to a legacy client (sampling, elicitation,
 * roots). Modern requests on the same pipe are answered statelessly by the router; a 2026
 * `subscriptions/listen` stays open until the client cancels it or the session winds down. When the
 * client ends its input (stdio: stdin closed, the spec's shutdown), the calls in flight finish
 * and are answered, for at most `inputEndGraceMs`, and then the connection closes.
 */
import { McpError } from '../protocol/errors.js';
import {
  classifyMessage,
  makeErrorResponse,
  makeNotification,
  RpcErrorCode,
  type JsonRpcId,
  type JsonRpcMessage,
  type JsonRpcRequest,
} from '../protocol/jsonrpc.js';
import { LATEST_MODERN_REVISION } from '../protocol/revisions.js';
import type { CloseInfo, Disposer, Transport, TransportDiagnostic } from '../protocol/transport.js';
import type { LegacySession, RequestLink } from './request-link.js';
import { claimedRevision, routeRequest, type ServerCore } from './request-router.js';
import { batchRefusal } from './batch-gate.js';
import { OutboundRequests } from './outbound-requests.js';
import { isStdioServerTransport } from '../transport/kinds.js';

/** Options of {@link ServerSession}. */
export interface ServerSessionOptions {
  /**
   * After the client ends its input (stdio: stdin closed), how long calls in flight may take to
   * finish and be answered before they are aborted and the connection closes (default 10000 ms).
   */
  inputEndGraceMs?: number;
}

const OPTION_KEYS = new Set(['inputEndGraceMs']);
const DEFAULT_INPUT_END_GRACE_MS = 10_000;

/** One served connection. */
export class ServerSession {
  /** Resolves (never rejects) once the connection is closed, for whatever reason. */
  readonly closed: Promise<CloseInfo>;
  private readonly core: ServerCore;
  private readonly transport: Transport;
  private readonly running = new Map<JsonRpcId, AbortController>();
  /** Requests of ours to the client (legacy server→client input). */
  private readonly outbound = new OutboundRequests();
  private readonly disposers: Disposer[];
  private legacy: LegacySession | undefined;
  private readonly listChangedQueued = new Set<'tools' | 'resources' | 'prompts'>();
  private done = false;
  private closing: Promise<void> | undefined;
  /** Messages being handled, up to their answer being sent. */
  private handling = 0;
  /** Set once the input ended: closes the session when nothing is being handled any more. */
  private whenIdle: (() => void) | undefined;
  private graceTimer: NodeJS.Timeout | undefined;
  /**
   * Aborted when the session winds down gracefully: open `subscriptions/listen` streams answer with their completion
   * result.
   */
  private readonly windDown = new AbortController();
  /** Listen requests being served, up to their answer being sent: a graceful close waits for them. */
  private readonly listens = new Set<Promise<void>>();

  /** Throws `INVALID_ARGUMENT` for an unknown option key or a grace that is not a number ≥ 0. */
  constructor(core: ServerCore, transport: Transport, options: ServerSessionOptions = {}) {
    for (const key of Object.keys(options)) {
      if (!OPTION_KEYS.has(key)) throw new McpError('INVALID_ARGUMENT', `unknown ServerSession option "${key}"`);
    }
    const graceMs = options.inputEndGraceMs ?? DEFAULT_INPUT_END_GRACE_MS;
    if (!Number.isFinite(graceMs) || graceMs < 0)
      throw new McpError('INVALID_ARGUMENT', 'ServerSession option "inputEndGraceMs" must be a number ≥ 0');
    this.core = core;
    this.transport = transport;
    if (isStdioServerTransport(transport)) void transport.inputEnded.then(() => this.finishUp(graceMs));
    this.disposers = [
      transport.onMessage((value) => this.receive(value)),
      transport.onDiagnostic((diagnostic) => this.diagnostic(diagnostic)),
      core.tools.onChange(() => this.listChanged('tools')),
      core.resources.changes.add(() => this.listChanged('resources')),
      core.prompts.changes.add(() => this.listChanged('prompts')),
      this.onResourceUpdated((uri) => {
        if (this.legacy?.subscriptions.has(uri))
          this.send(makeNotification('notifications/resources/updated', { uri }));
      }),
    ];
    this.closed = transport.closed.then((info) => {
      this.shutdown();
      return info;
    });
  }

  /** The revision `initialize` settled on, or undefined before it (and on a modern-only connection). */
  get legacyRevision(): string | undefined {
    return this.legacy?.revision;
  }

  /** Requests being handled now (for tests and status). */
  get runningCount(): number {
    return this.running.size;
  }

  /**
   * Ends the open `subscriptions/listen` streams with their completion result, aborts the other
   * calls in flight and closes the transport. Idempotent.
   */
  close(): Promise<void> {
    if (!this.closing) {
      this.windDown.abort();
      // A listen answers within a few microtasks of the wind-down (it waits for nothing else).
      this.closing = Promise.all(this.listens).then(() => {
        this.shutdown();
        return this.transport.close();
      });
    }
    return this.closing;
  }

  private receive(value: unknown): void {
    if (this.done) return;
    if (!Array.isArray(value)) {
      this.handling++;
      const answered = this.handle(value).then((answer) => {
        if (answer) this.send(answer);
        this.handled();
      });
      if (isListen(value)) {
        this.listens.add(answered);
        void answered.then(() => this.listens.delete(answered));
      }
      return;
    }
    // A JSON-RPC batch (2025-03-26): the answers go back together, as one array.
    if (value.length === 0)
      return this.send(makeErrorResponse(null, RpcErrorCode.InvalidRequest, 'Invalid Request: empty batch'));
    const refusal = batchRefusal(this.batchRevision(value));
    if (refusal) return this.send(makeErrorResponse(null, RpcErrorCode.InvalidRequest, refusal));
    this.handling++;
    void Promise.all(value.map((item) => this.handle(item))).then((answers) => {
      const list = answers.filter((a): a is JsonRpcMessage => a !== undefined);
      if (list.length > 0) this.send(list as unknown as JsonRpcMessage);
      this.handled();
    });
  }

  /** What a batch is judged by: 2026-07-28 when one of its requests claims a `_meta` revision, else the session's. */
  private batchRevision(items: unknown[]): string | undefined {
    const modern = items.some(
      (item) => typeof item === 'object' && item !== null && claimedRevision(item as JsonRpcRequest) !== undefined,
    );
    return modern ? LATEST_MODERN_REVISION : this.legacy?.revision;
  }

  private handled(): void {
    this.handling--;
    if (this.handling === 0) this.whenIdle?.();
  }

  /**
   * The client ended its input: nothing more will come, and it will answer nothing (so requests
   * of ours to it fail now). The calls in flight finish and are answered; then, or after
   * `graceMs` (what is left aborted, unanswered), the connection closes.
   */
  private finishUp(graceMs: number): void {
    if (this.done || this.whenIdle) return;
    this.outbound.rejectAll(new McpError('CONNECTION_CLOSED', 'the client ended its input'));
    // Nobody will cancel the listens now: they end gracefully, so only real calls keep the session.
    this.windDown.abort();
    this.whenIdle = () => void this.close();
    if (this.handling === 0) return this.whenIdle();
    this.graceTimer = setTimeout(this.whenIdle, graceMs);
  }

  /** Handles one message; resolves to its answer, if it gets one. Never rejects. */
  private async handle(value: unknown): Promise<JsonRpcMessage | undefined> {
    const classified = classifyMessage(value);
    switch (classified.kind) {
      case 'request':
        return this.request(classified.message);
      case 'notification': {
        const { method, params } = classified.message;
        if (method === 'notifications/cancelled' && params && !Array.isArray(params)) {
          const id = params.requestId;
          if (typeof id === 'string' || typeof id === 'number')
            this.running.get(id)?.abort(new McpError('CANCELLED', 'cancelled by the client'));
        }
        return undefined;
      }
      case 'invalid':
        return makeErrorResponse(
          classified.id ?? null,
          RpcErrorCode.InvalidRequest,
          `Invalid Request: ${classified.reason}`,
        );
      case 'response':
        this.outbound.settle(classified.message.id, { result: classified.message.result });
        return undefined;
      case 'error':
        this.outbound.settle(classified.message.id, { error: classified.message.error });
        return undefined;
      default:
        return undefined;
    }
  }

  private async request(request: {
    id: JsonRpcId;
    method: string;
    params?: unknown;
  }): Promise<JsonRpcMessage | undefined> {
    if (this.running.has(request.id))
      return makeErrorResponse(
        request.id,
        RpcErrorCode.InvalidRequest,
        `Invalid Request: id ${JSON.stringify(request.id)} is already in use`,
      );
    const controller = new AbortController();
    this.running.set(request.id, controller);
    const session = this;
    const link: RequestLink = {
      get legacy() {
        return session.legacy;
      },
      set legacy(value) {
        session.legacy = value;
      },
      canInitialize: this.legacy === undefined,
      signal: controller.signal,
      windDown: this.windDown.signal,
      notify: (method, params) => {
        if (!controller.signal.aborted) this.send(makeNotification(method, params));
      },
      request: (method, params, signal) =>
        this.outbound.request(method, params, signal, (message) => this.send(message)),
    };
    try {
      const answer = await routeRequest(this.core, request as never, link);
      return controller.signal.aborted ? undefined : answer;
    } finally {
      if (this.running.get(request.id) === controller) this.running.delete(request.id);
    }
  }

  private diagnostic(diagnostic: TransportDiagnostic): void {
    // A line that is not JSON gets the JSON-RPC parse error (its id is unreadable: null).
    if (diagnostic.kind === 'invalid-json') this.send(makeErrorResponse(null, RpcErrorCode.ParseError, 'Parse error'));
    else if (diagnostic.kind === 'oversize')
      this.send(makeErrorResponse(null, RpcErrorCode.InvalidRequest, 'Invalid Request: message too large'));
  }

  private onResourceUpdated(listener: (uri: string) => void): Disposer {
    this.core.resourceUpdated.add(listener);
    return () => {
      this.core.resourceUpdated.delete(listener);
    };
  }

  /** Several registrations in one tick make one notice. Legacy sessions only: 2026 has no unsolicited notifications. */
  private listChanged(list: 'tools' | 'resources' | 'prompts'): void {
    if (this.listChangedQueued.has(list) || this.done) return;
    this.listChangedQueued.add(list);
    queueMicrotask(() => {
      this.listChangedQueued.delete(list);
      if (this.legacy) this.send(makeNotification(`notifications/${list}/list_changed`));
    });
  }

  private send(message: JsonRpcMessage): void {
    if (this.done) return;
    try {
      this.transport.send(message)?.catch(() => {
        // The client went away; the transport's close ends the session.
      });
    } catch {
      // A transport must not throw from send; if one does, the message is lost, not the server.
    }
  }

  private shutdown(): void {
    if (this.done) return;
    this.done = true;
    clearTimeout(this.graceTimer);
    const reason = new McpError('CONNECTION_CLOSED', 'the connection closed');
    for (const controller of this.running.values()) controller.abort(reason);
    this.running.clear();
    this.outbound.rejectAll(reason);
    for (const dispose of this.disposers) dispose();
  }
}

function isListen(value: unknown): boolean {
  return (
    typeof value === 'object' && value !== null && (value as { method?: unknown }).method === 'subscriptions/listen'
  );
}
