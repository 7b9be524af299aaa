/**
 * Legacy Streamable HTTP sessions: what `initialize` made (`Mcp-Session-Id`), the JSON-RPC
 * connection every POST of the session feeds (its requests, the server's requests to the client,
 * `notifications/cancelled`) and its standalone GET streams (for `list_changed`). Idle sessions
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

/** The engine of one session: a connection over the session's transport. */
export interface SessionEngine {
  readonly transport: HttpServerTransport;
  readonly connection: JsonRpcConnection<ServerRole>;
  /** What the engine's observers are told of the connection (the kit sets them as it serves). */
  readonly facts: ServerConnectionFacts;
}

/** One legacy session. */
export interface HttpSession extends SessionEngine {
  readonly id: string;
  legacy: LegacySession | undefined;
  readonly streams: Set<ServerResponse>;
  /** Its POST SSE streams, kept for GET + `Last-Event-ID`. */
  readonly resumable: ResumableStreams;
  lastSeen: number;
}

export class HttpSessions {
  private readonly sessions = new Map<string, HttpSession>();

  constructor(
    private readonly max: number,
    private readonly idleMs: number,
  ) {}

  get size(): number {
    return this.sessions.size;
  }

  /**
   * A new session on the engine `open` makes for it (given the session, to route what is tied to
   * no request to its GET streams), or undefined when `max` are open after dropping the idle ones.
   */
  create(open: (streams: Set<ServerResponse>) => SessionEngine): HttpSession | undefined {
    this.dropIdle();
    if (this.sessions.size >= this.max) return undefined;
    const streams = new Set<ServerResponse>();
    const session: HttpSession = {
      ...open(streams),
      id: randomUUID(),
      legacy: undefined,
      streams,
      resumable: new ResumableStreams(),
      lastSeen: Date.now(),
    };
    session.facts.sessionId = session.id;
    session.facts.revision = () => session.legacy?.revision;
    this.sessions.set(session.id, session);
    return session;
  }

  /** The session of `id`, marked as seen now. */
  get(id: string): HttpSession | undefined {
    const session = this.sessions.get(id);
    if (session) session.lastSeen = Date.now();
    return session;
  }

  /**
   * Ends a session: its connection goes down (its requests aborted, the server's requests to the
   * client rejected with `CONNECTION_CLOSED`) and its streams end. Returns whether it existed.
   */
  end(id: string, reason: McpError): boolean {
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

  endAll(reason: McpError): void {
    for (const id of [...this.sessions.keys()]) this.end(id, reason);
  }

  private dropIdle(): void {
    const cutoff = Date.now() - this.idleMs;
    for (const session of [...this.sessions.values()]) {
      if (session.lastSeen < cutoff && session.connection.inboundCount === 0 && session.streams.size === 0)
        this.end(session.id, new McpError('CONNECTION_CLOSED', 'the session was idle too long'));
    }
  }
}
