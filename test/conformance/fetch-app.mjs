// The conformance kit (conformance-kit.mjs) through `createFetchHandler`, as an app for
// test/runtimes/serve.mjs: the suite's server scenarios run against it under node
// (`@hono/node-server`), deno (`Deno.serve`) and bun (`Bun.serve`).
import { createFetchHandler } from 'mcpwire/server';
import { server } from './conformance-kit.mjs';

export async function createApp() {
  const handler = createFetchHandler(server, { path: '/mcp' });
  return {
    fetch: handler,
    close: async () => {
      await handler.close({ graceMs: 2000 });
      await server.close(); // cancels the tasks still running (their sleeps hold the event loop)
    },
  };
}
