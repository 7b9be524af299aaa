/**
 * The server kit's Streamable HTTP as a fetch handler: `(request: Request) => Promise<Response>`,
 * for every runtime and framework that speaks web standards (`Deno.serve(handler)`,
 * `Bun.serve({ fetch: handler })`, `export default { fetch: handler }` on Workers, Hono's
 * `c.req.raw`, a Next.js route handler). The web edge of the one core (`http-core.ts`): a
 * client that goes away (the request's `signal`, or the response stream cancelled) cancels its
 * requests as a closed node:http response does.
 */
import { FetchRequestIn, FetchSink } from '../../transport/http-server/fetch-exchange.js';
import type { McpServer } from '../mcp-server.js';
import { HttpCore, withControls } from './http-core.js';
import type { HttpHandlerOptions, McpHandlerControls } from './http-handler-options.js';

/** Options of {@link createFetchHandler}: those of `createHttpHandler`. */
export type FetchHandlerOptions = HttpHandlerOptions;

/**
 * A fetch handler with a graceful `close`. Arguments after the request (a Worker's `env` and
 * `ctx`, a Next.js route's context) are ignored.
 */
export interface McpFetchHandler extends McpHandlerControls {
  (request: Request, ...ignored: unknown[]): Promise<Response>;
}

/**
 * Makes the handler. Throws `INVALID_ARGUMENT` for an unknown option key or a bad number.
 * The handler never rejects: every failure is an HTTP answer (500 for a bug, logged).
 */
export function createFetchHandler(server: McpServer, options: FetchHandlerOptions = {}): McpFetchHandler {
  const core = new HttpCore(server, options);
  const handler = ((request: Request) => {
    const sink = new FetchSink(request.signal, core.keepAlive);
    core.handle(new FetchRequestIn(request), sink);
    return sink.response;
  }) as McpFetchHandler;
  return withControls(handler, core);
}
