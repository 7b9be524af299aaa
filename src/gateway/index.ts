/**
 * `mcpwire/gateway`: the configured servers served as one MCP endpoint (Node). `createGateway`
 * returns a kit `McpServer` to mount with any of the kit's transports.
 */
export { createGateway, type Gateway } from './gateway.js';
export type { GatewayOptions } from './gateway-options.js';
export { GATEWAY_STATUS_URI, type GatewayStatus, type UpstreamStatus } from './gateway-status.js';
export { gatewayUri, upstreamUri } from './resource-uris.js';
