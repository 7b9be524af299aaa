/**
 * Latency and error figures of a trace's calls, per method and per tool: the one computation
 * behind `mcpwire trace show --json` (`latency`) and `mcpwire trace report`, so both print the
 * same numbers. Pure computation; no I/O.
 */
import type { TraceCall } from './trace-calls.js';

/**
 * Nearest-rank percentile of ascending `sorted` values: the smallest value with at least `p`% of
 * the values at or below it. Undefined for no values.
 */
export function nearestRank(sorted: readonly number[], p: number): number | undefined {
  if (sorted.length === 0) return undefined;
  return sorted[Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length))) - 1];
}

/**
 * The figures of one method or tool of one server. `n` is the answered calls (the latency
 * samples); `errors` those answered with a JSON-RPC error or an `isError` result, and
 * `errorRate` is `errors / n` (0 when `n` is 0). `unanswered` counts calls that never got an
 * answer in the trace (cancelled ones included); they have no latency and are not in `n`.
 * `negotiation` counts refused or ignored era probes: neither errors nor unanswered (a refused
 * one's latency is a sample). Latencies are milliseconds.
 */
export interface OperationStats {
  server: string;
  /** The method, or for per-tool rows the tool's name (`method` is then `tools/call`). */
  name: string;
  method: string;
  n: number;
  p50?: number;
  p90?: number;
  p99?: number;
  max?: number;
  errors: number;
  errorRate: number;
  unanswered: number;
  negotiation: number;
}

/** Per method and per tool figures of a trace, each sorted by server, then by `n` (highest first), then name. */
export interface LatencyTable {
  methods: OperationStats[];
  tools: OperationStats[];
}

interface Tally {
  server: string;
  name: string;
  method: string;
  samples: number[];
  errors: number;
  unanswered: number;
  negotiation: number;
}

const round = (ms: number) => Math.round(ms * 1000) / 1000;

function statsOf(tally: Tally): OperationStats {
  const sorted = [...tally.samples].sort((a, b) => a - b);
  const stats: OperationStats = {
    server: tally.server,
    name: tally.name,
    method: tally.method,
    n: sorted.length,
    errors: tally.errors,
    errorRate: sorted.length === 0 ? 0 : round(tally.errors / sorted.length),
    unanswered: tally.unanswered,
    negotiation: tally.negotiation,
  };
  if (sorted.length > 0) {
    stats.p50 = nearestRank(sorted, 50)!;
    stats.p90 = nearestRank(sorted, 90)!;
    stats.p99 = nearestRank(sorted, 99)!;
    stats.max = sorted[sorted.length - 1]!;
  }
  return stats;
}

function add(tallies: Map<string, Tally>, call: TraceCall, name: string): void {
  const key = `${call.server}\u0000${name}`;
  let tally = tallies.get(key);
  if (!tally) {
    tally = { server: call.server, name, method: call.method, samples: [], errors: 0, unanswered: 0, negotiation: 0 };
    tallies.set(key, tally);
  }
  if (call.status === 'negotiation') tally.negotiation++;
  if (call.latencyMs === undefined) {
    if (call.status !== 'negotiation') tally.unanswered++;
    return;
  }
  tally.samples.push(call.latencyMs);
  if (call.status === 'error') tally.errors++;
}

function sorted(tallies: Map<string, Tally>, servers: string[]): OperationStats[] {
  return [...tallies.values()]
    .map(statsOf)
    .sort((a, b) => servers.indexOf(a.server) - servers.indexOf(b.server) || b.n - a.n || a.name.localeCompare(b.name));
}

/** The latency table of `calls` (servers in order of their first call). */
export function latencyTable(calls: readonly TraceCall[]): LatencyTable {
  const methods = new Map<string, Tally>();
  const tools = new Map<string, Tally>();
  const servers: string[] = [];
  for (const call of calls) {
    if (!servers.includes(call.server)) servers.push(call.server);
    add(methods, call, call.method);
    if (call.tool !== undefined) add(tools, call, call.tool);
  }
  return { methods: sorted(methods, servers), tools: sorted(tools, servers) };
}
