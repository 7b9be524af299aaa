/**
 * What ends one exchange of a transport: the request's own signal (when the connection gave
 * one) or the transport's close. The two are followed side by side (`exchange()` takes both)
 * instead of being linked through a new AbortController per request, and the transport's
 * lifetime is followed through an {@link AbortFanout}, never with a listener on its AbortSignal
 * per exchange. Both cost most of a call's client CPU on Node 20 in garbage collection (issue
 * 11, measured in fresh bench processes at 64 calls in flight: the reasons are in
 * send-signal.ts and abort-fanout.ts).
 */
import type { AbortFanout } from './abort-fanout.js';
import { toAbortSignal, type AbortLike } from '../../protocol/send-signal.js';
import type { ExchangeOptions } from './http-engine.js';

export class ExchangeLink {
  /**
   * @param request the request's signal; aborting it ends the exchange quietly (the caller gave up)
   * @param life the transport's lifetime; aborting it (close) ends every exchange
   */
  constructor(
    readonly request: AbortLike | undefined,
    readonly life: AbortFanout,
  ) {}

  /** True once either signal aborted. */
  get aborted(): boolean {
    return this.life.aborted || this.request?.aborted === true;
  }

  /** The `signal` and `lifetime` of an `exchange()` that ends when this link does. */
  get signals(): Pick<ExchangeOptions, 'signal' | 'lifetime'> {
    return this.request ? { signal: this.request, lifetime: this.life } : { lifetime: this.life };
  }

  /**
   * One signal for both, for the rare waits that take a single signal (between resumptions of
   * an SSE stream). Built on each call: keep it to paths that are not per request.
   */
  combined(): AbortSignal {
    return this.request ? AbortSignal.any([toAbortSignal(this.request)!, this.life.signal]) : this.life.signal;
  }
}
