/**
 * The HTTP exchanges of a trace as HAR 1.2 (`log.entries[]`, what browser devtools and HAR
 * viewers open). An entry is one HTTP request and its response, paired from the records:
 * - a POST that carried requests, with the record of the first answer to one of them (same
 *   JSON-RPC id; for an error with id null, the request it was matched to), or an HTTP status
 *   that came back alone;
 * - a POST that carried a notification or response, recorded with its status (mcpwire's client),
 *   or followed by the proxy's `http-response`;
 * - a request without a body (GET stream, DELETE), with its `http` / `http-response` event, or
 *   the proxy's `aborted` / `upstream-error` event when the stream ended so.
 * Bodies are the JSON-RPC messages as recorded (redacted): for an SSE response, the answer's
 * JSON stands for the stream (the entry's `comment` says so). An exchange the trace saw no
 * response to has status 0 and a comment. Only records with HTTP facts take part: a stdio-only
 * trace gives no entries.
 */
import { STATUS_CODES } from 'node:http';
import type { TraceHttp, TraceRecord } from '../../observe/trace-record.js';
import { VERSION } from '../../util/version.js';
import { SessionClock } from './session-clock.js';
import type { SessionExport } from './trace-spans.js';

export interface HarHeader {
  name: string;
  value: string;
}
export interface HarEntry {
  startedDateTime: string;
  time: number;
  request: {
    method: string;
    url: string;
    httpVersion: string;
    cookies: [];
    headers: HarHeader[];
    queryString: HarHeader[];
    postData?: { mimeType: string; text: string };
    headersSize: -1;
    bodySize: number;
  };
  response: {
    status: number;
    statusText: string;
    httpVersion: string;
    cookies: [];
    headers: HarHeader[];
    content: { size: number; mimeType: string; text?: string };
    redirectURL: '';
    headersSize: -1;
    bodySize: number;
  };
  cache: Record<string, never>;
  timings: { send: number; wait: number; receive: number };
  comment?: string;
}
export interface Har {
  log: { version: '1.2'; creator: { name: string; version: string }; entries: HarEntry[]; comment?: string };
}

/** The HTTP version records do not carry: what undici and the kit speak. */
const HTTP_VERSION = 'HTTP/1.1';

function headersOf(http: TraceHttp | undefined): HarHeader[] {
  return Object.entries(http?.headers ?? {}).map(([name, value]) => ({ name, value }));
}

function queryOf(url: string): HarHeader[] {
  try {
    return [...new URL(url).searchParams].map(([name, value]) => ({ name, value }));
  } catch {
    return [];
  }
}

function bodyText(record: TraceRecord): string | undefined {
  if (record.message !== undefined) return JSON.stringify(record.message);
  return record.raw;
}

interface Open {
  entry: HarEntry;
  at: number;
  ids: string[];
  key: string;
}

/** Builds the entries of one session. */
class SessionEntries {
  readonly entries: Array<{ at: number; entry: HarEntry }> = [];
  private readonly byId = new Map<string, Open>();
  private readonly bodyless: Open[] = [];
  private readonly clock = new SessionClock();

  add(record: TraceRecord): void {
    const at = this.clock.timeOf(record);
    const http = record.http;
    if (!http) return;
    if (record.dir === 'out') this.outbound(record, http, at);
    else this.inbound(record, http, at);
  }

  finish(): void {
    const open = new Set([...this.byId.values(), ...this.bodyless]);
    for (const entry of open) entry.entry.comment = 'no response in the trace';
    this.byId.clear();
    this.bodyless.length = 0;
  }

  private outbound(record: TraceRecord, http: TraceHttp, at: number): void {
    if (record.kind === 'event') {
      if (record.event === 'http-request') this.open(record, http, at, []);
      else if (record.event === 'aborted' || record.event === 'upstream-error') this.ended(record, http, at);
      return;
    }
    const ids = requestIds(record);
    const open = this.open(record, http, at, ids);
    // mcpwire's client records a notification or response with the status that took it.
    if (ids.length === 0 && http.status !== undefined) this.complete(open, record, http, at, false);
  }

  private inbound(record: TraceRecord, http: TraceHttp, at: number): void {
    if (record.kind === 'event') {
      const id = record.detail?.id;
      const open =
        (typeof id === 'string' || typeof id === 'number' ? this.byId.get(idKey(id)) : undefined) ??
        this.firstBodyless(http);
      if (open) this.complete(open, record, http, at, false);
      // A client's GET or DELETE: one record has both halves.
      else if (record.event === 'http') this.complete(this.start(record, http, at, []), record, http, at, false);
      return;
    }
    for (const id of answerIds(record)) {
      const open = this.byId.get(idKey(id));
      if (open) return this.complete(open, record, http, at, true);
    }
  }

  private ended(record: TraceRecord, http: TraceHttp, at: number): void {
    const open = this.firstBodyless(http) ?? [...this.byId.values()].find((o) => o.key === keyOf(http));
    if (!open) return;
    const reason = typeof record.detail?.reason === 'string' ? record.detail.reason : record.detail?.error;
    this.complete(open, record, http, at, false);
    open.entry.comment = `${record.event ?? 'ended'}: ${String(reason ?? 'no reason recorded')}`;
  }

  private firstBodyless(http: TraceHttp): Open | undefined {
    return this.bodyless.find((open) => open.key === keyOf(http));
  }

  private open(record: TraceRecord, http: TraceHttp, at: number, ids: string[]): Open {
    const open = this.start(record, http, at, ids);
    if (ids.length > 0) for (const id of ids) this.byId.set(id, open);
    else this.bodyless.push(open);
    return open;
  }

  private start(record: TraceRecord, http: TraceHttp, at: number, ids: string[]): Open {
    const text = record.kind === 'event' ? undefined : bodyText(record);
    const entry: HarEntry = {
      startedDateTime: new Date(at).toISOString(),
      time: 0,
      request: {
        method: http.method,
        url: http.url,
        httpVersion: HTTP_VERSION,
        cookies: [],
        headers: headersOf(http),
        queryString: queryOf(http.url),
        ...(text !== undefined
          ? { postData: { mimeType: http.headers?.['content-type'] ?? 'application/json', text } }
          : {}),
        headersSize: -1,
        bodySize: text !== undefined ? record.bytes : 0,
      },
      response: {
        status: 0,
        statusText: '',
        httpVersion: HTTP_VERSION,
        cookies: [],
        headers: [],
        content: { size: 0, mimeType: 'x-unknown' },
        redirectURL: '',
        headersSize: -1,
        bodySize: -1,
      },
      cache: {},
      timings: { send: 0, wait: 0, receive: 0 },
    };
    this.entries.push({ at, entry });
    return { entry, at, ids, key: keyOf(http) };
  }

  private complete(open: Open, record: TraceRecord, http: TraceHttp, at: number, withBody: boolean): void {
    for (const id of open.ids) if (this.byId.get(id) === open) this.byId.delete(id);
    const index = this.bodyless.indexOf(open);
    if (index >= 0) this.bodyless.splice(index, 1);
    const status = http.status ?? (typeof record.detail?.status === 'number' ? record.detail.status : 0);
    const mimeType = http.headers?.['content-type'] ?? 'x-unknown';
    const text = withBody ? bodyText(record) : undefined;
    const { entry } = open;
    entry.time = Math.max(0, round(at - open.at));
    entry.timings = { send: 0, wait: entry.time, receive: 0 };
    entry.response = {
      ...entry.response,
      status,
      statusText: STATUS_CODES[status] ?? '',
      // The outbound record of a client's notification holds the request's headers too.
      headers: record.dir === 'out' ? [] : headersOf(http),
      content: { size: text !== undefined ? record.bytes : 0, mimeType, ...(text !== undefined ? { text } : {}) },
      bodySize: text !== undefined ? record.bytes : 0,
    };
    if (text !== undefined && mimeType.startsWith('text/event-stream'))
      entry.comment = 'an SSE stream: content.text is the answer it carried, not the whole stream';
  }
}

function round(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}

function keyOf(http: TraceHttp): string {
  return `${http.method} ${http.url}`;
}

function idKey(id: string | number): string {
  return `${typeof id === 'string' ? 's' : 'n'}:${id}`;
}

function messagesOf(record: TraceRecord): Array<Record<string, unknown>> {
  const list = Array.isArray(record.message) ? (record.message as unknown[]) : [record.message];
  return list.filter((m): m is Record<string, unknown> => m !== null && typeof m === 'object' && !Array.isArray(m));
}

/** The ids of the requests a record carries (a request, or a batch with some). */
function requestIds(record: TraceRecord): string[] {
  if (record.kind === 'request' && record.id !== undefined && record.message === undefined) return [idKey(record.id)];
  return messagesOf(record)
    .filter((m) => typeof m.method === 'string' && (typeof m.id === 'string' || typeof m.id === 'number'))
    .map((m) => idKey(m.id as string | number));
}

/** The ids a record answers (a response, an error, or a batch of them). */
function answerIds(record: TraceRecord): Array<string | number> {
  if ((record.kind === 'response' || record.kind === 'error') && record.id !== undefined) return [record.id];
  // An error with id null: the request its recorder (or the reader) matched it to.
  if (record.kind === 'error' && record.answers !== undefined) return [record.answers];
  return messagesOf(record)
    .filter((m) => ('result' in m || 'error' in m) && (typeof m.id === 'string' || typeof m.id === 'number'))
    .map((m) => m.id as string | number);
}

/** The HAR 1.2 document of `sessions`' HTTP exchanges, ordered by start. */
export function harLog(sessions: readonly SessionExport[]): Har {
  const all: Array<{ at: number; entry: HarEntry }> = [];
  for (const { session } of sessions) {
    const builder = new SessionEntries();
    for (const record of session.records) builder.add(record);
    builder.finish();
    all.push(...builder.entries);
  }
  all.sort((a, b) => a.at - b.at);
  return {
    log: { version: '1.2', creator: { name: 'mcpwire', version: VERSION }, entries: all.map(({ entry }) => entry) },
  };
}
