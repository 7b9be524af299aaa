/**
 * mcpwire's version: the one place it is written. `McpClient` sends it as `clientInfo.version`,
 * the CLI as its own `clientInfo.version` and in `mcpwire --version`. A test keeps it equal to
 * package.json's and finds no other copy in `src/`.
 */
export const VERSION = '0.1.0';
