/**
 * One span of an export, before it is written in any format: what mcpwire's OpenTelemetry
 * instrumentation would have emitted for one request or notification of a trace. Names and
 * attribute keys are OpenTelemetry's MCP conventions (`util/mcp-semconv.ts`).
 */

/** Attribute values as OTLP carries them. */
export type SpanAttributeValue = string | number | boolean;

/** A finished span. Times are wall-clock milliseconds since the epoch, with sub-millisecond precision. */
export interface McpSpan {
  /** 32 lower-case hex digits. */
  traceId: string;
  /** 16 lower-case hex digits. */
  spanId: string;
  /** The parent: from the message's `traceparent` (outside this export), or none. */
  parentSpanId?: string;
  /** `{mcp.method.name} {target}` (`spanNameOf`). */
  name: string;
  /** CLIENT for what the recording side sent, SERVER for what it received and handled. */
  kind: 'client' | 'server';
  /** A request (from send to answer) or a notification (an instant: start equals end). */
  type: 'request' | 'notification';
  method: string;
  startMs: number;
  endMs: number;
  attributes: Record<string, SpanAttributeValue>;
  /** ERROR exactly when `error.type` is set (the conventions' rule); the description when there is one. */
  status: { error: boolean; message?: string };
  /** The trace file's server name. */
  server: string;
  /** The session the span belongs to (the record's `session`, or a label of the clock-split session). */
  session: string;
  /**
   * Over HTTP: the HTTP facts of the record that ended a request (its answer's status and kept
   * headers). Not an attribute (`mcpwire/otel` has none such); chrome-trace carries it in `args`.
   */
  http?: { status?: number; headers?: Record<string, string> };
}

/** What the span builders take from the command line. */
export interface SpanOptions {
  /**
   * Add `gen_ai.tool.call.arguments` and `gen_ai.tool.call.result` to `tools/call` spans (opt-in
   * in the conventions). The trace is already redacted: `***` marks stay as they are.
   */
  includePayloads?: boolean;
}
