/**
 * Kit servers several tests share, built in the test process (nothing is started here: serve
 * them with `startKitHttp` or `connectKitClient`).
 */
import { McpServer } from '../../src/server/index.js';

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
