/**
 * The owner leases of this node's resumable POST streams (legacy sessions) in a given event log:
 * a stream is opened claimed for `leaseMs`, and while any runs one timer renews the claims of all
 * of them every third of it. When this node dies the renewals stop, and a client that resumes one
 * of its streams on another node gets what was logged and then an error within `leaseMs`
 * (`resumable-streams.ts`). No timer runs while no stream does.
 */
import type { ServerLogger } from '../server-types.js';
import type { EventLog, StreamLease } from '../state/event-log.js';

export class StreamLeases {
  private readonly running = new Set<string>();
  private timer: ReturnType<typeof setInterval> | undefined;

  constructor(
    private readonly log: EventLog,
    /** Whose node id the leases name (read when first needed). */
    private readonly node: { readonly nodeId: string },
    readonly leaseMs: number,
    private readonly logger: ServerLogger,
  ) {}

  /** The lease a stream of requests `requestIds` opens with; it is renewed until {@link ended}. */
  claim(streamId: string, requestIds: readonly (string | number)[], now: number): StreamLease {
    this.running.add(streamId);
    this.timer ??= setInterval(() => this.renew(), Math.max(1, Math.floor(this.leaseMs / 3)));
    this.timer.unref?.();
    return { leaseUntil: now + this.leaseMs, requestIds };
  }

  /** The stream ended (or its session did): its lease is no longer renewed. */
  ended(streamId: string): void {
    this.running.delete(streamId);
    if (this.running.size === 0) this.stop();
  }

  /** The handler closed: no more renewals (another node's reader of a stream still running here sees it orphaned). */
  close(): void {
    this.running.clear();
    this.stop();
  }

  private stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  private renew(): void {
    const now = Date.now();
    this.log.renew(this.node.nodeId, [...this.running], now + this.leaseMs, now).catch((error: unknown) =>
      this.logger({
        level: 'warning',
        msg: 'the event log refused to renew the leases of SSE streams',
        error: error instanceof Error ? error.message : 'a non-Error value',
      }),
    );
  }
}
