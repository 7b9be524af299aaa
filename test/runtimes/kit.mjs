// The kit server every runtime test serves (kit-app.mjs through serve.mjs, kit-worker.mjs on
// workerd): `McpServer` + `createFetchHandler` from the built `mcpwire/server`, both eras, legacy
// sessions in the given state (memory when none). Imports nothing but `mcpwire/server`, so it
// bundles for a Worker. Tools:
// - `add` { a, b }: { sum } after progress 1/2 and 2/2;
// - `gate`: reports progress 1, then runs until aborted (the abort is counted) or a minute passed
//   (the pending timer is the work a real tool would be doing: workerd cancels a request that
//   waits on nothing as hung);
// - `aborts`: { aborts } (how many `gate` calls saw their abort);
// - `register` { name }: registers a tool of that name (a tools/list_changed);
// - `streams`: { openStreams } (the handler's open legacy GET streams).
import { createFetchHandler, McpServer } from 'mcpwire/server';

const object = { type: 'object' };

/** The kit server with its tools; `handler()` is the fetch handler once it exists (`streams` reads it). */
export function kitServer(state, handler) {
  const server = new McpServer({ name: 'kit-everywhere', version: '1.0.0', logger: () => undefined, state });
  let aborts = 0;
  server.registerTool({
    name: 'add',
    inputSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] },
    outputSchema: { type: 'object', properties: { sum: { type: 'number' } }, required: ['sum'] },
    handler: ({ a, b }, context) => {
      context.progress(1, 2);
      context.progress(2, 2);
      return { structuredContent: { sum: a + b } };
    },
  });
  server.registerTool({
    name: 'gate',
    inputSchema: object,
    handler: (_args, context) =>
      new Promise((resolve) => {
        const timer = setTimeout(() => resolve({ content: [] }), 60_000);
        context.signal.addEventListener('abort', () => {
          clearTimeout(timer);
          aborts++;
          resolve({ content: [] });
        });
        context.progress(1);
      }),
  });
  server.registerTool({ name: 'aborts', inputSchema: object, handler: () => ({ structuredContent: { aborts } }) });
  server.registerTool({
    name: 'register',
    inputSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
    handler: ({ name }) => {
      server.registerTool({ name, inputSchema: object, handler: () => ({ content: [] }) });
      return { content: [] };
    },
  });
  server.registerTool({
    name: 'streams',
    inputSchema: object,
    handler: () => ({ structuredContent: { openStreams: handler().openStreams } }),
  });
  return server;
}

/**
 * The kit served by a fetch handler (`options`: more of its options): `{ fetch, close }`, where
 * close ends the handler, the server and `state` (when given).
 */
export function createKit(state, options = {}) {
  let handler;
  const server = kitServer(state, () => handler);
  handler = createFetchHandler(server, { path: '/mcp', ...options });
  return {
    fetch: handler,
    close: async () => {
      await handler.close({ graceMs: 1_000 });
      await server.close();
      await state?.close();
    },
  };
}
