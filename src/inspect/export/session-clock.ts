/**
 * When each record of one session happened, in wall-clock milliseconds with the precision of
 * its tracer's monotonic clock: `ts` (ISO, whole milliseconds) anchors the session once, `t`
 * (milliseconds since the tracer started, sub-millisecond) places every record after it.
 */
import type { TraceRecord } from '../../observe/trace-record.js';

export class SessionClock {
  private origin: number | undefined;
  private latest: number | undefined;

  /** The record's time (records of one session, in order). A record without clocks gets the latest time. */
  timeOf(record: TraceRecord): number {
    const t = typeof record.t === 'number' && Number.isFinite(record.t) ? record.t : undefined;
    const wall = typeof record.ts === 'string' ? Date.parse(record.ts) : Number.NaN;
    if (this.origin === undefined && t !== undefined && Number.isFinite(wall)) this.origin = wall - t;
    const at =
      t !== undefined && this.origin !== undefined
        ? this.origin + t
        : Number.isFinite(wall)
          ? wall
          : (this.latest ?? 0);
    this.latest = Math.max(this.latest ?? at, at);
    return at;
  }

  /** The latest time seen so far (0 before any record). */
  get last(): number {
    return this.latest ?? 0;
  }
}
