#!/usr/bin/env node
// A host of the built package (dist/, as an installed mcpwire): a manager over one stdio server
// whose env takes a secret from a variable, one tool call whose arguments hold a secret-looking
// key and the config secret, then disconnect. It prints nothing itself, so whatever reaches
// stderr is mcpwire's own debug output (NODE_DEBUG=mcpwire).
//
// usage: node debug-log-host.mjs <server script>
import { McpManager } from '../../dist/index.js';

const [script] = process.argv.slice(2);
const manager = McpManager.create({
  config: {
    inline: [{ mcpServers: { alpha: { command: process.execPath, args: [script], env: { API_KEY: '${API_KEY}' } } } }],
    userConfigPath: false,
    project: false,
    env: { API_KEY: 'sk-config-secret-991' },
  },
});
await manager.connectAll();
await manager.callTool('mcp__alpha__echo', {
  text: 'hello',
  apiToken: 'sk-arg-secret-123',
  note: 'mentions sk-config-secret-991',
});
await manager.callTool('mcp__alpha__nope', {}).catch(() => undefined);
await manager.disconnectAll();
