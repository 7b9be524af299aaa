/**
 * Per server and method figures of a trace (what `mcpwire trace show --summary` prints): how
 * often each method went by, how many answers were errors, latency from the response records'
 * `latencyMs`, and bytes each way. Pure computation over records; no I/O.
 */
import type { TraceRecord } from '../../observe/trace-record.js';
import { nearestRank } from './trace-stats.js';

/** Latency figures in milliseconds over `count` answered requests (nearest-rank percentiles). */
export interface LatencyStats {
  count: number;
  min: number;
  p50: number;
  p95: number;
  max: number;
  mean: number;
}

/**
 * One method of one server. `count` is the requests and notifications with this method, either
 * way; `errors` the error responses to it plus results flagged `isError` (not the refusal of the
 * era probe: negotiation). Bytes count every
 * frame of the method (requests, notifications, their answers): `out` client → server, `in`
 * server → client. Pseudo-methods: `(batch)`, `(invalid)`, `(unmatched)` for answers whose
 * request was not in the trace.
 */
export interface MethodSummary {
  method: string;
  count: number;
  errors: number;
  latency?: LatencyStats;
  bytesOut: number;
  bytesIn: number;
}

/** One server's figures; `methods` sorted by count (highest first), then name. */
export interface ServerSummary {
  server: string;
  /** The last revision the records noted for this server. */
  revision?: string;
  /** Frames (everything but events). */
  frames: number;
  events: number;
  errors: number;
  bytesOut: number;
  bytesIn: number;
  /** Over every answered request of the server. */
  latency?: LatencyStats;
  methods: MethodSummary[];
}

/** The whole trace: servers in order of first appearance. */
export interface TraceSummary {
  records: number;
  /** Milliseconds from the first record's `t` to the last's (per file; 0 for one record). */
  spanMs: number;
  servers: ServerSummary[];
}

interface Tally {
  method: string;
  count: number;
  errors: number;
  latencies: number[];
  bytesOut: number;
  bytesIn: number;
}

const round = (ms: number) => Math.round(ms * 1000) / 1000;

/** Latency figures of `samples`, or undefined for none. */
export function latencyStats(samples: readonly number[]): LatencyStats | undefined {
  if (samples.length === 0) return undefined;
  const sorted = [...samples].sort((a, b) => a - b);
  const sum = sorted.reduce((a, b) => a + b, 0);
  return {
    count: sorted.length,
    min: sorted[0]!,
    p50: nearestRank(sorted, 50)!,
    p95: nearestRank(sorted, 95)!,
    max: sorted[sorted.length - 1]!,
    mean: round(sum / sorted.length),
  };
}

function isToolError(record: TraceRecord): boolean {
  const result = (record.message as { result?: { isError?: unknown } } | undefined)?.result;
  return typeof result === 'object' && result !== null && result.isError === true;
}

function methodOf(record: TraceRecord): string {
  switch (record.kind) {
    case 'batch':
      return '(batch)';
    case 'invalid':
      return '(invalid)';
    default:
      return record.method ?? '(unmatched)';
  }
}

/** Summarises `records` (any order of servers; records of each server in wire order). */
export function summarizeTrace(records: readonly TraceRecord[]): TraceSummary {
  const servers = new Map<string, { revision?: string; frames: number; events: number; methods: Map<string, Tally> }>();
  let first: number | undefined;
  let last: number | undefined;
  for (const record of records) {
    if (typeof record.t === 'number') {
      first ??= record.t;
      last = record.t;
    }
    let server = servers.get(record.server);
    if (!server) {
      server = { frames: 0, events: 0, methods: new Map() };
      servers.set(record.server, server);
    }
    if (record.protocolVersion) server.revision = record.protocolVersion;
    if (record.kind === 'event') {
      server.events++;
      continue;
    }
    server.frames++;
    const method = methodOf(record);
    let tally = server.methods.get(method);
    if (!tally) {
      tally = { method, count: 0, errors: 0, latencies: [], bytesOut: 0, bytesIn: 0 };
      server.methods.set(method, tally);
    }
    const bytes = typeof record.bytes === 'number' ? record.bytes : 0;
    if (record.dir === 'out') tally.bytesOut += bytes;
    else tally.bytesIn += bytes;
    if (
      record.kind === 'request' ||
      record.kind === 'notification' ||
      record.kind === 'batch' ||
      record.kind === 'invalid'
    )
      tally.count++;
    if (record.negotiation !== true && (record.kind === 'error' || (record.kind === 'response' && isToolError(record))))
      tally.errors++;
    if ((record.kind === 'response' || record.kind === 'error') && typeof record.latencyMs === 'number')
      tally.latencies.push(record.latencyMs);
  }
  return {
    records: records.length,
    spanMs: first === undefined || last === undefined ? 0 : round(last - first),
    servers: [...servers].map(([name, s]) => {
      const tallies = [...s.methods.values()].sort((a, b) => b.count - a.count || a.method.localeCompare(b.method));
      const summary: ServerSummary = {
        server: name,
        frames: s.frames,
        events: s.events,
        errors: tallies.reduce((n, t) => n + t.errors, 0),
        bytesOut: tallies.reduce((n, t) => n + t.bytesOut, 0),
        bytesIn: tallies.reduce((n, t) => n + t.bytesIn, 0),
        methods: tallies.map((t) => {
          const m: MethodSummary = {
            method: t.method,
            count: t.count,
            errors: t.errors,
            bytesOut: t.bytesOut,
            bytesIn: t.bytesIn,
          };
          const latency = latencyStats(t.latencies);
          if (latency) m.latency = latency;
          return m;
        }),
      };
      if (s.revision) summary.revision = s.revision;
      const latency = latencyStats(tallies.flatMap((t) => t.latencies));
      if (latency) summary.latency = latency;
      return summary;
    }),
  };
}

/** `0.42ms`, `12.3ms`, `1.25s`; `-` when there is no figure. */
export function formatMs(ms: number | undefined): string {
  if (ms === undefined) return '-';
  if (ms >= 1000) return `${(ms / 1000).toFixed(2)}s`;
  return `${ms < 10 ? ms.toFixed(2) : ms.toFixed(1)}ms`;
}

/** `512B`, `12.3KiB`, `4.0MiB`. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes}B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)}KiB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)}MiB`;
}

const plural = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;

const HEADER = ['server', 'method', 'count', 'errors', 'min', 'p50', 'p95', 'max', 'mean', 'out', 'in'];
/** Columns aligned left (text); the others are right-aligned numbers. */
const LEFT = new Set([0, 1]);

function row(
  server: string,
  method: string,
  count: number | string,
  errors: number,
  latency: LatencyStats | undefined,
  out: number,
  inbound: number,
): string[] {
  return [
    server,
    method,
    String(count),
    String(errors),
    formatMs(latency?.min),
    formatMs(latency?.p50),
    formatMs(latency?.p95),
    formatMs(latency?.max),
    formatMs(latency?.mean),
    formatBytes(out),
    formatBytes(inbound),
  ];
}

/**
 * The summary as plain text lines (no colours, no trailing spaces): a header, one row per server
 * and method, and a `(all)` row per server with its totals; then one line naming each server's
 * revision and event count.
 */
export function formatSummary(summary: TraceSummary): string[] {
  const rows: string[][] = [HEADER];
  for (const s of summary.servers) {
    for (const m of s.methods) rows.push(row(s.server, m.method, m.count, m.errors, m.latency, m.bytesOut, m.bytesIn));
    const count = s.methods.reduce((n, m) => n + m.count, 0);
    rows.push(row(s.server, '(all)', count, s.errors, s.latency, s.bytesOut, s.bytesIn));
  }
  const widths = HEADER.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
  const lines = rows.map((r) =>
    r
      .map((cell, c) => (LEFT.has(c) ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!)))
      .join('  ')
      .trimEnd(),
  );
  for (const s of summary.servers) {
    lines.push(
      `${s.server}: revision ${s.revision ?? 'unknown'}, ${plural(s.frames, 'frame')}, ${plural(s.events, 'event')}`,
    );
  }
  lines.push(`${plural(summary.records, 'record')} over ${formatMs(summary.spanMs)}`);
  return lines;
}
