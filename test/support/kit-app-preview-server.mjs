#!/usr/bin/env node
// A kit server (dist/: run `npm run build` first) on stdin/stdout whose app is an ext-apps view,
// for `mcpwire app`: `node kit-app-preview-server.mjs VIEW.html`. Offers `show_weather` {city}
// (view `ui://weather/app.html`, answers text and structuredContent), the app-only `refresh`
// (answers `refreshed <n>`), and the view itself, read from VIEW.html, with no declared domains
// (the strictest policy). Exits when stdin ends.
import { readFileSync } from 'node:fs';
import { McpServer, StdioServerTransport } from 'mcpwire/server';

const html = readFileSync(process.argv[2], 'utf8');
const server = new McpServer({ name: 'weather', version: '1.0.0', logger: () => undefined });
let refreshed = 0;
server.registerAppTool({
  name: 'show_weather',
  description: 'The weather in a city, shown in a view',
  inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  ui: { resourceUri: 'ui://weather/app.html' },
  handler: ({ city }) => ({
    content: [{ type: 'text', text: `${city}: 21 °C` }],
    structuredContent: { city, tempC: 21 },
  }),
});
server.registerAppTool({
  name: 'refresh',
  description: 'Reloads the forecast (for the view only)',
  inputSchema: { type: 'object' },
  ui: { resourceUri: 'ui://weather/app.html', visibility: ['app'] },
  handler: () => ({ content: [{ type: 'text', text: `refreshed ${++refreshed}` }] }),
});
server.registerAppResource({ uri: 'ui://weather/app.html', name: 'Weather app', html });
await server.connect(new StdioServerTransport()).closed;
