/** The transports: stdio, in-memory, the NDJSON framer they share, and the tracing decorator with its sinks. */
export { createLinkedPair } from './memory.js';
export { DEFAULT_MAX_MESSAGE_BYTES, encodeMessage, NdjsonDecoder } from './ndjson-framer.js';
export type { NdjsonDecoderOptions, NdjsonSink } from './ndjson-framer.js';
export { StdioTransport } from './stdio/stdio.js';
export type { StdioServerSpec, StdioTransportOptions } from './stdio/stdio.js';
export { buildServerEnv } from './stdio/stdio-env.js';
export { traceTransport } from './trace/tracing-transport.js';
export type { TraceTransportOptions } from './trace/tracing-transport.js';
export { TraceBuilder } from './trace/trace-builder.js';
export { guardSink, jsonlFileSink, prettyTraceLine, streamSink } from './trace/sinks.js';
export type {
  JsonlFileSink,
  JsonlFileSinkOptions,
  PrettyOptions,
  StreamSinkOptions,
  TextWritable,
  TraceSink,
} from './trace/sinks.js';
export type { TraceDirection, TraceHttp, TraceKind, TraceRecord } from './trace/trace-record.js';
