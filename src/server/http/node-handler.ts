/**
 * The server kit's Streamable HTTP as a `node:http` request handler: `(req, res)`, usable with
 * `http.createServer`, Express, Fastify's raw request and response, or anything else that hands
 * over Node's request and response. The Node edge of the one core (`http-core.ts`): it writes
 * straight to the `ServerResponse` (no `Request`/`Response` objects). Node only.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { NodeRequestIn, NodeSink } from '../../transport/http-server/node-exchange.js';
import type { McpServer } from '../mcp-server.js';
import { HttpCore, withControls } from './http-core.js';
import type { HttpHandlerOptions, McpHandlerControls } from './http-handler-options.js';

/** A `(req, res)` handler with a graceful `close`. */
export interface McpHttpHandler extends McpHandlerControls {
  (req: IncomingMessage, res: ServerResponse): void;
}

/**
 * Makes the handler. Throws `INVALID_ARGUMENT` for an unknown option key or a bad number.
 * The handler never throws: every failure is an HTTP answer (500 for a bug, logged).
 */
export function createHttpHandler(server: McpServer, options: HttpHandlerOptions = {}): McpHttpHandler {
  const core = new HttpCore(server, options);
  const handler = ((req: IncomingMessage, res: ServerResponse) =>
    core.handle(new NodeRequestIn(req), new NodeSink(res, core.keepAlive))) as McpHttpHandler;
  return withControls(handler, core);
}
