/**
 * A trace in the Trace Event Format (the JSON Object Format that Perfetto and `chrome://tracing`
 * open): a process per server, a thread per session (named by `M` metadata events), requests as
 * complete events (`X`, from send to answer; over HTTP with the answer's status and headers in
 * `args.http`), notifications and trace events (spawn, exit,
 * stderr, HTTP statuses, invalid frames) as thread-scoped instants (`i`). Times are microseconds
 * since the trace's first record; `otherData.startedAt` gives that moment's wall-clock time.
 */
import type { TraceRecord } from '../../observe/trace-record.js';
import { VERSION } from '../../util/version.js';
import { SessionClock } from './session-clock.js';
import type { SessionExport } from './trace-spans.js';

/** One trace event (the fields this writer uses). */
export interface TraceEvent {
  name: string;
  ph: 'X' | 'i' | 'M';
  /** Microseconds since the trace's start. */
  ts: number;
  /** `X` only: microseconds, never negative. */
  dur?: number;
  pid: number;
  tid: number;
  cat?: string;
  /** `i` only: `t`, the thread's lane. */
  s?: 't';
  args?: Record<string, unknown>;
}

export interface ChromeTrace {
  traceEvents: TraceEvent[];
  displayTimeUnit: 'ms';
  otherData: { creator: string; startedAt?: string };
}

/** Microseconds, rounded to the nanosecond (the format takes fractions). */
function micros(ms: number): number {
  return Math.round(ms * 1e6) / 1e3;
}

/** What an instant of a non-span record says: the event's facts, or the invalid frame's text. */
function instantOf(record: TraceRecord): { name: string; cat: string; args: Record<string, unknown> } | undefined {
  if (record.kind === 'event')
    return {
      name: record.event ?? 'event',
      cat: 'event',
      args: {
        ...(record.detail ?? {}),
        ...(record.http ? { http: record.http } : {}),
      },
    };
  if (record.kind === 'invalid')
    return { name: 'invalid frame', cat: 'invalid', args: { dir: record.dir, raw: record.raw } };
  return undefined;
}

/** The Trace Event Format document of `sessions` (from `spansOfTrace`). Events are sorted by time. */
export function chromeTrace(sessions: readonly SessionExport[]): ChromeTrace {
  const pids = new Map<string, number>();
  const timed: Array<{ at: number; end: number; make: (t0: number) => TraceEvent }> = [];
  const metadata: TraceEvent[] = [];
  sessions.forEach(({ session, label, spans }, index) => {
    let pid = pids.get(session.server);
    if (pid === undefined) {
      pid = pids.size + 1;
      pids.set(session.server, pid);
      metadata.push({ name: 'process_name', ph: 'M', ts: 0, pid, tid: 0, args: { name: session.server } });
    }
    const tid = index + 1;
    const threadName = `session ${session.index}${session.startedAt ? ` (${session.startedAt})` : ''}`;
    metadata.push({ name: 'thread_name', ph: 'M', ts: 0, pid, tid, args: { name: threadName, session: label } });
    metadata.push({ name: 'thread_sort_index', ph: 'M', ts: 0, pid, tid, args: { sort_index: tid } });
    for (const span of spans) {
      const args = {
        ...span.attributes,
        ...(span.status.error ? { error: span.status.message ?? true } : {}),
        ...(span.http ? { http: span.http } : {}),
      };
      const cat = `mcp.${span.kind}`;
      if (span.type === 'notification')
        timed.push({
          at: span.startMs,
          end: span.startMs,
          make: (t0) => ({ name: span.name, ph: 'i', s: 't', ts: micros(span.startMs - t0), pid, tid, cat, args }),
        });
      else
        timed.push({
          at: span.startMs,
          end: span.endMs,
          make: (t0) => ({
            name: span.name,
            ph: 'X',
            ts: micros(span.startMs - t0),
            dur: Math.max(0, micros(span.endMs - span.startMs)),
            pid,
            tid,
            cat,
            args,
          }),
        });
    }
    const clock = new SessionClock();
    for (const record of session.records) {
      const at = clock.timeOf(record);
      const instant = instantOf(record);
      if (instant)
        timed.push({ at, end: at, make: (t0) => ({ ...instant, ph: 'i', s: 't', ts: micros(at - t0), pid, tid }) });
    }
  });
  const t0 = timed.reduce((min, event) => Math.min(min, event.at), Number.POSITIVE_INFINITY);
  const origin = Number.isFinite(t0) ? t0 : 0;
  // Longer events first at equal times, so an enclosing span opens before what it encloses.
  timed.sort((a, b) => a.at - b.at || b.end - a.end);
  return {
    traceEvents: [...metadata, ...timed.map((event) => event.make(origin))],
    displayTimeUnit: 'ms',
    otherData: {
      creator: `mcpwire ${VERSION}`,
      ...(Number.isFinite(t0) ? { startedAt: new Date(Math.floor(t0)).toISOString() } : {}),
    },
  };
}
