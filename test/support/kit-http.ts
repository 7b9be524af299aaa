/**
 * A kit server behind `createHttpHandler` on a real listener (127.0.0.1, port 0), and its
 * teardown: the handler's graceful close, then the listener with its connections.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { onTestFinished } from 'vitest';
import type { HttpHandlerOptions, McpHttpHandler, McpServer } from '../../src/server/index.js';
import { createHttpHandler } from '../../src/server/index.js';

/** A kit server's HTTP endpoint on a real listener; `close()` is idempotent. */
export interface KitHttp {
  /** `http://127.0.0.1:PORT/mcp` */
  url: string;
  port: number;
  handler: McpHttpHandler;
  listener: http.Server;
  /** Closes the handler gracefully (1 s), then the listener and its connections; not the kit server. */
  close(): Promise<void>;
}

/**
 * Listens first, then serves `server` through `createHttpHandler({ path: '/mcp', ...options(url) })`:
 * for options that need the endpoint's URL (the canonical resource of a protected server).
 */
export async function listenKitAt(server: McpServer, options: (url: string) => HttpHandlerOptions): Promise<KitHttp> {
  let handler: McpHttpHandler | undefined;
  const listener = http.createServer((req, res) => handler!(req, res));
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  const { port } = listener.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}/mcp`;
  handler = createHttpHandler(server, { path: '/mcp', ...options(url) });
  let closing: Promise<void> | undefined;
  return {
    url,
    port,
    handler,
    listener,
    close: () =>
      (closing ??= (async () => {
        await handler.close({ graceMs: 1_000 });
        listener.closeAllConnections();
        await new Promise<void>((resolve) => listener.close(() => resolve()));
      })()),
  };
}

/** Serves `server` through `createHttpHandler(options)` at `/mcp` on 127.0.0.1, port 0. */
export function listenKit(server: McpServer, options: HttpHandlerOptions = {}): Promise<KitHttp> {
  return listenKitAt(server, () => options);
}

/**
 * {@link listenKit} for one test (call it inside the test): when the test finishes, after its
 * `afterEach` hooks, the endpoint is closed and then `server` itself.
 */
export async function startKitHttp(server: McpServer, options?: HttpHandlerOptions): Promise<KitHttp> {
  onTestFinished(() => server.close());
  const kit = await listenKit(server, options);
  onTestFinished(() => kit.close());
  return kit;
}
