/**
 * A kit server with MCP Apps tools (SEP-1865), run as `node --import tsx kit-apps-tools-server.ts`
 * (mcpwire's own source: no build needed) on its own stdin/stdout; exits when stdin ends.
 * Tools: `show_chart` (`_meta.ui` with a `ui://` view, visible to model and app), `refresh`
 * (`visibility: ['app']`: only the app may call it), `client_extensions` (plain: answers with the
 * extensions the calling client declared, as JSON text).
 */
import { EXTENSION_IDS, McpServer, StdioServerTransport } from '../../src/server/index.js';

const server = new McpServer({
  name: 'kit-apps-tools',
  version: '1.0.0',
  extensions: { [EXTENSION_IDS.ui]: {} },
});
server.registerTool({
  name: 'show_chart',
  description: 'Shows a chart of the data',
  inputSchema: { type: 'object' },
  _meta: { ui: { resourceUri: 'ui://charts/view.html', visibility: ['model', 'app'] } },
  handler: () => ({ content: [{ type: 'text', text: 'chart shown' }] }),
});
server.registerTool({
  name: 'refresh',
  description: 'Reloads the chart data (for the view only)',
  inputSchema: { type: 'object' },
  _meta: { ui: { resourceUri: 'ui://charts/view.html', visibility: ['app'] } },
  handler: () => ({ content: [{ type: 'text', text: 'refreshed' }] }),
});
server.registerTool({
  name: 'client_extensions',
  description: 'The extensions the calling client declared',
  inputSchema: { type: 'object' },
  handler: (_args, context) => ({ content: [{ type: 'text', text: JSON.stringify(context.extensions) }] }),
});
await server.connect(new StdioServerTransport()).closed;
