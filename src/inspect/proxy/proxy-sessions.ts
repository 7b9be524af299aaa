/**
 * The client sessions an HTTP recording proxy tells apart, each recorded as its own trace session
 * (a {@link TraceBuilder} of its own: its own `session`, clock, request matching and revision).
 *
 * A session is what one client does: a legacy Streamable HTTP session is keyed by its
 * `Mcp-Session-Id`; an HTTP+SSE (2024-11-05) session by the endpoint its stream named (POSTs to
 * that URL belong to the stream's session); what comes before the server hands one out (the era
 * probe, `initialize`) and 2026 traffic, which has no session id, is keyed by the client's
 * connection (its socket). A connection's session takes the `Mcp-Session-Id` of the first
 * response that sets one, so the `initialize` of a client lands in the session that follows it. A
 * request without a session id on a connection whose session already has one starts a new
 * session (a client that connected again over a kept-alive socket).
 *
 * A client may probe the server's era on one connection and go on with `initialize` on another
 * (mcpwire's client tries each era's route with a transport of its own). A session that holds
 * only a refused era probe is therefore kept aside, and the next session a new connection from
 * the same address starts continues it: the probe and the handshake after it are one session.
 */
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { TraceBuilder } from '../../transport/trace/trace-builder.js';
import type { TraceRecord } from '../../transport/trace/trace-record.js';

/** One client session seen by the proxy. */
export interface ProxySession {
  readonly builder: TraceBuilder;
  /** The `Mcp-Session-Id` the server gave it, once known. */
  sessionId?: string;
  /** What it has recorded so far: nothing, only the era probe (then refused), or anything else. */
  stage: 'new' | 'probing' | 'refused' | 'going';
  /** The client's address (sessions holding only a refused probe are continued from the same address). */
  address: string;
}

/** Sessions holding only a refused probe that are kept to be continued. */
const MAX_PARKED = 64;

/** Sessions remembered by id; past this the oldest is forgotten (a later request with its id starts anew). */
const MAX_SESSIONS = 10_000;

export class ProxySessions {
  private readonly byId = new Map<string, ProxySession>();
  private readonly bySocket = new WeakMap<Socket, ProxySession>();
  /** HTTP+SSE: the session of the stream that named each endpoint (path and query). */
  private readonly byEndpoint = new Map<string, ProxySession>();
  /** Sessions holding only a refused era probe, oldest first. */
  private readonly parked: ProxySession[] = [];

  constructor(private readonly create: () => TraceBuilder) {}

  /** The session `req` belongs to (made when it is the first of its kind). */
  of(req: IncomingMessage): ProxySession {
    const streamed = req.url === undefined ? undefined : this.byEndpoint.get(req.url);
    if (streamed) return streamed;
    const header = req.headers['mcp-session-id'];
    const id = Array.isArray(header) ? header[0] : header;
    if (id !== undefined && id !== '') {
      const known = this.byId.get(id);
      if (known) return known;
      const current = this.bySocket.get(req.socket);
      // The server's answer naming this id went unseen (another socket, a proxy started mid-session).
      if (current && current.sessionId === undefined) {
        this.bind(current, id);
        return current;
      }
      const session = this.fresh(req);
      this.bind(session, id);
      return session;
    }
    const current = this.bySocket.get(req.socket);
    if (current && current.sessionId === undefined) return current;
    const session = this.continued(req) ?? this.fresh(req);
    this.bySocket.set(req.socket, session);
    return session;
  }

  /** Follows what `session` records, to know when it holds only a refused era probe. */
  noted(session: ProxySession, record: TraceRecord): void {
    const probe = record.negotiation === true;
    if (record.kind === 'event' && !probe) return;
    if (session.stage === 'new') session.stage = probe && record.kind === 'request' ? 'probing' : 'going';
    else if (session.stage === 'probing' && probe && record.dir === 'in') {
      session.stage = 'refused';
      if (this.parked.length >= MAX_PARKED) this.parked.shift();
      this.parked.push(session);
    } else if (session.stage !== 'going') {
      this.unpark(session);
      session.stage = 'going';
    }
  }

  /** Notes the `Mcp-Session-Id` of a response to a request of `session` (the first one it gets sticks). */
  answered(session: ProxySession, headers: Record<string, string | string[] | undefined>): void {
    const header = headers['mcp-session-id'];
    const id = Array.isArray(header) ? header[0] : header;
    if (id === undefined || id === '' || session.sessionId !== undefined || this.byId.has(id)) return;
    this.bind(session, id);
  }

  /** HTTP+SSE: the stream of `session` named `endpoint` (as the client will POST to it through the proxy). */
  endpoint(session: ProxySession, endpoint: URL): void {
    if (this.byEndpoint.size >= MAX_SESSIONS) this.byEndpoint.delete(this.byEndpoint.keys().next().value!);
    this.byEndpoint.set(`${endpoint.pathname}${endpoint.search}`, session);
  }

  private fresh(req: IncomingMessage): ProxySession {
    return { builder: this.create(), stage: 'new', address: req.socket.remoteAddress ?? '' };
  }

  /** The latest session from `req`'s address that holds only a refused probe, taken off the list. */
  private continued(req: IncomingMessage): ProxySession | undefined {
    const address = req.socket.remoteAddress ?? '';
    for (let i = this.parked.length - 1; i >= 0; i--) {
      const session = this.parked[i]!;
      if (session.address !== address) continue;
      this.parked.splice(i, 1);
      session.stage = 'going';
      return session;
    }
    return undefined;
  }

  private unpark(session: ProxySession): void {
    const index = this.parked.indexOf(session);
    if (index >= 0) this.parked.splice(index, 1);
  }

  private bind(session: ProxySession, id: string): void {
    session.sessionId = id;
    if (this.byId.size >= MAX_SESSIONS) this.byId.delete(this.byId.keys().next().value!);
    this.byId.set(id, session);
  }
}
