/**
 * The 2026-07-28 change feed: one `subscriptions/listen` request that stays open while the
 * server pushes list-changed and resource-updated notifications on it. Changing the filter
 * replaces the stream (the old one is cancelled); an abnormal end re-listens with capped backoff.
 */
import { isMcpError } from '../protocol/errors.js';
import type { SubscriptionFilter } from '../protocol/types.js';

/** Opens one listen stream; resolves when the server ends it gracefully, rejects otherwise. */
export type OpenListen = (filter: SubscriptionFilter, signal: AbortSignal) => Promise<unknown>;

const MAX_RETRIES = 5;
const BASE_DELAY_MS = 250;
const MAX_DELAY_MS = 5_000;

/** Keeps one listen stream matching the wanted filter. */
export class ListenStream {
  private controller: AbortController | undefined;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private failures = 0;
  private stopped = false;
  private filter: SubscriptionFilter = {};

  constructor(
    private readonly open: OpenListen,
    private readonly report: (message: string) => void,
  ) {}

  /** Replaces the filter; opens, reopens or (for an empty filter) ends the stream. */
  update(filter: SubscriptionFilter): void {
    if (this.stopped) return;
    this.filter = filter;
    this.failures = 0;
    this.restart();
  }

  /** Ends the stream for good (on client close). Idempotent. */
  stop(): void {
    this.stopped = true;
    this.clearRetry();
    this.controller?.abort();
    this.controller = undefined;
  }

  private restart(): void {
    this.clearRetry();
    this.controller?.abort();
    this.controller = undefined;
    if (isEmpty(this.filter)) return;
    const controller = new AbortController();
    this.controller = controller;
    this.open(this.filter, controller.signal).then(
      () => {
        // Graceful end from the server: it chose to stop; do not hammer it with re-listens.
        if (this.controller === controller) this.controller = undefined;
      },
      (error: unknown) => {
        if (this.controller !== controller || this.stopped) return;
        this.controller = undefined;
        if (isMcpError(error, 'CONNECTION_CLOSED') || isMcpError(error, 'CANCELLED')) return;
        if (this.failures >= MAX_RETRIES) {
          this.report(`subscriptions/listen failed ${this.failures + 1} times; giving up: ${String(error)}`);
          return;
        }
        const delay = Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** this.failures++);
        this.report(`subscriptions/listen ended abnormally (${String(error)}); re-listening in ${delay} ms`);
        this.retryTimer = setTimeout(() => {
          this.retryTimer = undefined;
          this.restart();
        }, delay);
      },
    );
  }

  private clearRetry(): void {
    if (this.retryTimer !== undefined) clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
  }
}

function isEmpty(filter: SubscriptionFilter): boolean {
  return (
    !filter.toolsListChanged &&
    !filter.promptsListChanged &&
    !filter.resourcesListChanged &&
    !filter.resourceSubscriptions?.length
  );
}
