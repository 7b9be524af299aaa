/**
 * A kit server with MCP Apps tools (SEP-1865), run as `node --import tsx kit-apps-tools-server.ts`
 * (mcpwire's own source: no build needed) on its own stdin/stdout; exits when stdin ends.
 * Tools: `show_chart` (`_meta.ui` with a `ui://` view, visible to model and app), `refresh`
 * (`visibility: ['app']`: only the app may call it), `client_extensions` (plain: answers with the
 * extensions the calling client declared, as JSON text). App-only tools are shown to every
 * client (`apps.hideAppOnlyFromTextClients: false`).
 */
import { McpServer, StdioServerTransport } from '../../src/server/index.js';

const server = new McpServer({
  name: 'kit-apps-tools',
  version: '1.0.0',
  // The client side is under test: the kit shows app-only tools to every client, so what keeps
  // them from the model is the manager's filter, not the server's.
  apps: { hideAppOnlyFromTextClients: false },
});
server.registerAppTool({
  name: 'show_chart',
  description: 'Shows a chart of the data',
  inputSchema: { type: 'object' },
  ui: { resourceUri: 'ui://charts/view.html', visibility: ['model', 'app'] },
  handler: () => ({ content: [{ type: 'text', text: 'chart shown' }] }),
});
server.registerAppTool({
  name: 'refresh',
  description: 'Reloads the chart data (for the view only)',
  inputSchema: { type: 'object' },
  ui: { resourceUri: 'ui://charts/view.html', visibility: ['app'] },
  handler: () => ({ content: [{ type: 'text', text: 'refreshed' }] }),
});
server.registerTool({
  name: 'client_extensions',
  description: 'The extensions the calling client declared',
  inputSchema: { type: 'object' },
  handler: (_args, context) => ({ content: [{ type: 'text', text: JSON.stringify(context.extensions) }] }),
});
await server.connect(new StdioServerTransport()).closed;
