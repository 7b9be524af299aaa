/**
 * The sessions of a trace file. Traces are appended to (`--trace-file` runs, proxy runs), so one
 * file often holds several sessions, interleaved when one run traced several servers. A session
 * is what one tracer recorded: one connect of one server (its restarts included), or one client
 * session through a proxy (the proxy's own listen and close are one more). Records name their
 * tracer (`session`), and records with the same one are one session.
 * Older traces carry no session id; there each tracer's own clock tells them apart: a record
 * belongs to a session when it has the session's server and its two clocks moved together since
 * the session's last record: `t` (ms since that tracer started) did not go back, and `ts` (wall
 * clock) advanced by as much as `t` did. A new tracer restarts `t` near 0 at a different wall
 * time, which breaks one or the other. Pure computation; no I/O.
 *
 * A proxy run written before the proxy recorded each client session apart (one tracer, starting
 * with its `listen` event) is split by the records' `Mcp-Session-Id`: what comes before a session
 * id appears (the era probe, `initialize`) joins the session it starts.
 *
 * A lane is a session of its own: the MCP Apps bridge records (`lane: 'ui'`) of a server never
 * join its MCP session, even when one tracer wrote both or their clocks agree.
 */
import type { TraceLane, TraceRecord } from '../../observe/trace-record.js';

/** One session: the records one tracer wrote, in file order. */
export interface TraceSession {
  /** 1-based, in order of each session's first record in the file. */
  index: number;
  server: string;
  /** `ui` for a session of MCP Apps bridge records; absent for an MCP session. */
  lane?: TraceLane;
  /** When its tracer started (the first record's `ts` minus its `t`), ISO; undefined without clocks. */
  startedAt?: string;
  records: TraceRecord[];
  /** The indices of `records` in the list that was split. */
  positions: number[];
}

/**
 * How far (ms) `ts` may stray from what `t` predicts and still be the same tracer: `ts` has
 * millisecond precision and is read just after `t`; another tracer's origin differs by at least
 * a process start (tens of ms) or by `t` going back.
 */
const CLOCK_TOLERANCE_MS = 25;

/** Sessions of one server still tried for each record (concurrent runs appending to one file). */
const RECENT = 8;

interface Open {
  session: TraceSession;
  lastT?: number;
  lastWall?: number;
}

/** The wall time of `record` in ms, or undefined. */
function wallOf(record: TraceRecord): number | undefined {
  const wall = typeof record.ts === 'string' ? Date.parse(record.ts) : Number.NaN;
  return Number.isFinite(wall) ? wall : undefined;
}

function continues(open: Open, t: number | undefined, wall: number | undefined): boolean {
  if (t === undefined || wall === undefined || open.lastT === undefined || open.lastWall === undefined) return true;
  if (t < open.lastT) return false;
  return Math.abs(wall - open.lastWall - (t - open.lastT)) <= CLOCK_TOLERANCE_MS;
}

/**
 * Splits `records` (file order) into sessions, ordered by their first record. A record without
 * usable clocks joins its server's latest session. Never throws.
 */
export function splitSessions(records: readonly TraceRecord[]): TraceSession[] {
  const sessions: TraceSession[] = [];
  const byServer = new Map<string, Open[]>();
  const byId = new Map<string, Open>();
  records.forEach((record, position) => {
    const t = typeof record.t === 'number' && Number.isFinite(record.t) ? record.t : undefined;
    const wall = wallOf(record);
    const lane = record.lane === 'ui' ? 'ui' : undefined;
    // Server and lane: what a session never mixes.
    const where = `${record.server}\u0000${lane ?? ''}`;
    const id = typeof record.session === 'string' ? `${where}\u0000${record.session}` : undefined;
    const candidates = byServer.get(where) ?? [];
    // Named: exactly its session. Unnamed, latest first: interleaved runs of the same server are
    // told apart by their clocks; only the last few are tried, so many sessions stay linear.
    let open =
      id !== undefined
        ? byId.get(id)
        : candidates
            .slice(-RECENT)
            .reverse()
            .find((candidate) => continues(candidate, t, wall));
    if (!open) {
      const session: TraceSession = { index: sessions.length + 1, server: record.server, records: [], positions: [] };
      if (lane) session.lane = lane;
      if (t !== undefined && wall !== undefined) session.startedAt = new Date(wall - t).toISOString();
      sessions.push(session);
      open = { session };
      if (id !== undefined) byId.set(id, open);
      else {
        candidates.push(open);
        byServer.set(where, candidates);
      }
    }
    open.session.records.push(record);
    open.session.positions.push(position);
    // The clocks are compared as a pair: a record missing one of them moves neither.
    if (t !== undefined && wall !== undefined) {
      open.lastT = t;
      open.lastWall = wall;
    }
  });
  if (!sessions.some(isOldProxyRun)) return sessions;
  const split = sessions.flatMap((session) => (isOldProxyRun(session) ? byHttpSession(session) : [session]));
  split.sort((a, b) => a.positions[0]! - b.positions[0]!);
  split.forEach((session, i) => (session.index = i + 1));
  return split;
}

const sessionIdOf = (record: TraceRecord) => record.http?.headers?.['mcp-session-id'] || undefined;

/** One tracer's proxy run holding several client sessions' records. */
function isOldProxyRun(session: TraceSession): boolean {
  if (session.records[0]?.event !== 'listen') return false;
  const ids = new Set(session.records.map(sessionIdOf).filter((id) => id !== undefined));
  return ids.size > 1;
}

/**
 * `session`'s records by `Mcp-Session-Id`: the proxy's own events stay in the first part; a
 * client's `server/discover` or `initialize` without a session id starts what the next session id
 * claims; other records without one belong to the latest session.
 */
function byHttpSession(session: TraceSession): TraceSession[] {
  const part = (): TraceSession => ({ ...session, records: [], positions: [] });
  const own = part();
  const parts = [own];
  const byId = new Map<string, TraceSession>();
  let current = own;
  let pending: TraceSession | undefined;
  const add = (target: TraceSession, i: number) => {
    target.records.push(session.records[i]!);
    target.positions.push(session.positions[i]!);
  };
  session.records.forEach((record, i) => {
    const id = sessionIdOf(record);
    if (id !== undefined) {
      let target = byId.get(id);
      if (!target) {
        target = pending ?? part();
        pending = undefined;
        byId.set(id, target);
        if (!parts.includes(target)) parts.push(target);
      }
      current = target;
      add(target, i);
      return;
    }
    const starts =
      record.dir === 'out' &&
      record.kind === 'request' &&
      (record.method === 'server/discover' || record.method === 'initialize');
    if (starts && !pending) {
      pending = part();
      parts.push(pending);
    }
    add(record.event === 'listen' || record.event === 'close' ? own : (pending ?? current), i);
  });
  return parts.filter((p) => p.records.length > 0);
}
