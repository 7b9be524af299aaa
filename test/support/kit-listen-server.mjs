#!/usr/bin/env node
// A kit server (`mcpwire/server` from dist/: run `npm run build` first) on its own stdin/stdout,
// for the 2026 change feed (`subscriptions/listen`). Tools a test drives it with:
//   add_tool {name}   registers a tool of that name (tools list_changed)
//   touch {uri}       server.notifyResourceUpdated(uri) (resources/updated)
//   shutdown          server.close(): open listens end with their completion result
// One resource, `test://doc`, so resources can be subscribed to; no prompts (promptsListChanged
// is not offered). Logs `{"msg":"closed"}` on stderr and exits once the session is closed.
import { McpServer, StdioServerTransport } from 'mcpwire/server';

const server = new McpServer({ name: 'kit-listen', version: '0.0.1' });
const NAME = { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] };
server.registerTool({
  name: 'add_tool',
  inputSchema: NAME,
  handler: ({ name }) => {
    server.registerTool({
      name,
      inputSchema: { type: 'object' },
      handler: () => ({ content: [{ type: 'text', text: name }] }),
    });
    return { content: [{ type: 'text', text: `added ${name}` }] };
  },
});
server.registerTool({
  name: 'touch',
  inputSchema: { type: 'object', properties: { uri: { type: 'string' } }, required: ['uri'] },
  handler: ({ uri }) => {
    server.notifyResourceUpdated(uri);
    return { content: [{ type: 'text', text: `touched ${uri}` }] };
  },
});
server.registerTool({
  name: 'shutdown',
  inputSchema: { type: 'object' },
  handler: () => {
    setImmediate(() => void server.close());
    return { content: [{ type: 'text', text: 'closing' }] };
  },
});
server.registerResource({ uri: 'test://doc', name: 'doc', read: (uri) => [{ uri, text: 'the doc' }] });
const session = server.connect(new StdioServerTransport());
await session.closed;
process.stderr.write('{"msg":"closed"}\n');
