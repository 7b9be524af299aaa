/**
 * `ServerSession`: one connection of a server over a message transport (stdio, an in-memory
 * pair), on the one JSON-RPC engine both roles share ({@link JsonRpcConnection} in its server
 * role): the connection matches the server's own requests to the client (sampling, elicitation,
 * roots), runs each inbound request with a signal of its own (aborted by
 * `notifications/cancelled` or the close) and answers it — unless it was cancelled: the spec says
 * a cancelled request gets no answer. The session adds the router and what a connection of the
 * server carries: its legacy session, `list_changed` and `resources/updated` notices to a legacy
 * client. Modern requests on the same pipe are answered statelessly by the router; a 2026
 * `subscriptions/listen` stays open until the client cancels it or the session winds down. When
 * the client ends its input (stdio: stdin closed, the spec's shutdown), the calls in flight finish
 * and are answered, for at most `inputEndGraceMs`, and then the connection closes.
 */
import { ChannelTracing } from '../observe/channel-tracing.js';
import { ServerConnectionFacts } from '../observe/connection-facts.js';
import { JsonRpcConnection } from '../protocol/connection.js';
import { McpError } from '../protocol/errors.js';
import type { JsonRpcMessage, JsonRpcRequest } from '../protocol/jsonrpc.js';
import type { InboundRequestContext } from '../protocol/inbound-requests.js';
import type { ServerRole } from '../protocol/methods.js';
import type { CloseInfo, Disposer, Transport } from '../protocol/transport.js';
import type { LegacySession, RequestLink } from './router/request-link.js';
import { claimedRevision, routeRequest, type ServerCore } from './router/route-request.js';
import { batchRefusal } from './batch-gate.js';
import { isStateUnavailable, stateUnavailableAnswer } from './state/state-unavailable.js';
import { LATEST_MODERN_REVISION } from '../protocol/revisions.js';
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
  /** The engine the session runs on: its pending map holds the server's requests to the client. */
  readonly connection: JsonRpcConnection<ServerRole>;
  private readonly core: ServerCore;
  private readonly disposers: Disposer[];
  private legacy: LegacySession | undefined;
  private readonly listChangedQueued = new Set<'tools' | 'resources' | 'prompts'>();
  private done = false;
  private closing: Promise<void> | undefined;
  /** Set once the input ended: closes the session when nothing is being handled any more. */
  private whenIdle: (() => void) | undefined;
  private graceTimer: NodeJS.Timeout | undefined;
  /**
   * Aborted when the session winds down gracefully: open `subscriptions/listen` streams answer with their completion
   * result.
   */
  private readonly windDown = new AbortController();
  /** Listen requests being served, up to their answer being sent: a graceful close waits for them. */
  private openListens = 0;
  private listensDone: (() => void) | undefined;

  /** Throws `INVALID_ARGUMENT` for an unknown option key or a grace that is not a number ≥ 0. */
  constructor(core: ServerCore, transport: Transport, options: ServerSessionOptions = {}) {
    for (const key of Object.keys(options)) {
      if (!OPTION_KEYS.has(key)) throw new McpError('INVALID_ARGUMENT', `unknown ServerSession option "${key}"`);
    }
    const graceMs = options.inputEndGraceMs ?? DEFAULT_INPUT_END_GRACE_MS;
    if (!Number.isFinite(graceMs) || graceMs < 0)
      throw new McpError('INVALID_ARGUMENT', 'ServerSession option "inputEndGraceMs" must be a number ≥ 0');
    this.core = core;
    // The server's requests wait for a person (elicitation) or a model (sampling): no time limit
    // of their own; the tool call they serve bounds them (its signal cancels them).
    const kind = isStdioServerTransport(transport) ? 'stdio' : 'memory';
    const facts = new ServerConnectionFacts(kind, () => this.legacy?.revision);
    this.connection = new JsonRpcConnection<ServerRole>(transport, {
      role: 'server',
      idPrefix: 's',
      tracing: new ChannelTracing(facts),
      answerMalformed: true,
      batchGate: (items) => batchRefusal(this.batchRevision(items)),
      defaultTimeoutMs: Infinity,
      maxTotalTimeoutMs: Infinity,
    });
    if (isStdioServerTransport(transport)) void transport.inputEnded.then(() => this.finishUp(graceMs));
    this.disposers = [
      this.connection.onAnyRequest((request, context) => this.route(request, context)),
      this.connection.onInboundEnd((_id, method) => this.ended(method)),
      core.changes.add((change) => {
        if (change.type === 'list_changed') this.listChanged(change.list);
        else if (change.type === 'resource_updated' && this.legacy?.subscriptions.has(change.uri))
          this.notify('notifications/resources/updated', { uri: change.uri });
      }),
    ];
    this.closed = this.connection.closed.then((info) => {
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
    return this.connection.inboundCount;
  }

  /**
   * Ends the open `subscriptions/listen` streams with their completion result, aborts the other
   * calls in flight and closes the transport. Idempotent.
   */
  close(): Promise<void> {
    if (!this.closing) {
      this.windDown.abort();
      // A listen answers within a few microtasks of the wind-down (it waits for nothing else).
      const listens =
        this.openListens === 0 ? Promise.resolve() : new Promise<void>((resolve) => (this.listensDone = resolve));
      this.closing = listens.then(() => {
        this.shutdown();
        return this.connection.close();
      });
    }
    return this.closing;
  }

  private route(request: JsonRpcRequest, context: InboundRequestContext): Promise<JsonRpcMessage> {
    if (request.method === 'subscriptions/listen') this.openListens++;
    const session = this;
    const link: RequestLink = {
      get legacy() {
        return session.legacy;
      },
      set legacy(value) {
        session.legacy = value;
      },
      canInitialize: this.legacy === undefined,
      get signal() {
        return context.signal;
      },
      windDown: this.windDown.signal,
      notify: (method, params) => context.notify(method, params),
      request: (method, params) => context.request(method, params),
    };
    // No HTTP status to say it with: a store out of reach is a JSON-RPC error naming no internals.
    return routeRequest(this.core, request, link).catch((error: unknown) => {
      if (isStateUnavailable(error)) return stateUnavailableAnswer(request.id);
      throw error;
    });
  }

  /** What a batch is judged by: 2026-07-28 when one of its requests claims a `_meta` revision, else the session's. */
  private batchRevision(items: readonly unknown[]): string | undefined {
    const modern = items.some(
      (item) => typeof item === 'object' && item !== null && claimedRevision(item as JsonRpcRequest) !== undefined,
    );
    return modern ? LATEST_MODERN_REVISION : this.legacy?.revision;
  }

  /** A request was answered (or withheld): the one place the session learns a request ended. */
  private ended(method: string): void {
    if (method === 'subscriptions/listen' && --this.openListens === 0) this.listensDone?.();
    if (this.connection.inboundCount === 0) this.whenIdle?.();
  }

  /**
   * The client ended its input: nothing more will come, and it will answer nothing (so requests
   * of ours to it fail now). The calls in flight finish and are answered; then, or after
   * `graceMs` (what is left aborted, unanswered), the connection closes.
   */
  private finishUp(graceMs: number): void {
    if (this.done || this.whenIdle) return;
    this.connection.endOfInput('the client ended its input');
    // Nobody will cancel the listens now: they end gracefully, so only real calls keep the session.
    this.windDown.abort();
    this.whenIdle = () => void this.close();
    if (this.connection.inboundCount === 0) return this.whenIdle();
    this.graceTimer = setTimeout(this.whenIdle, graceMs);
  }

  /** Several registrations in one tick make one notice. Legacy sessions only: 2026 has no unsolicited notifications. */
  private listChanged(list: 'tools' | 'resources' | 'prompts'): void {
    if (this.listChangedQueued.has(list) || this.done) return;
    this.listChangedQueued.add(list);
    queueMicrotask(() => {
      this.listChangedQueued.delete(list);
      if (this.legacy) this.notify(`notifications/${list}/list_changed`);
    });
  }

  private notify(method: string, params?: Record<string, unknown>): void {
    if (this.done) return;
    this.connection.notifyRaw(method, params).catch(() => {
      // The client went away; the transport's close ends the session.
    });
  }

  private shutdown(): void {
    if (this.done) return;
    this.done = true;
    clearTimeout(this.graceTimer);
    for (const dispose of this.disposers) dispose();
  }
}
