/**
 * Kit servers several tests share, built in the test process (nothing is started here: serve
 * them with `startKitHttp` or `connectKitClient`).
 */
import { McpServer } from '../../src/server/index.js';
import { within } from './wait.js';

/**
 * What the 2026 change-feed tests listen to: a server named `name` (version 0.0.1) with one tool,
 * `echo`, and one resource, `test://doc`, to subscribe to; no prompts, so `promptsListChanged` is
 * not offered.
 */
export function changeFeedServer(name: string): McpServer {
  const server = new McpServer({ name, version: '0.0.1' });
  server.registerTool({
    name: 'echo',
    inputSchema: { type: 'object' },
    handler: () => ({ content: [{ type: 'text', text: 'echo' }] }),
  });
  server.registerResource({ uri: 'test://doc', name: 'doc', read: (uri) => [{ uri, text: 'the doc' }] });
  return server;
}

/**
 * A server named `name` whose `hold` tool runs until its call is aborted (cancelled, timed out,
 * the connection gone) and then answers with no content; `held()` resolves once a `hold` call is
 * running, `aborted()` once a `hold` call saw its abort (each bounded, 10 s). Tests register
 * their other tools on `server`.
 */
export function holdingServer(name: string): {
  server: McpServer;
  held: () => Promise<void>;
  aborted: () => Promise<void>;
} {
  const server = new McpServer({ name, version: '1', logger: () => undefined });
  let wake!: () => void;
  const running = new Promise<void>((resolve) => (wake = resolve));
  let sawAbort!: () => void;
  const abortSeen = new Promise<void>((resolve) => (sawAbort = resolve));
  server.registerTool({
    name: 'hold',
    inputSchema: { type: 'object' },
    handler: async (_args, context) => {
      wake();
      await new Promise<void>((resolve) => context.signal.addEventListener('abort', () => resolve(), { once: true }));
      sawAbort();
      return { content: [] };
    },
  });
  return {
    server,
    held: () => within(running, { what: 'the hold call to run' }),
    aborted: () => within(abortSeen, { what: 'the hold call to see its abort' }),
  };
}

/** Registers `add` on `server`: the sum of numbers `a` and `b` as text, after progress 1/2 and 2/2. */
export function registerProgressAdd(server: McpServer): void {
  server.registerTool({
    name: 'add',
    inputSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] },
    handler: ({ a, b }, context) => {
      context.progress(1, 2);
      context.progress(2, 2);
      return { content: [{ type: 'text', text: String(Number(a) + Number(b)) }] };
    },
  });
}
