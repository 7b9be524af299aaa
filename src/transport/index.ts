/** The transports: stdio, in-memory, the NDJSON framer they share, and the tracing decorator with its sink contract. */
export { createLinkedPair } from './memory.js';
export { DEFAULT_MAX_MESSAGE_BYTES, encodeMessage, NdjsonDecoder } from './ndjson-framer.js';
export type { NdjsonDecoderOptions, NdjsonSink } from './ndjson-framer.js';
export { StdioTransport } from './stdio/stdio.js';
export type { StdioServerSpec, StdioTransportOptions } from './stdio/stdio.js';
export { buildServerEnv } from './stdio/stdio-env.js';
export { traceTransport } from './trace/tracing-transport.js';
export type { TraceTransportOptions } from './trace/tracing-transport.js';
export { TraceBuilder } from './trace/trace-builder.js';
export { guardSink } from './trace/trace-sink.js';
export type { TraceSink } from './trace/trace-sink.js';
export type { TraceDirection, TraceHttp, TraceKind, TraceRecord } from './trace/trace-record.js';
