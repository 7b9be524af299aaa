/**
 * `mcpwire/proxy`: the recording proxies behind `mcpwire proxy`, for hosts that want to tap a
 * server's traffic themselves. Separate from the main entry because the HTTP proxy loads undici.
 */
export { runStdioProxy } from './stdio-proxy.js';
export type { StdioProxyOptions, StdioProxyResult } from './stdio-proxy.js';
export { exitLikeServer } from './exit-like-server.js';
export { startHttpProxy } from './http-proxy.js';
export type { HttpProxy, HttpProxyOptions } from './http-proxy.js';
