#!/usr/bin/env node
// A small server on the built kit (`mcpwire/server`, from dist/: run `npm run build` first),
// served over its own stdin/stdout. Tools: `echo {text}` and `crash` (throws; the kit logs the
// stack as one JSON line on stderr). Exits by itself when stdin ends.
import { McpServer, StdioServerTransport } from 'mcpwire/server';

const server = new McpServer({ name: 'kit-stdio', version: '0.0.1' });
server.registerTool({
  name: 'echo',
  inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  handler: ({ text }) => ({ content: [{ type: 'text', text }] }),
});
server.registerTool({
  name: 'crash',
  inputSchema: { type: 'object' },
  handler: () => {
    throw new Error('the secret internals of crash');
  },
});
const session = server.connect(new StdioServerTransport());
await session.closed;
process.stderr.write('{"msg":"stdin ended, exiting"}\n');
