/**
 * The HTTP transports, published as `mcpwire/http` and loaded on demand by the client. Runtime-
 * neutral: they send through `fetch`, or through undici's pool when the Node entry registered it
 * (`default-engine.ts`); undici is imported only on the first exchange.
 */
export { LegacySseTransport } from './legacy-sse.js';
export type { LegacySseOptions } from './legacy-sse.js';
export { StreamableHttpTransport } from './streamable-http.js';
export type { StreamableHttpOptions } from './streamable-http.js';
export { decodeHeaderValue, encodeHeaderValue } from './header-values.js';
export { redactHeaders, redactHeaderValue, redactUrl } from '../../util/redact.js';
export { SseDecoder } from './sse-decoder.js';
export type { SseEvent, SseSink } from './sse-decoder.js';
export type { FetchFunction } from './fetch-engine.js';
export type { HttpDispatcher } from './dispatch.js';
