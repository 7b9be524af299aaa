/**
 * What ends one exchange of a transport: the request's own signal (when the connection gave
 * one) or the transport's close. The two are followed side by side (`exchange()` takes both)
 * instead of being linked through a new AbortController per request: on Node 20 creating an
 * AbortSignal costs several µs of CPU and grows the heap (issue 11: with the rest of the
 * one-path change, 7–21 % less client CPU per call in an in-process A/B against main).
 */
import type { ExchangeOptions } from './dispatch.js';

export class ExchangeLink {
  /**
   * @param request the request's signal; aborting it ends the exchange quietly (the caller gave up)
   * @param life the transport's lifetime; aborting it (close) ends every exchange
   */
  constructor(
    readonly request: AbortSignal | undefined,
    readonly life: AbortSignal,
  ) {}

  /** True once either signal aborted. */
  get aborted(): boolean {
    return this.life.aborted || this.request?.aborted === true;
  }

  /** The `signal` and `lifetime` of an `exchange()` that ends when this link does. */
  get signals(): Pick<ExchangeOptions, 'signal' | 'lifetime'> {
    return this.request ? { signal: this.request, lifetime: this.life } : { signal: this.life };
  }

  /**
   * One signal for both, for the rare waits that take a single signal (between resumptions of
   * an SSE stream). Built on each call: keep it to paths that are not per request.
   */
  combined(): AbortSignal {
    return this.request ? AbortSignal.any([this.request, this.life]) : this.life;
  }
}
