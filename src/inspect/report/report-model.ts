/**
 * What the trace report shows, computed from the records before the page is written: lanes (one
 * per server and session), rows (calls, notifications, events, invalid frames, orphan answers)
 * on one time axis, the latency table, the errors and HTTP statuses. The page only filters and
 * draws it. Pure computation; no I/O.
 *
 * An MCP Apps bridge session (`lane: 'ui'`) is a lane of its own, drawn apart; it is no MCP
 * session: the session and server counts and the latency table leave it out (a view's requests
 * wait on the page and its host, not on the server), and `uiSessions` counts it.
 */
import type { TraceDirection, TraceLane, TraceRecord } from '../../observe/trace-record.js';
import { pairCalls, type CallStatus, type TraceCall } from '../trace/trace-calls.js';
import { latencyTable, type LatencyTable } from '../trace/trace-stats.js';

/** One timeline lane: a server's session. Times are ms since the report's origin. */
export interface ReportLane {
  server: string;
  session: number;
  /** `ui`: an MCP Apps bridge session (host ↔ view); absent for an MCP session. */
  lane?: TraceLane;
  revision?: string;
  start: number;
  end: number;
}

/** What a row is. */
export type RowKind = 'call' | 'note' | 'event' | 'invalid' | 'orphan';

/**
 * One row of the report (short keys: a report embeds thousands). `t` is ms since the report's
 * origin, `d` a call's latency; `p` the record positions the payload viewer shows.
 */
export interface ReportRow {
  k: RowKind;
  lane: number;
  t: number;
  d?: number;
  dir: TraceDirection;
  /** The method, the event's name, `(invalid)` or `(orphan answer)`. */
  m: string;
  tool?: string;
  id?: string | number;
  st: CallStatus | 'info';
  /** `error.type`, the JSON-RPC code as text and the error's message. */
  et?: string;
  sc?: string;
  em?: string;
  http?: number;
  tp?: string;
  /** `duplicate`, `late`, `orphan`. */
  fl?: string[];
  p: number[];
  /** For a note: the row of its call. For a call: the times of its notes and of its cancel. */
  parent?: number;
  nt?: number[];
  ct?: number;
  /** An era probe left unanswered: when the client moved on (its next request in the session). */
  ge?: number;
  /** A one-line description: an event's details, an invalid frame's text. */
  text?: string;
}

/** The counts at the top of the report. */
export interface ReportSummary {
  file: string;
  records: number;
  /** The servers with MCP lanes; a server's `sessions` count its MCP sessions only. */
  servers: Array<{ name: string; sessions: number; revisions: string[] }>;
  /** MCP sessions (ui lanes left out). */
  sessions: number;
  /** MCP Apps bridge sessions: the ui lanes. */
  uiSessions: number;
  revisions: string[];
  requests: number;
  notifications: number;
  answers: number;
  errors: number;
  /** Era probes the server refused or ignored (not errors). */
  negotiation: number;
  invalid: number;
  events: number;
  open: number;
  cancelled: number;
  orphans: number;
  duplicates: number;
  late: number;
  spanMs: number;
}

/** Everything the page needs; `records` are the trace's records (already redacted), for the viewer. */
export interface ReportData {
  summary: ReportSummary;
  lanes: ReportLane[];
  rows: ReportRow[];
  latency: LatencyTable;
  /** Rows with an error (calls answered with one, invalid frames, orphans), in time order. */
  errors: number[];
  http: Array<{ status: number; count: number }>;
  problems: string[];
  records: TraceRecord[];
}

const round = (ms: number) => Math.round(ms * 1000) / 1000;

function describe(record: TraceRecord): string {
  if (record.kind === 'invalid') return record.raw ?? '';
  const detail = record.detail ? JSON.stringify(record.detail) : '';
  return detail.length > 300 ? `${detail.slice(0, 299)}…` : detail;
}

function callRow(call: TraceCall, lane: number, at: (position: number) => number): ReportRow {
  const row: ReportRow = {
    k: 'call',
    lane,
    t: at(call.request),
    dir: call.dir,
    m: call.method,
    id: call.id,
    st: call.status,
    p: [call.request],
  };
  if (call.answer !== undefined) row.p.push(call.answer);
  if (call.latencyMs !== undefined) row.d = call.latencyMs;
  if (call.tool !== undefined) row.tool = call.tool;
  if (call.errorType !== undefined) row.et = call.errorType;
  if (call.statusCode !== undefined) row.sc = call.statusCode;
  if (call.errorMessage !== undefined) row.em = call.errorMessage;
  if (call.httpStatus !== undefined) row.http = call.httpStatus;
  if (call.traceparent !== undefined) row.tp = call.traceparent;
  if (call.cancel !== undefined) row.ct = at(call.cancel);
  const flags = [call.duplicate ? 'duplicate' : '', call.late ? 'late' : ''].filter(Boolean);
  if (flags.length > 0) row.fl = flags;
  return row;
}

/** Builds the report of `records` (file order). `file` names the trace in the page; `problems` are reading notes. */
export function buildReport(records: readonly TraceRecord[], file: string, problems: string[] = []): ReportData {
  const { calls, orphans, sessions, sessionOf, noteOf } = pairCalls(records);
  // One axis for every session: each tracer's `t` placed at its wall-clock start.
  // A session without clocks (records lacking `ts`) starts with the earliest one that has them.
  const walls = sessions.map((s) => (s.startedAt ? Date.parse(s.startedAt) : Number.NaN));
  const known = walls.filter((w) => Number.isFinite(w));
  const earliest = known.reduce((min, w) => Math.min(min, w), known[0] ?? 0);
  const startOf = new Map(sessions.map((s, i) => [s.index, Number.isFinite(walls[i]) ? walls[i]! : earliest]));
  const absolute = records.map((r, i) => startOf.get(sessionOf[i]!)! + (typeof r.t === 'number' ? r.t : 0));
  // A loop, not Math.min(...): a spread of 100k arguments overflows the stack.
  const origin = absolute.reduce((min, t) => (t < min ? t : min), absolute[0] ?? 0);
  const at = (position: number) => round(absolute[position]! - origin);

  const lanes: ReportLane[] = sessions.map((s) => {
    const lane: ReportLane = { server: s.server, session: s.index, start: at(s.positions[0]!), end: 0 };
    if (s.lane) lane.lane = s.lane;
    for (const position of s.positions) lane.end = Math.max(lane.end, at(position));
    const revision = s.records.findLast((r) => r.protocolVersion)?.protocolVersion;
    if (revision) lane.revision = revision;
    return lane;
  });
  const laneOf = (position: number) => sessionOf[position]! - 1;

  const rows: ReportRow[] = [];
  const callRows = calls.map((call, i) => {
    const row = callRow(call, laneOf(call.request), at);
    if (call.status === 'negotiation' && call.answer === undefined) {
      const next = calls.slice(i + 1).find((c) => c.session === call.session && c.dir === call.dir);
      if (next) row.ge = at(next.request);
    }
    rows.push(row);
    return rows.length - 1;
  });
  const seen = new Set<number>();
  records.forEach((record, position) => {
    const base = { lane: laneOf(position), t: at(position), dir: record.dir, p: [position] };
    if (record.kind === 'event') {
      rows.push({ ...base, k: 'event', m: record.event ?? 'event', st: 'info', text: describe(record) });
      if (typeof record.http?.status === 'number') rows[rows.length - 1]!.http = record.http.status;
    } else if (record.kind === 'invalid') {
      rows.push({ ...base, k: 'invalid', m: '(invalid)', st: 'error', text: describe(record), et: 'invalid' });
    } else if (record.kind === 'notification' || record.kind === 'batch') {
      const items = Array.isArray(record.message) ? (record.message as unknown[]) : [record.message];
      for (const item of items) {
        const method = (item as { method?: unknown; id?: unknown } | undefined)?.method;
        if (typeof method !== 'string' || (item as { id?: unknown }).id !== undefined) continue;
        const row: ReportRow = { ...base, k: 'note', m: method, st: 'info' };
        const call = noteOf.get(position);
        if (call !== undefined && !seen.has(position)) {
          seen.add(position);
          row.parent = callRows[call]!;
          row.id = calls[call]!.id;
          const parent = rows[row.parent]!;
          (parent.nt ??= []).push(row.t);
        }
        rows.push(row);
      }
    }
  });
  for (const orphan of orphans) {
    const record = records[orphan.record]!;
    const row: ReportRow = {
      k: 'orphan',
      lane: laneOf(orphan.record),
      t: at(orphan.record),
      dir: record.dir,
      m: record.method ?? '(orphan answer)',
      st: record.kind === 'error' ? 'error' : 'ok',
      fl: ['orphan'],
      p: [orphan.record],
    };
    if (record.id !== undefined) row.id = record.id;
    rows.push(row);
  }
  // Time order; the page keeps row indices, so parents are remapped after sorting.
  const order = rows.map((_, i) => i).sort((a, b) => rows[a]!.t - rows[b]!.t || a - b);
  const newIndex = new Array<number>(rows.length);
  order.forEach((old, i) => (newIndex[old] = i));
  const sorted = order.map((old) => {
    const row = rows[old]!;
    if (row.parent !== undefined) row.parent = newIndex[row.parent]!;
    return row;
  });

  const http = new Map<number, number>();
  for (const r of records)
    if (typeof r.http?.status === 'number') http.set(r.http.status, (http.get(r.http.status) ?? 0) + 1);
  const mcpLanes = lanes.filter((l) => l.lane !== 'ui');
  const uiSession = new Set(lanes.flatMap((l) => (l.lane === 'ui' ? [l.session] : [])));
  const revisions = [...new Set(mcpLanes.flatMap((l) => (l.revision ? [l.revision] : [])))];
  // A session that recorded no frame (a proxy's own listen and close) has a lane but is no client session.
  const framed = lanes.filter((_, i) => sessions[i]!.records.some((r) => r.kind !== 'event'));
  const counted = framed.filter((l) => l.lane !== 'ui');
  const servers = [...new Set(mcpLanes.map((l) => l.server))].map((name) => {
    const own = counted.filter((l) => l.server === name);
    return {
      name,
      sessions: own.length,
      revisions: [...new Set(own.flatMap((l) => (l.revision ? [l.revision] : [])))],
    };
  });
  const count = (kind: RowKind) => sorted.filter((r) => r.k === kind).length;
  const summary: ReportSummary = {
    file,
    records: records.length,
    servers,
    sessions: counted.length,
    uiSessions: framed.length - counted.length,
    revisions,
    requests: calls.length,
    notifications: count('note'),
    answers: calls.filter((c) => c.answer !== undefined).length,
    errors: calls.filter((c) => c.status === 'error').length,
    negotiation: calls.filter((c) => c.status === 'negotiation').length,
    invalid: count('invalid'),
    events: count('event'),
    open: calls.filter((c) => c.status === 'open').length,
    cancelled: calls.filter((c) => c.status === 'cancelled').length,
    orphans: orphans.length,
    duplicates: calls.filter((c) => c.duplicate).length,
    late: calls.filter((c) => c.late).length,
    spanMs: lanes.reduce((max, l) => Math.max(max, l.end), 0),
  };
  return {
    summary,
    lanes,
    rows: sorted,
    latency: latencyTable(calls.filter((c) => !uiSession.has(c.session))),
    errors: sorted.flatMap((r, i) => (r.st === 'error' ? [i] : [])),
    http: [...http].sort((a, b) => a[0] - b[0]).map(([status, n]) => ({ status, count: n })),
    problems,
    records: [...records],
  };
}
