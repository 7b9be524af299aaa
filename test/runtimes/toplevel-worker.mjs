// A Worker as its docs show it: the server and its handler made at the module's top level.
import { createFetchHandler, McpServer } from 'mcpwire/server';

const server = new McpServer({ name: 'top-level', version: '1.0.0', logger: () => undefined });
server.registerTool({
  name: 'add',
  inputSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] },
  handler: ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }] }),
});
const handler = createFetchHandler(server, { path: '/mcp' });

export default { fetch: handler };
