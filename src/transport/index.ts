/** The transports: stdio, in-memory, and the NDJSON framer they share. */
export { createLinkedPair } from './memory.js';
export { DEFAULT_MAX_MESSAGE_BYTES, encodeMessage, NdjsonDecoder } from './ndjson-framer.js';
export type { NdjsonDecoderOptions, NdjsonSink } from './ndjson-framer.js';
export { StdioTransport } from './stdio.js';
export type { StdioServerSpec, StdioTransportOptions } from './stdio.js';
export { buildServerEnv } from './stdio-env.js';
