/**
 * `mcpwire/gateway`: the configured servers served as one MCP endpoint (Node). `createGateway`
 * returns a kit `McpServer` (and one per virtual server) to mount with any of the kit's
 * transports; `mcpwire gateway` is the command over it. See docs/gateway.md.
 */
export { createGateway, type Gateway } from './gateway.js';
export type { GatewayOptions } from './gateway-options.js';
export { gatewayHttp, type GatewayCardOptions, type GatewayHttp } from './gateway-http.js';
export { GATEWAY_STATUS_URI, type GatewayStatus, type UpstreamStatus } from './gateway-status.js';
export { gatewayUri, upstreamUri } from './resource-uris.js';
export { PinStore } from './pins/pin-store.js';
export { pinDiff } from './pins/pin-diff.js';
export { toolFingerprint } from './pins/tool-fingerprint.js';
export type { PinVerdict } from './pins/pin-verdict.js';
export type { GatewayPolicy } from './policy/policies.js';
export type { VirtualServerConfig } from './policy/virtual-servers.js';
export type { BucketLimits } from './policy/token-bucket.js';
export { keepSubjectTokens } from './credentials/subject-tokens.js';
export type { TokenExchangeOptions, TokenExchangeServer } from './credentials/token-exchange.js';
