/**
 * Legacy Streamable HTTP sessions: what `initialize` made (`Mcp-Session-Id`), the JSON-RPC
 * connection every POST of the session feeds (its requests, the server's requests to the client,
 * `notifications/cancelled`) and its standalone GET streams (for `list_changed`). The session's
 * facts (principal, revision, capabilities, client info, log level, subscriptions, last seen)
 * live in the {@link SessionStore} seam, its POST streams' events in the {@link EventLog} seam: the
 * stored row is the truth, so a session the store no longer has (ended on another node, idle too
 * long) is ended here too when next asked for, and facts another node stored are read again.
 *
 * A request of a session this node does not hold (made on another node) adopts it from the store:
 * a connection of its own here, on the stored facts, for the same principal only. Each node runs
 * the requests POSTed to it; answers and cancels that concern another node's requests cross the
 * change bus (`session-routing.ts`). Idle sessions are dropped when new ones are made (no timer
 * runs): with a store given in `state.sessions`, dropping one (or closing the handler) only lets
 * go of it here, and the store's own idle time ends it.
 */
import type { JsonRpcConnection } from '../../protocol/connection.js';
import type { ServerRole } from '../../protocol/methods.js';
import type { JsonRpcMessage } from '../../protocol/jsonrpc.js';
import type { LegacySession } from '../router/request-link.js';
import type { HttpServerTransport } from '../../transport/http-server/post-pipe.js';
import type { ResponseSink } from '../../transport/http-server/http-exchange.js';
import { sseMessage } from '../../transport/http-server/sse-writer.js';
import type { PostFacts } from './post-facts.js';
import type { ResponseChannel } from './response-channel.js';
import { ResumableStreams } from './resumable-streams.js';
import type { ServerConnectionFacts } from '../../observe/connection-facts.js';
import { McpError } from '../../protocol/errors.js';
import type { SessionStore } from '../state/session-store.js';
import type { EventLog } from '../state/event-log.js';
import type { ServerLogger } from '../server-types.js';
import type { ServerState } from '../state/server-state.js';
import { MemorySessionStore } from '../state/memory-session-store.js';
import { MemoryEventLog } from '../state/memory-event-log.js';
import type { StoredSession } from '../state/session-store.js';
import type { ProtocolRevision } from '../../protocol/revisions.js';
import { deliverRouted, receiveRouted } from './session-routing.js';
import type { Change } from '../state/change-bus.js';
import { StreamLeases } from './stream-leases.js';
import { fromStore } from './store-down.js';

/** The engine of one session: a connection over the session's transport. */
export interface SessionEngine {
  readonly transport: HttpServerTransport<PostFacts, ResponseChannel>;
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
  readonly streams: Set<ResponseSink>;
  /** Its POST SSE streams while they run (their events are in the event log). */
  readonly resumable: ResumableStreams;
  lastSeen: number;
  /** When the store was last told the session was seen. */
  lastTouched: number;
  /** The facts as last read from or written to the store (JSON): a row that differs was changed elsewhere. */
  storedFacts: string;
}

/** What the sessions of one handler need. */
export interface HttpSessionsOptions {
  /** The server's state: its node id, and its session store and event log (in memory when not given). */
  readonly state: Pick<ServerState, 'nodeId' | 'sessions' | 'events' | 'bus'>;
  /**
   * Makes the engine of a session (made here or adopted), given where a message of the server
   * tied to no request goes (the session's GET streams, on every node holding it).
   */
  readonly open: (unrelated: (message: JsonRpcMessage) => void) => SessionEngine;
  /** With an event log given: how long this node's claim on one of its POST streams holds unrenewed. */
  readonly streamLeaseMs: number;
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
  /** True when the session store was given: other nodes may hold the same sessions. */
  private readonly shared: boolean;
  /** Renews the owner leases of this node's POST streams (a given event log only). */
  private readonly leases: StreamLeases | undefined;

  constructor(private readonly options: HttpSessionsOptions) {
    this.shared = options.state.sessions !== undefined;
    // In memory, a session lives as long as this node holds it: dropped when idle as a new one is
    // made (not while busy), or ended; a shared store forgets what no node marks seen.
    this.store = options.state.sessions ?? new MemorySessionStore({ idleMs: Number.POSITIVE_INFINITY });
    this.events = options.state.events ?? new MemoryEventLog();
    // Only a given log is read by other nodes: they must learn when this one dies.
    const given = options.state.events;
    this.leases = given && new StreamLeases(given, options.state, options.streamLeaseMs, options.logger);
  }

  /** This node's id, read when first needed (a Worker may not draw it while its module loads). */
  private get nodeId(): string {
    return this.options.state.nodeId;
  }

  get size(): number {
    return this.sessions.size;
  }

  /**
   * A new session of `principal` on the engine `open` makes for it (given the session's GET
   * streams, to route what is tied to no request to them), stored before it resolves; undefined
   * when `max` are open after dropping the idle ones. Rejects when the store does.
   */
  async create(principal: string | undefined): Promise<HttpSession | undefined> {
    const now = Date.now();
    this.dropIdle(now);
    if (this.sessions.size >= this.options.max) return undefined;
    const id = globalThis.crypto.randomUUID();
    await fromStore(
      this.store.create(
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
      ),
    );
    return this.hold(id, principal, undefined, now);
  }

  /** Holds session `id` here: a connection of its own, on `row`'s facts (undefined: a new session). */
  private hold(id: string, principal: string | undefined, row: StoredSession | undefined, now: number): HttpSession {
    const streams = new Set<ResponseSink>();
    const unrelated = (message: JsonRpcMessage): void => {
      writeToStreams(streams, message);
      // Other nodes may hold the client's GET stream: they write it there (`session_notice`).
      if (this.shared)
        this.options.state.bus
          .publish({ type: 'session_notice', sessionId: id, from: this.nodeId, message: JSON.stringify(message) })
          .catch((error: unknown) => this.failed('the change bus refused a message for the GET streams', error));
    };
    const session: HttpSession = {
      ...this.options.open(unrelated),
      id,
      principal,
      legacy: undefined,
      streams,
      resumable: new ResumableStreams(id, this.nodeId, this.events, this.options.logger, this.leases),
      lastSeen: now,
      lastTouched: now,
      storedFacts: '',
    };
    if (row) this.refresh(session, row);
    session.facts.sessionId = session.id;
    session.facts.revision = () => session.legacy?.revision;
    this.sessions.set(session.id, session);
    return session;
  }

  /**
   * The session of `id` for `principal`, marked as seen now: the one held here, or one made on
   * another node adopted from the store; undefined when it is unknown, another principal's, or
   * gone from the store (then it is let go of here too); `busy` when it would be adopted but
   * `max` are held here.
   */
  async get(id: string, principal: string | undefined): Promise<HttpSession | 'busy' | undefined> {
    let session = this.sessions.get(id);
    if (session && session.principal !== principal) return undefined;
    const now = Date.now();
    const row = await fromStore(this.store.get(id, principal, now));
    if (!row) {
      if (session) this.release(id, new McpError('CONNECTION_CLOSED', 'the session ended'));
      return undefined;
    }
    if (!session) {
      // Adopted (unless another request adopted it while the store was asked).
      session = this.sessions.get(id);
      if (!session) {
        this.dropIdle(now);
        if (this.sessions.size >= this.options.max) return 'busy';
        session = this.hold(id, principal, row, now);
      }
    } else this.refresh(session, row);
    session.lastSeen = now;
    await this.touch(session, now);
    return session;
  }

  /**
   * Takes the facts of `row` that another node stored (log level, subscriptions; the revision,
   * capabilities and client info once `initialize` completed there) into the session held here.
   * The session's facts object is changed in place: requests in flight see the new level.
   */
  private refresh(session: HttpSession, row: StoredSession): void {
    const facts = factsText(row);
    if (facts === session.storedFacts || row.revision === undefined) return;
    session.storedFacts = facts;
    const legacy = (session.legacy ??= {
      revision: row.revision as ProtocolRevision,
      clientCapabilities: row.clientCapabilities,
      clientInfo: row.clientInfo,
      logLevel: row.logLevel,
      subscriptions: new Set(),
    });
    legacy.logLevel = row.logLevel;
    legacy.subscriptions.clear();
    for (const uri of row.subscriptions) legacy.subscriptions.add(uri);
  }

  /**
   * What a client POSTed without requests (answers, notifications) for `session`: delivered
   * here, and what concerns another node's request sent there on the change bus (a given
   * session store only). Never rejects: a bus failure is logged.
   */
  async deliver(session: HttpSession, items: readonly unknown[]): Promise<void> {
    if (!this.shared) return session.transport.deliver(items, undefined);
    await deliverRouted(session, items, this.nodeId, this.options.state.bus).catch((error: unknown) =>
      this.failed('the change bus refused a message for another node', error),
    );
  }

  /**
   * A change on the bus about a session held here: its facts re-read, a message for it delivered,
   * or another node's message for its GET streams written to those held here.
   */
  heard(change: Extract<Change, { type: 'session' | 'session_message' | 'session_notice' }>): void {
    const session = this.sessions.get(change.sessionId);
    if (!session) return;
    if (change.type === 'session_message') return receiveRouted(session, change, this.nodeId);
    if (change.type === 'session_notice') {
      if (change.from !== this.nodeId && session.streams.size > 0) writeToStreams(session.streams, change.message);
      return;
    }
    if (this.shared)
      this.store.get(session.id, session.principal, Date.now()).then(
        (row) => {
          if (row) this.refresh(session, row);
        },
        (error: unknown) => this.failed('the session store could not be read', error),
      );
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
    const facts = {
      revision: legacy.revision,
      clientCapabilities: legacy.clientCapabilities,
      clientInfo: legacy.clientInfo,
      logLevel: legacy.logLevel,
      subscriptions: [...legacy.subscriptions],
    };
    session.storedFacts = factsText(facts);
    return (
      this.store
        .update(session.id, facts, now)
        // Other nodes holding the session read its facts again.
        .then(() =>
          this.shared ? this.options.state.bus.publish({ type: 'session', sessionId: session.id }) : undefined,
        )
        .then(
          () => undefined,
          (error: unknown) => this.failed('the session store refused a session update', error),
        )
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
    if (!(await fromStore(this.store.get(id, principal, now)))) {
      if (local) this.release(id, new McpError('CONNECTION_CLOSED', 'the session ended'));
      return false;
    }
    const ended = await fromStore(this.store.end(id, now));
    this.release(id, new McpError('CONNECTION_CLOSED', 'the client ended the session'));
    // Every other node holding the session's connection lets go of it (and its GET streams) when it hears this.
    await fromStore(
      Promise.all([
        this.options.state.bus.publish({ type: 'session_ended', sessionId: id }),
        this.events.dropSession(id),
      ]),
    );
    return ended;
  }

  /**
   * Ends a session here: its connection goes down (its requests aborted, the server's requests to
   * the client rejected with `CONNECTION_CLOSED`) and its streams end; the store and the event log
   * forget it (in the background: failures are logged). Returns whether it was held here.
   */
  end(id: string, reason: McpError): boolean {
    if (!this.release(id, reason)) return false;
    Promise.all([this.store.end(id, Date.now()), this.events.dropSession(id)]).catch((error: unknown) =>
      this.failed('the session store could not end a session', error),
    );
    return true;
  }

  /**
   * Lets go of a session here (its connection down, its streams ended) and not in the store:
   * another node ended it, or this node stops serving it (idle, closing) while others may.
   * Returns whether it was held here.
   */
  release(id: string, reason: McpError): boolean {
    const session = this.sessions.get(id);
    if (!session) return false;
    this.sessions.delete(id);
    session.connection.destroy(reason);
    for (const stream of session.streams) stream.end();
    return true;
  }

  /** Sessions whose `initialize` completed. */
  *ready(): Iterable<HttpSession> {
    for (const session of this.sessions.values()) if (session.legacy) yield session;
  }

  /** The handler closes: every session ends here, and in the store unless it was given (other nodes may serve it). */
  endAll(reason: McpError): void {
    for (const id of [...this.sessions.keys()]) this.letGo(id, reason);
    this.leases?.close();
  }

  /** Ends a session this node stops serving: in the store too unless the store was given. */
  private letGo(id: string, reason: McpError): void {
    if (this.shared) this.release(id, reason);
    else this.end(id, reason);
  }

  /** Tells the store the session was seen, at most four times per idle period. */
  private async touch(session: HttpSession, now: number): Promise<void> {
    if (now - session.lastTouched < this.options.idleMs / 4) return;
    session.lastTouched = now;
    await fromStore(this.store.touch(session.id, now));
  }

  private dropIdle(now: number): void {
    const cutoff = now - this.options.idleMs;
    for (const session of [...this.sessions.values()]) {
      const busy = session.connection.inboundCount > 0 || session.streams.size > 0;
      if (session.lastSeen < cutoff && !busy)
        this.letGo(session.id, new McpError('CONNECTION_CLOSED', 'the session was idle too long'));
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

/** The facts of a session that requests change, as comparable text. */
function factsText(facts: Pick<StoredSession, 'revision' | 'logLevel' | 'subscriptions'>): string {
  return JSON.stringify([facts.revision, facts.logLevel, facts.subscriptions]);
}

/** Writes `message` (a message, or its JSON text) as one SSE event to each of `streams`. */
export function writeToStreams(streams: ReadonlySet<ResponseSink>, message: JsonRpcMessage | string): void {
  const event = sseMessage(typeof message === 'string' ? message : JSON.stringify(message));
  for (const stream of streams) stream.write(event);
}
