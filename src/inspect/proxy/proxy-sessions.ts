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
 * A client opens several connections at once (a 2026 client's concurrent requests, a stream
 * beside its POSTs; mcpwire's client tries each era's route with a transport of its own): a new
 * connection without a session id joins the latest session without one that still has a
 * connection open from the same address. And a session that holds only a refused era probe is
 * kept aside (also after an `initialize` refused by status alone, before a fall-back to HTTP+SSE):
 * the next session a new connection from the same address starts continues it, so the probe and
 * the handshake after it are one session even when the probe's connection closed.
 * Clients that run one after the other are told apart; two clients from one address connecting
 * at the same moment may share a session.
 */
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { TraceBuilder } from '../../observe/trace-builder.js';
import type { TraceRecord } from '../../observe/trace-record.js';

/** One client session seen by the proxy. */
export interface ProxySession {
  readonly builder: TraceBuilder;
  /** The `Mcp-Session-Id` the server gave it, once known. */
  sessionId?: string;
  /** What it has recorded so far: nothing, only the era probe (then refused), or anything else. */
  stage: 'new' | 'probing' | 'refused' | 'retrying' | 'going';
  /** The client's address (sessions holding only a refused probe are continued from the same address). */
  address: string;
  /** Its connections still open. */
  open: number;
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
  /** Sessions without a session id that have a connection open, oldest first. */
  private readonly live: ProxySession[] = [];

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
    const session = this.concurrent(req) ?? this.continued(req) ?? this.fresh(req);
    this.attach(session, req.socket);
    return session;
  }

  /** Follows what `session` records, to know when it holds only a refused era probe. */
  noted(session: ProxySession, record: TraceRecord): void {
    const probe = record.negotiation === true;
    // After a refused probe, an `initialize` refused by status alone (this endpoint is not Streamable
    // HTTP: the client falls back to HTTP+SSE on a new connection) leaves the session waiting too.
    if (session.stage === 'retrying' && record.kind === 'event' && (record.http?.status ?? 0) >= 400) {
      session.stage = 'refused';
      return;
    }
    if (session.stage === 'refused' && record.kind === 'request' && record.method === 'initialize') {
      session.stage = 'retrying';
      return;
    }
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
    return { builder: this.create(), stage: 'new', address: req.socket.remoteAddress ?? '', open: 0 };
  }

  /** `socket`'s requests without a session id belong to `session` (counted while it is open). */
  private attach(session: ProxySession, socket: Socket): void {
    this.bySocket.set(socket, session);
    if (socket.destroyed) return;
    session.open++;
    if (session.open === 1) this.live.push(session);
    socket.once('close', () => {
      session.open--;
      if (session.open === 0) this.drop(this.live, session);
    });
  }

  /** The latest session without a session id that has a connection open from `req`'s address. */
  private concurrent(req: IncomingMessage): ProxySession | undefined {
    const address = req.socket.remoteAddress ?? '';
    for (let i = this.live.length - 1; i >= 0; i--) {
      const session = this.live[i]!;
      if (session.address === address && session.sessionId === undefined) return session;
    }
    return undefined;
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
    this.drop(this.parked, session);
  }

  private drop(list: ProxySession[], session: ProxySession): void {
    const index = list.indexOf(session);
    if (index >= 0) list.splice(index, 1);
  }

  private bind(session: ProxySession, id: string): void {
    session.sessionId = id;
    this.drop(this.live, session);
    if (this.byId.size >= MAX_SESSIONS) this.byId.delete(this.byId.keys().next().value!);
    this.byId.set(id, session);
  }
}
