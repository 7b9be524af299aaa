/**
 * Which HTTP shape each URL spoke when it was last detected (`modern` Streamable HTTP, `legacy`
 * Streamable HTTP, or 2024-11-05 `sse`), so the next connect to it tries that first and skips
 * the probes. Only detection writes here (see `connect-http.ts`); a route that fails is forgotten.
 */

/** How a URL was reached. */
export type HttpRoute = 'modern' | 'legacy' | 'sse';

/** The route verdicts of URLs, by URL. Give one to `McpClient.connect` as `http.routes` to keep verdicts apart. */
export class HttpRouteCache {
  private readonly routes = new Map<string, HttpRoute>();

  /** The verdict for `url`, if one was detected. */
  get(url: string): HttpRoute | undefined {
    return this.routes.get(url);
  }

  /** Remembers what detection found for `url`. */
  set(url: string, route: HttpRoute): void {
    this.routes.set(url, route);
  }

  /** Forgets `url`'s verdict: the next connect probes it afresh. */
  delete(url: string): void {
    this.routes.delete(url);
  }

  /** Forgets every verdict. */
  clear(): void {
    this.routes.clear();
  }
}

/**
 * The process's verdicts: every connect without `http.routes` reads and writes these. Module-level
 * on purpose: what a URL speaks does not depend on which client asks, so a second connect to a
 * known URL skips the probes whoever makes it, for the life of the process.
 */
export const PROCESS_HTTP_ROUTES = new HttpRouteCache();
