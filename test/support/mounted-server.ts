/**
 * The kit server every mount test serves (Hono, Express, Fastify, a Next.js route, the browser's
 * CORS page): a few tools whose runs the test can count, so what reached the tool is known
 * server-side and not inferred from what the client saw.
 */
import { McpServer } from '../../src/server/index.js';
import { within } from './wait.js';

/** What the mounted server's tools did, counted where they ran. */
export interface MountedServer {
  server: McpServer;
  /** `add` and `count` calls that ran. */
  readonly calls: number;
  /** `hold` calls whose signal aborted (the client cancelled or went away). */
  readonly aborts: number;
  /** Resolves once a `hold` call is running (bounded, 10 s). */
  held(): Promise<void>;
}

/**
 * A server named `name` with three tools:
 * - `add` `{a, b}` → `structuredContent: { sum }`, reporting progress 1/2 and 2/2 first;
 * - `count` → the number of `add`/`count` calls so far, this one included (text);
 * - `hold` reports progress 1 and runs until its signal aborts (counted in `aborts`).
 */
export function mountedServer(name: string): MountedServer {
  const server = new McpServer({ name, version: '1.0.0', logger: () => undefined });
  let calls = 0;
  let aborts = 0;
  let wake!: () => void;
  const running = new Promise<void>((resolve) => (wake = resolve));
  server.registerTool({
    name: 'add',
    inputSchema: {
      type: 'object',
      properties: { a: { type: 'number' }, b: { type: 'number' } },
      required: ['a', 'b'],
    } as const,
    outputSchema: { type: 'object', properties: { sum: { type: 'number' } }, required: ['sum'] } as const,
    handler: ({ a, b }, context) => {
      calls++;
      context.progress(1, 2);
      context.progress(2, 2);
      return { structuredContent: { sum: a + b } };
    },
  });
  server.registerTool({
    name: 'count',
    inputSchema: { type: 'object' },
    handler: () => ({ content: [{ type: 'text', text: String(++calls) }] }),
  });
  server.registerTool({
    name: 'hold',
    inputSchema: { type: 'object' },
    handler: async (_args, context) => {
      context.progress(1);
      wake();
      await new Promise<void>((resolve) => {
        if (context.signal.aborted) resolve();
        else context.signal.addEventListener('abort', () => resolve(), { once: true });
      });
      aborts++;
      return { content: [] };
    },
  });
  return {
    server,
    get calls() {
      return calls;
    },
    get aborts() {
      return aborts;
    },
    held: () => within(running, { what: 'the hold call to run' }),
  };
}
