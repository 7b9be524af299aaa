/**
 * Spans as an OTLP/JSON `ExportTraceServiceRequest` (opentelemetry-proto, `trace/v1`, JSON
 * encoding as the OTLP specification gives it: hex ids, enum numbers, 64-bit integers as decimal
 * strings): what `trace export --format otlp-json` writes, what Jaeger uploads, and the body of
 * each live `POST /v1/traces`. One resource per server of the trace, one scope (`mcpwire`).
 */
import { VERSION } from '../../util/version.js';
import type { McpSpan, SpanAttributeValue } from './mcp-span.js';

/** Resource attribute names (OpenTelemetry's resource conventions, and one of mcpwire's own). */
export const RESOURCE_ATTR = {
  serviceName: 'service.name',
  serviceVersion: 'service.version',
  /** The server the spans talked to, as the trace names it. */
  serverName: 'mcpwire.server.name',
} as const;

/** `Span.SpanKind` numbers. */
const SPAN_KIND = { server: 2, client: 3 } as const;
/** `Status.StatusCode` numbers. */
export const STATUS_CODE = { unset: 0, ok: 1, error: 2 } as const;

export interface OtlpAnyValue {
  stringValue?: string;
  intValue?: string;
  doubleValue?: number;
  boolValue?: boolean;
}
export interface OtlpKeyValue {
  key: string;
  value: OtlpAnyValue;
}
export interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes: OtlpKeyValue[];
  status: { code: number; message?: string };
}
export interface OtlpTraceRequest {
  resourceSpans: Array<{
    resource: { attributes: OtlpKeyValue[] };
    scopeSpans: Array<{ scope: { name: string; version: string }; spans: OtlpSpan[] }>;
  }>;
}

function anyValue(value: SpanAttributeValue): OtlpAnyValue {
  if (typeof value === 'boolean') return { boolValue: value };
  if (typeof value === 'number') return Number.isInteger(value) ? { intValue: String(value) } : { doubleValue: value };
  return { stringValue: value };
}

/** Attributes as OTLP key-value pairs, in the order given. */
export function otlpAttributes(attributes: Record<string, SpanAttributeValue>): OtlpKeyValue[] {
  return Object.entries(attributes).map(([key, value]) => ({ key, value: anyValue(value) }));
}

/** Epoch milliseconds (fractional) as decimal nanoseconds; exact to the nanosecond, beyond 2^53. */
export function unixNanos(ms: number): string {
  const whole = Math.floor(ms);
  const nanos = Math.round((ms - whole) * 1e6);
  return (BigInt(whole) * 1_000_000n + BigInt(nanos)).toString();
}

/**
 * Status: ERROR with the description when the span failed, else UNSET, as `mcpwire/otel` leaves
 * it (OpenTelemetry's rule for instrumentations: OK is the application's to set).
 */
function statusOf(span: McpSpan): OtlpSpan['status'] {
  if (span.status.error)
    return { code: STATUS_CODE.error, ...(span.status.message !== undefined ? { message: span.status.message } : {}) };
  return { code: STATUS_CODE.unset };
}

/** One span in OTLP/JSON. */
export function otlpSpan(span: McpSpan): OtlpSpan {
  return {
    traceId: span.traceId,
    spanId: span.spanId,
    ...(span.parentSpanId !== undefined ? { parentSpanId: span.parentSpanId } : {}),
    name: span.name,
    kind: SPAN_KIND[span.kind],
    startTimeUnixNano: unixNanos(span.startMs),
    endTimeUnixNano: unixNanos(span.endMs),
    attributes: otlpAttributes(span.attributes),
    status: statusOf(span),
  };
}

/** The request for `spans`: grouped by server (first appearance first), each group in the order given. */
export function otlpTraceRequest(spans: readonly McpSpan[]): OtlpTraceRequest {
  const byServer = new Map<string, OtlpSpan[]>();
  for (const span of spans) {
    let list = byServer.get(span.server);
    if (!list) byServer.set(span.server, (list = []));
    list.push(otlpSpan(span));
  }
  return {
    resourceSpans: [...byServer].map(([server, list]) => ({
      resource: {
        attributes: otlpAttributes({
          [RESOURCE_ATTR.serviceName]: 'mcpwire',
          [RESOURCE_ATTR.serviceVersion]: VERSION,
          [RESOURCE_ATTR.serverName]: server,
        }),
      },
      scopeSpans: [{ scope: { name: 'mcpwire', version: VERSION }, spans: list }],
    })),
  };
}
