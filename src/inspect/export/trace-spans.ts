/**
 * Spans of a whole trace file (sessions split as `trace show` splits them), and of records as
 * they are written (`--otlp-endpoint`): both through {@link SessionSpans}, so a live span and
 * the exported span of the same record are alike.
 */
import type { TraceRecord } from '../../observe/trace-record.js';
import { splitSessions, type TraceSession } from '../trace/trace-sessions.js';
import type { McpSpan, SpanOptions } from './mcp-span.js';
import { SessionSpans } from './session-spans.js';

/** One session of a trace with its spans (ordered by start). */
export interface SessionExport {
  session: TraceSession;
  /** The session's name in ids and spans: its tracer's `session`, else its index and start. */
  label: string;
  spans: McpSpan[];
}

/** The session name of a clock-split session (traces written before records named their tracer). */
function labelOf(session: TraceSession): string {
  const named = session.records.find((record) => typeof record.session === 'string')?.session;
  return named ?? `session-${session.index}@${session.startedAt ?? 'unknown'}`;
}

/** Every session of `records` (file order) with its spans. Pure; never throws. */
export function spansOfTrace(records: readonly TraceRecord[], options: SpanOptions = {}): SessionExport[] {
  const sessions = splitSessions(records);
  const labels = sessions.map(labelOf);
  return sessions.map((session, i) => {
    // An older proxy run split by Mcp-Session-Id: its parts share one tracer, not their ids.
    const label =
      labels.indexOf(labels[i]!) === labels.lastIndexOf(labels[i]!) ? labels[i]! : `${labels[i]!}#${session.index}`;
    const builder = new SessionSpans(session.server, label, options);
    const spans = session.records.flatMap((record) => builder.add(record));
    spans.push(...builder.finish());
    spans.sort((a, b) => a.startMs - b.startMs || a.endMs - b.endMs);
    return { session, label, spans };
  });
}

/** Sessions a {@link LiveSpans} keeps; the oldest beyond this is finished and forgotten. */
const MAX_LIVE_SESSIONS = 1_000;

/**
 * Spans of records as they arrive, any number of sessions interleaved (told apart by their
 * tracer's `session`; records without one share their server's). A session is kept for its
 * whole life (restarts included), so its spans are the ones {@link spansOfTrace} makes of the file.
 */
export class LiveSpans {
  private readonly sessions = new Map<string, SessionSpans>();

  constructor(private readonly options: SpanOptions = {}) {}

  /** The spans `record` finishes. Never throws. */
  add(record: TraceRecord): McpSpan[] {
    const label = typeof record.session === 'string' ? record.session : 'live';
    const key = `${record.server}\u0000${label}`;
    const spans: McpSpan[] = [];
    let builder = this.sessions.get(key);
    if (!builder) {
      if (this.sessions.size >= MAX_LIVE_SESSIONS) {
        const [oldestKey, oldest] = this.sessions.entries().next().value as [string, SessionSpans];
        this.sessions.delete(oldestKey);
        spans.push(...oldest.finish());
      }
      builder = new SessionSpans(record.server, label, this.options);
      this.sessions.set(key, builder);
    }
    spans.push(...builder.add(record));
    return spans;
  }

  /** Ends what is still open in every session (as unanswered) and forgets them. */
  finish(): McpSpan[] {
    const spans = [...this.sessions.values()].flatMap((builder) => builder.finish());
    this.sessions.clear();
    return spans;
  }
}
