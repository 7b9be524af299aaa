/**
 * `trace export`'s formats behind one call: a trace's records in, one JSON document out.
 * - `otlp-json`: OTLP/JSON `ExportTraceServiceRequest` (Jaeger's upload, any OTLP tool);
 * - `chrome-trace`: the Trace Event Format (Perfetto, `chrome://tracing`);
 * - `har`: HAR 1.2 of the HTTP exchanges (browser devtools, HAR viewers).
 */
import type { TraceRecord } from '../../observe/trace-record.js';
import { chromeTrace } from './chrome-trace.js';
import { harLog } from './har.js';
import type { SpanOptions } from './mcp-span.js';
import { otlpTraceRequest } from './otlp-json.js';
import { spansOfTrace } from './trace-spans.js';

export const EXPORT_FORMATS = ['otlp-json', 'chrome-trace', 'har'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export interface TraceExport {
  document: unknown;
  /** What the document holds, for a summary line: `12 span(s)`, `40 event(s)`, `9 entr(ies)`. */
  count: number;
  unit: 'spans' | 'events' | 'entries';
}

/** True when `records` hold HTTP traffic (what a HAR can show). */
export function hasHttpTraffic(records: readonly TraceRecord[]): boolean {
  return records.some((record) => record.http !== undefined);
}

/** `records` (a trace file's, in order) in `format`. Pure; never throws. */
export function exportTrace(
  records: readonly TraceRecord[],
  format: ExportFormat,
  options: SpanOptions = {},
): TraceExport {
  const sessions = spansOfTrace(records, options);
  switch (format) {
    case 'otlp-json': {
      const spans = sessions.flatMap((session) => session.spans);
      return { document: otlpTraceRequest(spans), count: spans.length, unit: 'spans' };
    }
    case 'chrome-trace': {
      const document = chromeTrace(sessions);
      return { document, count: document.traceEvents.length, unit: 'events' };
    }
    case 'har': {
      const document = harLog(sessions);
      return { document, count: document.log.entries.length, unit: 'entries' };
    }
  }
}
