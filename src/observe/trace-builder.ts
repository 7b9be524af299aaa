/**
 * Turns frames into {@link TraceRecord}s: classifies each JSON-RPC value, correlates responses
 * with their requests (per direction: a response going `in` answers a request that went `out`),
 * measures latency, remembers the negotiated revision and redacts secrets. One builder per
 * traced connection; shared by the tracing transport decorator and the proxies.
 *
 * Contracts: never throws on any input; the value passed in is not mutated; correlation state is
 * bounded (at most `maxPending` open requests per direction, the oldest forgotten first).
 */
import { classifyMessage } from '../protocol/jsonrpc.js';
import { sampleValue } from '../protocol/value-sample.js';
import { redactHeaderValue, redactUrl, scrubSecrets } from '../util/redact.js';
import type { TraceDirection, TraceHttp, TraceKind, TraceLane, TraceRecord } from './trace-record.js';
import { META_KEYS } from '../protocol/meta-keys.js';

export interface TraceBuilderOptions {
  /** Server display name written into every record. */
  server: string;
  /** Values to replace by `***` wherever they occur (configured env values, tokens). */
  secrets?: Iterable<string>;
  /** Clock for `t`, in ms (default `performance.now`). */
  now?: () => number;
  /** Open requests remembered per direction for correlation (default 10 000). */
  maxPending?: number;
  /**
   * The lane every record is stamped with: `ui` for an MCP Apps bridge (`out` host → view, `in`
   * view → host). Absent: MCP traffic. Records go to the same sink with the same redaction either way.
   */
  lane?: TraceLane;
}

/** Longest raw text a record keeps of what could not be read as a message (characters). */
export const RAW_LIMIT = 4_096;
const KEPT_HEADERS = /^(mcp-|content-type$|last-event-id$|authorization$|www-authenticate$)/;

/**
 * The HTTP facts a record may carry: only the `mcp-*`, content-type, last-event-id and auth
 * headers (names lower-cased), credentials as `***` (`Bearer ***`), credential-like query values
 * redacted, every `secrets` value scrubbed. `mcp-session-id` stays readable: following a session
 * is what a trace is for, and the file is the user's own.
 */
export function traceHttpFacts(http: TraceHttp, secrets: readonly string[] = []): TraceHttp {
  const scrub = (text: string) => (secrets.length ? scrubSecrets(text, secrets) : text);
  const out: TraceHttp = { method: http.method, url: scrub(redactUrl(http.url)) };
  if (http.status !== undefined) out.status = http.status;
  if (http.headers) {
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(http.headers)) {
      const lower = name.toLowerCase();
      if (!KEPT_HEADERS.test(lower)) continue;
      headers[lower] = scrub(lower === 'mcp-session-id' ? value : redactHeaderValue(lower, value));
    }
    out.headers = headers;
  }
  return out;
}

interface Open {
  id: string | number;
  method: string;
  at: number;
  /** The era probe: a `server/discover` sent before any `initialize` and before a revision was known. */
  probe?: boolean;
  /** The revision the request's `_meta` names (2026): the revision once the peer answers it with a result. */
  revision?: string;
}

export class TraceBuilder {
  private readonly server: string;
  private readonly secrets: string[];
  private readonly now: () => number;
  private readonly start: number;
  private readonly maxPending: number;
  private readonly lane: TraceLane | undefined;
  /** This tracer's {@link TraceRecord.session}: wall-clock start and random digits, base 36. */
  private readonly session = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
  /** Requests by direction they travelled, keyed by JSON id (typed: `s:1` vs `n:1`). */
  private readonly open: Record<TraceDirection, Map<string, Open>> = { out: new Map(), in: new Map() };
  private protocolVersion: string | undefined;
  /** An `initialize` request was seen: a `server/discover` after it is no longer the era probe. */
  private initializeSeen = false;

  constructor(options: TraceBuilderOptions) {
    this.server = options.server;
    this.secrets = [...(options.secrets ?? [])].filter((s) => s.length >= 4);
    this.now = options.now ?? (() => performance.now());
    this.start = this.now();
    this.maxPending = options.maxPending ?? 10_000;
    this.lane = options.lane;
  }

  /**
   * Hides `values` too from now on (those shorter than 4 characters are ignored, as at
   * construction): credentials learnt after the trace began, such as a token an authorize hook
   * handed out. Records already made are not revisited.
   */
  addSecrets(values: Iterable<string>): void {
    for (const value of values) if (value.length >= 4 && !this.secrets.includes(value)) this.secrets.push(value);
  }

  /**
   * The revision seen so far, if any: the `initialize` result's, or the one a modern request's
   * `_meta` names once that request is answered with a result (a probe the peer refuses, such
   * as `server/discover` to a legacy server, sets nothing).
   */
  get revision(): string | undefined {
    return this.protocolVersion;
  }

  /**
   * A record for one decoded frame (`value`: a message or a batch array). `bytes` is the size on
   * the wire when the caller knows it; otherwise the JSON length is used. `answering` is the id of
   * the request whose HTTP exchange carried this frame back, when the caller knows it: an error
   * answer with id `null` is matched to that request (without it, to the only request waiting).
   *
   * The era probe (a `server/discover` request before any `initialize`, and a `ping` sent while it
   * waits) and an error answer to it are marked {@link TraceRecord.negotiation}.
   */
  frame(
    dir: TraceDirection,
    value: unknown,
    bytes?: number,
    http?: TraceHttp,
    answering?: string | number,
  ): TraceRecord {
    const text = jsonOf(value);
    const size = bytes ?? (text === undefined ? 0 : byteLength(text));
    if (Array.isArray(value)) {
      for (const item of value) this.observe(dir, item);
      return this.record(dir, 'batch', size, {
        ...this.body(value, text),
        ...(http ? { http: this.redactHttp(http) } : {}),
      });
    }
    const facts = this.observe(dir, value, answering);
    return this.record(dir, facts.kind, size, {
      ...facts.fields,
      ...this.body(value, text),
      ...(http ? { http: this.redactHttp(http) } : {}),
    });
  }

  /** A record for a frame that did not decode (`text` is kept, truncated and redacted). */
  invalid(dir: TraceDirection, text: string, http?: TraceHttp): TraceRecord {
    return this.record(dir, 'invalid', byteLength(text), {
      raw: this.scrub(text.slice(0, RAW_LIMIT)),
      ...(http ? { http: this.redactHttp(http) } : {}),
    });
  }

  /** A non-frame event (spawn, exit, close, stderr line, HTTP status without a body). */
  event(name: string, detail: Record<string, unknown> = {}, dir: TraceDirection = 'in', http?: TraceHttp): TraceRecord {
    const redacted = this.redact(detail);
    const safe =
      redacted === UNWRITABLE
        ? { sample: this.scrub(sampleValue(detail, RAW_LIMIT)) }
        : (redacted as Record<string, unknown>);
    return this.record(dir, 'event', 0, {
      event: name,
      detail: safe,
      ...(http ? { http: this.redactHttp(http) } : {}),
    });
  }

  // ---- internals ----

  /**
   * Settles the request `id` that went `out` when an HTTP error status (400 and up) came back
   * without a message: the fields its status record takes — the method, the latency, and
   * `negotiation` for a refused era probe (not for 401 or 403: refused credentials are no verdict
   * on the era). Empty when no such request waits, and for a status
   * below 400 (a 202 says the answer comes on a stream: the request still waits).
   */
  answeredByStatus(id: string | number, status: number | undefined): Partial<TraceRecord> {
    const open = this.open.out.get(key(id));
    if (!open || status === undefined || status < 400) return {};
    this.open.out.delete(key(id));
    const fields: Partial<TraceRecord> = { method: open.method, latencyMs: round(this.now() - open.at) };
    // A refused credential is no answer about the era: the client stops (or logs in and asks again).
    if (open.probe && status !== 401 && status !== 403) fields.negotiation = true;
    return fields;
  }

  private observe(
    dir: TraceDirection,
    value: unknown,
    answering?: string | number,
  ): { kind: TraceKind; fields: Partial<TraceRecord> } {
    const c = classifyMessage(value);
    switch (c.kind) {
      case 'request': {
        const pending = this.open[dir];
        if (pending.size >= this.maxPending) pending.delete(pending.keys().next().value!);
        const method = c.message.method;
        const open: Open = { id: c.message.id, method, at: this.now() };
        const revision = metaRevision(c.message.params);
        if (revision !== undefined) open.revision = revision;
        if (dir === 'out' && method === 'initialize') this.initializeSeen = true;
        const fields: Partial<TraceRecord> = { id: c.message.id, method };
        if (dir === 'out' && !this.initializeSeen && !this.protocolVersion && this.isProbe(method)) {
          open.probe = true;
          fields.negotiation = true;
        }
        pending.set(key(c.message.id), open);
        return { kind: 'request', fields };
      }
      case 'notification':
        return { kind: 'notification', fields: { method: c.message.method } };
      case 'response':
      case 'error': {
        const id = c.message.id;
        const answered = this.open[dir === 'in' ? 'out' : 'in'];
        const match =
          id !== null ? answered.get(key(id)) : c.kind === 'error' ? loneOrNamed(answered, answering) : undefined;
        if (match) answered.delete(key(match.id));
        if (c.kind === 'response' && match?.method === 'initialize') {
          const version = (c.message.result as { protocolVersion?: unknown }).protocolVersion;
          if (typeof version === 'string') this.protocolVersion = version;
        } else if (
          c.kind === 'response' &&
          match?.revision !== undefined &&
          !(match.probe && match.method === 'ping')
        ) {
          // (The probe's ping carries the 2026 envelope but is answered by either era: its answer settles nothing.)
          this.protocolVersion ??= match.revision;
        }
        const fields: Partial<TraceRecord> = {};
        if (id !== null) fields.id = id;
        if (match) {
          if (id === null) fields.answers = match.id;
          fields.method = match.method;
          fields.latencyMs = round(this.now() - match.at);
          if (match.probe && c.kind === 'error') fields.negotiation = true;
        }
        return { kind: c.kind, fields };
      }
      default:
        return { kind: 'invalid', fields: c.id === undefined ? {} : { id: c.id } };
    }
  }

  /**
   * The era probe: `server/discover`, and the `ping` a client sends right behind it while it waits
   * (stdio answers in order, so the ping's answer shows the probe was read and ignored).
   */
  private isProbe(method: string): boolean {
    if (method === 'server/discover') return true;
    return (
      method === 'ping' && [...this.open.out.values()].some((open) => open.method === 'server/discover' && open.probe)
    );
  }

  private record(dir: TraceDirection, kind: TraceKind, bytes: number, fields: Partial<TraceRecord>): TraceRecord {
    const t = this.now() - this.start;
    const record: TraceRecord = {
      v: 1,
      ts: new Date().toISOString(),
      t: round(t),
      server: this.server,
      session: this.session,
      dir,
      ...(this.lane ? { lane: this.lane } : {}),
      kind,
      bytes,
      ...fields,
    };
    if (this.protocolVersion) record.protocolVersion = this.protocolVersion;
    return record;
  }

  private redactHttp(http: TraceHttp): TraceHttp {
    return traceHttpFacts(http, this.secrets);
  }

  private scrub(text: string): string {
    return this.secrets.length ? scrubSecrets(text, this.secrets) : text;
  }

  /**
   * The `message` of a frame whose JSON is `text`; a value JSON cannot write (nested deeper than
   * the stack allows) gets a bounded sample in `raw` instead, so no sink ever has to write it.
   */
  private body(value: unknown, text: string | undefined): Partial<TraceRecord> {
    if (text !== undefined) {
      const message = this.redact(value, text);
      if (message !== UNWRITABLE) return { message };
    }
    return { raw: this.scrub(sampleValue(value, RAW_LIMIT)) };
  }

  /** A redacted deep copy (only when there are secrets to hide; otherwise the value itself). */
  private redact(value: unknown, text = jsonOf(value)): unknown {
    if (!this.secrets.length) return value;
    if (text === undefined) return UNWRITABLE;
    const scrubbed = this.scrub(text);
    if (scrubbed === text) return value;
    try {
      return JSON.parse(scrubbed);
    } catch {
      return UNWRITABLE;
    }
  }
}

/** What {@link TraceBuilder.redact} returns for a value it cannot copy. */
const UNWRITABLE = Symbol('unwritable');

/** The revision a 2026 request names in its `_meta`, if any. */
function metaRevision(params: unknown): string | undefined {
  if (!params || typeof params !== 'object') return undefined;
  const meta = (params as { _meta?: Record<string, unknown> })._meta;
  if (!meta || typeof meta !== 'object') return undefined;
  const version = meta[META_KEYS.protocolVersion] ?? meta.protocolVersion;
  return typeof version === 'string' ? version : undefined;
}

/**
 * The request an error with id `null` answers: the one named by its HTTP exchange when it still
 * waits, else the only one waiting (JSON-RPC gives the peer no other way to say which it refused).
 */
function loneOrNamed(pending: Map<string, Open>, answering: string | number | undefined): Open | undefined {
  if (answering !== undefined) return pending.get(key(answering));
  if (pending.size !== 1) return undefined;
  return pending.values().next().value;
}

function key(id: string | number): string {
  return typeof id === 'string' ? `s:${id}` : `n:${id}`;
}

function round(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}

/** The JSON text of `value`, or undefined when JSON cannot write it (too deep, a cycle, a BigInt). */
function jsonOf(value: unknown): string | undefined {
  try {
    return JSON.stringify(value) ?? 'undefined';
  } catch {
    return undefined;
  }
}

const encoder = new TextEncoder();
function byteLength(text: string): number {
  return encoder.encode(text).length;
}
