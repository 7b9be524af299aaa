/**
 * The one pending-request map of a connection. Each record holds its due time, its progress
 * callback and its abort wiring, and exactly one code path ({@link PendingRequests.settle})
 * removes a record and unhooks it. One timer fires at the earliest due time, so a request costs
 * no timer of its own and a progress reset is an assignment. What giving up on a request means
 * (the error, the cancel notice) is the outbound side's (`outbound-requests.ts`): an expired
 * record goes to `onExpire`.
 *
 * A request of ours enters the map in `OutboundRequests.request` ({@link PendingRequests.add}) and
 * leaves it, on every path (response, error, timeout, cancel, close), in {@link PendingRequests.settle}.
 */
import { DeadlineTimer, now } from './deadline-timer.js';
import type { OutboundTrace } from './engine-tracing.js';
import type { JsonRpcId } from './jsonrpc.js';
import type { SendSignal } from './send-signal.js';
import type { ProgressParams } from './types.js';

/** One request of ours awaiting its answer. */
export interface PendingRecord {
  readonly id: JsonRpcId;
  readonly method: string;
  readonly resolve: (result: Record<string, unknown>) => void;
  readonly reject: (error: unknown) => void;
  readonly idleMs: number;
  readonly capMs: number;
  readonly deadline: number;
  readonly resetOnProgress: boolean;
  readonly onProgress: ((progress: ProgressParams) => void) | undefined;
  readonly cancelNotice: boolean;
  /** When the record expires (idle timeout or hard cap, whichever is first); Infinity = never. */
  due: number;
  signal: AbortSignal | undefined;
  onAbort: (() => void) | undefined;
  /** The request's send signal: present only when the connection gives each request one (`requestSignals`). */
  channel: SendSignal | undefined;
  /** Its observers' trace, when anyone listens: told how the request ended. */
  trace: OutboundTrace | undefined;
}

export class PendingRequests {
  private readonly map = new Map<JsonRpcId, PendingRecord>();
  /** The one timer of all pending records; unref'd while nothing is pending. */
  private readonly timer = new DeadlineTimer(() => this.sweep());
  private stopped = false;

  /** `onExpire` gives up on a record that is due (it is still in the map when called). */
  constructor(private readonly onExpire: (record: PendingRecord) => void) {}

  get size(): number {
    return this.map.size;
  }

  get(id: JsonRpcId): PendingRecord | undefined {
    return this.map.get(id);
  }

  /** A snapshot of the records, for a loop that settles them. */
  all(): PendingRecord[] {
    return [...this.map.values()];
  }

  /** Adds `record`, due `ms` from now. */
  add(record: PendingRecord, ms: number): void {
    this.map.set(record.id, record);
    this.arm(record, ms);
  }

  /** Sets a record to expire `ms` from now; the shared timer is re-armed only for a new earliest. */
  arm(record: PendingRecord, ms: number): void {
    record.due = Number.isFinite(ms) ? now() + Math.max(0, ms) : Infinity;
    if (this.map.size === 1) this.timer.ref();
    this.timer.atMost(record.due);
  }

  /** A progress notice for one of our requests: resets its idle timer (unless told not to) and calls its callback. */
  progress(params: ProgressParams): void {
    const record = this.map.get(params.progressToken);
    if (!record) return;
    if (record.resetOnProgress) this.arm(record, Math.min(record.idleMs, record.deadline - now()));
    if (record.onProgress) {
      try {
        record.onProgress(params);
      } catch {
        // A throwing progress callback must not break message dispatch.
      }
    }
  }

  /**
   * The one place a record leaves the map: deletes it, unhooks its abort listener, and rejects
   * it with `error` or resolves it with `result`. Callers check first that the record is still
   * the pending one (a settled record is never settled twice).
   */
  settle(record: PendingRecord, error: unknown, result?: Record<string, unknown>): void {
    this.map.delete(record.id);
    // Nothing pending: the shared timer must not keep the process alive on its own.
    if (this.map.size === 0) this.timer.unref();
    if (record.signal && record.onAbort) record.signal.removeEventListener('abort', record.onAbort);
    record.onAbort = undefined;
    record.trace?.settled(result, error);
    if (error === undefined) record.resolve(result!);
    else record.reject(error);
  }

  /** Stops the timer for good (the connection closed; every record was settled). */
  stop(): void {
    this.stopped = true;
    this.timer.stop();
  }

  /** Expires every record that is due; returns the next due time. */
  private sweep(): number {
    const t = now() + 1; // timers may fire a hair early
    let next = Infinity;
    for (const record of [...this.map.values()]) {
      if (record.due <= t) {
        if (this.map.get(record.id) === record) this.onExpire(record);
      } else if (record.due < next) next = record.due;
    }
    return this.stopped ? Infinity : next;
  }
}
