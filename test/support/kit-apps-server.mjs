#!/usr/bin/env node
// A kit server with MCP Apps (from dist/: run `npm run build` first), on its own stdin/stdout, or
// with `--http` on 127.0.0.1:0 at /mcp (prints {"port":N}; SIGTERM closes it). `--show-app-only`
// sets `apps: { hideAppOnlyFromTextClients: false }`. Offers:
// - `weather` {city}: an app tool (view `ui://weather/view.html`) answering empty `content` and
//   `structuredContent` { city, tempC, ui } (`ui`: the client's declared ui settings, or null);
// - `refresh` {region?}: app-only (`visibility: ['app']`), answers the text `refreshed`;
// - `withdraw`: disposes `weather`, `refresh` and the view (list_changed for tools and resources);
// - `ui://weather/view.html`: the view (CSP, clipboard permission, prefersBorder), listed;
// - `ui://weather/unlisted.html`: a view left out of resources/list.
import http from 'node:http';
import { createHttpHandler, McpServer, StdioServerTransport } from 'mcpwire/server';

const args = process.argv.slice(2);
const server = new McpServer({
  name: 'kit-apps',
  version: '1.0.0',
  logger: () => undefined,
  ...(args.includes('--show-app-only') ? { apps: { hideAppOnlyFromTextClients: false } } : {}),
});
const disposers = [
  server.registerAppTool({
    name: 'weather',
    description: 'The weather in a city, with a view',
    inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    ui: { resourceUri: 'ui://weather/view.html' },
    handler: ({ city }, context) => ({
      content: [],
      structuredContent: { city, tempC: 21, ui: context.ui ?? null },
    }),
  }),
  server.registerAppTool({
    name: 'refresh',
    // An HTTP header parameter (2026): a client that was shown the tool sends Mcp-Param-Region.
    inputSchema: { type: 'object', properties: { region: { type: 'string', 'x-mcp-header': 'Region' } } },
    ui: { resourceUri: 'ui://weather/view.html', visibility: ['app'] },
    handler: () => ({ content: [{ type: 'text', text: 'refreshed' }] }),
  }),
  server.registerAppResource({
    uri: 'ui://weather/view.html',
    name: 'Weather view',
    description: 'The weather view',
    html: async () => '<!doctype html><html><body><h1>Weather</h1></body></html>',
    csp: { connectDomains: ['https://api.example.com'], resourceDomains: ['https://cdn.example.com'] },
    permissions: { clipboardWrite: {} },
    prefersBorder: true,
  }),
];
server.registerAppResource({
  uri: 'ui://weather/unlisted.html',
  name: 'Unlisted view',
  html: '<!doctype html><p>unlisted</p>',
  listed: false,
});
server.registerTool({
  name: 'withdraw',
  inputSchema: { type: 'object' },
  handler: () => {
    for (const dispose of disposers.splice(0)) dispose();
    return { content: [{ type: 'text', text: 'withdrawn' }] };
  },
});

if (args.includes('--http')) {
  const handler = createHttpHandler(server, { path: '/mcp' });
  const listener = http.createServer((req, res) => handler(req, res));
  listener.listen(0, '127.0.0.1', () => process.stdout.write(`${JSON.stringify({ port: listener.address().port })}\n`));
  process.once('SIGTERM', async () => {
    await handler.close({ graceMs: 1_000 });
    listener.closeAllConnections();
    listener.close();
    await server.close();
  });
} else {
  await server.connect(new StdioServerTransport()).closed;
}
