/**
 * Legacy Streamable HTTP sessions: what `initialize` made (`Mcp-Session-Id`), the requests
 * running in each (for `notifications/cancelled`) and its standalone GET streams (for
 * `list_changed`). Idle sessions are dropped when new ones are made: no timer runs.
 */
import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { JsonRpcId } from '../../protocol/jsonrpc.js';
import type { LegacySession } from '../request-link.js';
import { McpError } from '../../protocol/errors.js';
import { ResumableStreams } from './resumable-streams.js';
import { OutboundRequests } from '../outbound-requests.js';

/** One legacy session. */
export interface HttpSession {
  readonly id: string;
  legacy: LegacySession | undefined;
  readonly running: Map<JsonRpcId, AbortController>;
  readonly streams: Set<ServerResponse>;
  /** The server's requests to the client; their answers come back as POSTs. */
  readonly outbound: OutboundRequests;
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

  /** A new session, or undefined when `max` are open after dropping the idle ones. */
  create(): HttpSession | undefined {
    this.dropIdle();
    if (this.sessions.size >= this.max) return undefined;
    const session: HttpSession = {
      id: randomUUID(),
      legacy: undefined,
      running: new Map(),
      streams: new Set(),
      outbound: new OutboundRequests(),
      resumable: new ResumableStreams(),
      lastSeen: Date.now(),
    };
    this.sessions.set(session.id, session);
    return session;
  }

  /** The session of `id`, marked as seen now. */
  get(id: string): HttpSession | undefined {
    const session = this.sessions.get(id);
    if (session) session.lastSeen = Date.now();
    return session;
  }

  /** Ends a session: its requests are aborted and its streams ended. Returns whether it existed. */
  end(id: string, reason: unknown): boolean {
    const session = this.sessions.get(id);
    if (!session) return false;
    this.sessions.delete(id);
    for (const controller of session.running.values()) controller.abort(reason);
    for (const stream of session.streams) stream.end();
    session.outbound.rejectAll(new McpError('CONNECTION_CLOSED', 'the session ended'));
    return true;
  }

  /** Sessions whose `initialize` completed. */
  *ready(): Iterable<HttpSession> {
    for (const session of this.sessions.values()) if (session.legacy) yield session;
  }

  endAll(reason: unknown): void {
    for (const id of [...this.sessions.keys()]) this.end(id, reason);
  }

  private dropIdle(): void {
    const cutoff = Date.now() - this.idleMs;
    for (const session of [...this.sessions.values()]) {
      if (session.lastSeen < cutoff && session.running.size === 0 && session.streams.size === 0)
        this.sessions.delete(session.id);
    }
  }
}
