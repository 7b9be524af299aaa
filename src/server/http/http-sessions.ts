/**
 * Legacy Streamable HTTP sessions: what `initialize` made (`Mcp-Session-Id`), the JSON-RPC
 * connection every POST of the session feeds (its requests, the server's requests to the client,
 * `notifications/cancelled`) and its standalone GET streams (for `list_changed`). The session's
 * facts (principal, revision, capabilities, client info, log level, subscriptions, last seen) live
 * in the {@link SessionStore} seam, its POST streams' events in the {@link EventLog} seam: the
 * stored row is the truth, so a session the store no longer has (ended on another node, idle too
 * long) is ended here too when next asked for. The connection stays on this node. Idle sessions
 * are dropped when new ones are made: no timer runs.
 */
import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { JsonRpcConnection } from '../../protocol/connection.js';
import type { ServerRole } from '../../protocol/methods.js';
import type { LegacySession } from '../request-link.js';
import type { HttpServerTransport } from './post-transport.js';
import { ResumableStreams } from './resumable-streams.js';
import type { ServerConnectionFacts } from '../../transport/diagnostics/connection-facts.js';
import { McpError } from '../../protocol/errors.js';
import type { SessionStore } from '../state/session-store.js';
import type { EventLog } from '../state/event-log.js';
import type { ServerLogger } from '../server-types.js';
import type { ServerState } from '../state/server-state.js';
import { MemorySessionStore } from '../state/memory-session-store.js';
import { MemoryEventLog } from '../state/memory-event-log.js';

/** The engine of one session: a connection over the session's transport. */
export interface SessionEngine {
  readonly transport: HttpServerTransport;
  readonly connection: JsonRpcConnection<ServerRole>;
  /** What the engine's observers are told of the connection (the kit sets them as it serves). */
  readonly facts: ServerConnectionFacts;
}

/** One legacy session this node holds the connection of. */
export interface HttpSession extends SessionEngine {
  readonly id: string;
  /** Who made it (`principal.ts`): another principal finds no such session. */
  readonly principal: string | undefined;
  legacy: LegacySession | undefined;
  readonly streams: Set<ServerResponse>;
  /** Its POST SSE streams while they run (their events are in the event log). */
  readonly resumable: ResumableStreams;
  lastSeen: number;
  /** When the store was last told the session was seen. */
  lastTouched: number;
}

/** What the sessions of one handler need. */
export interface HttpSessionsOptions {
  /** The server's state: its node id, and its session store and event log (in memory when not given). */
  readonly state: Pick<ServerState, 'nodeId' | 'sessions' | 'events' | 'bus'>;
  readonly max: number;
  readonly idleMs: number;
  readonly logger: ServerLogger;
}

/** Methods after which a session's stored facts are written again. */
const CHANGES_FACTS = new Set(['initialize', 'logging/setLevel', 'resources/subscribe', 'resources/unsubscribe']);

export class HttpSessions {
  private readonly sessions = new Map<string, HttpSession>();

  private readonly store: SessionStore;
  private readonly events: EventLog;
  private readonly nodeId: string;

  constructor(private readonly options: HttpSessionsOptions) {
    // In memory, a session lives as long as this node holds it: dropped when idle as a new one is
    // made (not while busy), or ended; a shared store forgets what no node marks seen.
    this.store = options.state.sessions ?? new MemorySessionStore({ idleMs: Number.POSITIVE_INFINITY });
    this.events = options.state.events ?? new MemoryEventLog();
    this.nodeId = options.state.nodeId;
  }

  get size(): number {
    return this.sessions.size;
  }

  /**
   * A new session of `principal` on the engine `open` makes for it (given the session's GET
   * streams, to route what is tied to no request to them), stored before it resolves; undefined
   * when `max` are open after dropping the idle ones. Rejects when the store does.
   */
  async create(
    open: (streams: Set<ServerResponse>) => SessionEngine,
    principal: string | undefined,
  ): Promise<HttpSession | undefined> {
    const now = Date.now();
    this.dropIdle(now);
    if (this.sessions.size >= this.options.max) return undefined;
    const id = randomUUID();
    await this.store.create(
      {
        sessionId: id,
        principal,
        owner: this.nodeId,
        revision: undefined,
        clientCapabilities: {},
        clientInfo: undefined,
        logLevel: 'info',
        subscriptions: [],
      },
      now,
    );
    const streams = new Set<ServerResponse>();
    const session: HttpSession = {
      ...open(streams),
      id,
      principal,
      legacy: undefined,
      streams,
      resumable: new ResumableStreams(id, this.nodeId, this.events, this.options.logger),
      lastSeen: now,
      lastTouched: now,
    };
    session.facts.sessionId = session.id;
    session.facts.revision = () => session.legacy?.revision;
    this.sessions.set(session.id, session);
    return session;
  }

  /**
   * The session of `id` held here, for `principal`, marked as seen now; undefined when it is
   * unknown here, another principal's, or gone from the store (then it is ended here too).
   */
  async get(id: string, principal: string | undefined): Promise<HttpSession | undefined> {
    const session = this.sessions.get(id);
    if (!session || session.principal !== principal) return undefined;
    const now = Date.now();
    if (!(await this.store.get(id, principal, now))) {
      this.end(id, new McpError('CONNECTION_CLOSED', 'the session ended'));
      return undefined;
    }
    session.lastSeen = now;
    await this.touch(session, now);
    return session;
  }

  /**
   * Writes the session's facts to the store after a POST whose requests may have changed them
   * (`initialize`, `logging/setLevel`, `resources/(un)subscribe`); undefined (nothing to wait
   * for) otherwise. Never rejects: a store failure is logged.
   */
  saveAfter(session: HttpSession, methods: readonly string[]): Promise<void> | undefined {
    const legacy = session.legacy;
    if (!legacy || !methods.some((method) => CHANGES_FACTS.has(method))) return undefined;
    const now = Date.now();
    session.lastTouched = now;
    return this.store
      .update(
        session.id,
        {
          revision: legacy.revision,
          clientCapabilities: legacy.clientCapabilities,
          clientInfo: legacy.clientInfo,
          logLevel: legacy.logLevel,
          subscriptions: [...legacy.subscriptions],
        },
        now,
      )
      .then(
        () => undefined,
        (error: unknown) => this.failed('the session store refused a session update', error),
      );
  }

  /**
   * DELETE: ends the session of `id` for `principal` on every node (the store forgets it, its
   * events are dropped, the change bus tells the node holding it) and here, if it is held here.
   * Resolves with whether it existed.
   */
  async delete(id: string, principal: string | undefined): Promise<boolean> {
    const now = Date.now();
    const local = this.sessions.get(id);
    if (local && local.principal !== principal) return false;
    if (!(await this.store.get(id, principal, now))) {
      if (local) this.end(id, new McpError('CONNECTION_CLOSED', 'the session ended'));
      return false;
    }
    const ended = await this.store.end(id, now);
    this.end(id, new McpError('CONNECTION_CLOSED', 'the client ended the session'));
    // The node holding the session's connection ends it (and its GET streams) when it hears this.
    await this.options.state.bus.publish({ type: 'session_ended', sessionId: id });
    return ended;
  }

  /**
   * Ends a session here: its connection goes down (its requests aborted, the server's requests to
   * the client rejected with `CONNECTION_CLOSED`) and its streams end; the store and the event log
   * forget it (in the background: failures are logged). Returns whether it was held here.
   */
  end(id: string, reason: McpError): boolean {
    const session = this.sessions.get(id);
    if (!session) return false;
    this.sessions.delete(id);
    session.connection.destroy(reason);
    for (const stream of session.streams) stream.end();
    const now = Date.now();
    Promise.all([this.store.end(id, now), this.events.dropSession(id)]).catch((error: unknown) =>
      this.failed('the session store could not end a session', error),
    );
    return true;
  }

  /** Sessions whose `initialize` completed. */
  *ready(): Iterable<HttpSession> {
    for (const session of this.sessions.values()) if (session.legacy) yield session;
  }

  endAll(reason: McpError): void {
    for (const id of [...this.sessions.keys()]) this.end(id, reason);
  }

  /** Tells the store the session was seen, at most four times per idle period. */
  private async touch(session: HttpSession, now: number): Promise<void> {
    if (now - session.lastTouched < this.options.idleMs / 4) return;
    session.lastTouched = now;
    await this.store.touch(session.id, now);
  }

  private dropIdle(now: number): void {
    const cutoff = now - this.options.idleMs;
    for (const session of [...this.sessions.values()]) {
      const busy = session.connection.inboundCount > 0 || session.streams.size > 0;
      if (session.lastSeen < cutoff && !busy)
        this.end(session.id, new McpError('CONNECTION_CLOSED', 'the session was idle too long'));
      // A busy session is in use though no request names it: the store must not let it lapse.
      else if (busy && now - session.lastTouched >= this.options.idleMs / 4)
        this.touch(session, now).catch((error: unknown) =>
          this.failed('the session store could not mark a session seen', error),
        );
    }
  }

  private failed(msg: string, error: unknown): void {
    this.options.logger({ level: 'error', msg, error: error instanceof Error ? error.message : 'a non-Error value' });
  }
}
