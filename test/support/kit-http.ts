/**
 * A kit server behind `createHttpHandler` on a real listener (127.0.0.1, port 0), and its
 * teardown: the handler's graceful close, then the listener with its connections.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { HttpHandlerOptions, McpHttpHandler, McpServer } from '../../src/server/index.js';
import { createHttpHandler } from '../../src/server/index.js';

export interface KitHttp {
  url: string;
  port: number;
  handler: McpHttpHandler;
  listener: http.Server;
  close(): Promise<void>;
}

export async function listenKit(server: McpServer, options: HttpHandlerOptions = { path: '/mcp' }): Promise<KitHttp> {
  const handler = createHttpHandler(server, options);
  const listener = http.createServer(handler);
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  const { port } = listener.address() as AddressInfo;
  let closing: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
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
