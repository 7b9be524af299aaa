/**
 * What the Streamable HTTP transport reads in an answer, and nothing more: whether a value is
 * JSON, whether it is the response to the request a POST awaits (which ends the exchange), and
 * SSE `message` events handed on whole. Values are never interpreted beyond that.
 */
import type { TransportDiagnostic } from '../../protocol/transport.js';
import type { ExchangeContext } from './http-errors.js';
import type { ExchangeReporter, ResponseFacts } from './exchange-reporter.js';

/** An exchange's context, with its response facts when someone listens to `onExchange`. */
export type Ctx = ExchangeContext & { traced?: ResponseFacts | undefined };

/** The request a POST awaits the response to, and whether it arrived. */
export interface Awaited {
  id: string | number;
  got: boolean;
}

/** Where read values go: the transport's inbox (reported first when traced) and its diagnostics. */
export interface AnswerSink {
  readonly reporter: ExchangeReporter;
  /** Largest accepted JSON body or SSE event, in bytes. */
  readonly maxBytes: number;
  deliver(value: unknown, ctx: Ctx): void;
  diagnostic(kind: TransportDiagnostic['kind'], message: string, sample?: string): void;
}

/** One SSE event of a request stream or the GET stream: a JSON-RPC message or a priming event. */
export function takeEvent(sink: AnswerSink, type: string, data: string, ctx: Ctx, awaited: Awaited | undefined): void {
  if (type !== 'message') return;
  const value = data.trim() === '' ? undefined : safeParse(data);
  if (value === undefined) {
    sink.diagnostic('invalid-json', `${ctx.method ?? 'stream'}: an SSE event is not JSON`, data);
    return;
  }
  if (awaited && isResponseTo(value, awaited.id)) awaited.got = true;
  sink.deliver(value, ctx);
}

/** The JSON value of `text`, or undefined when it is not JSON. Never throws. */
export function safeParse(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** True when `value` (or an entry of a batch) is the response to request `id`. */
export function isResponseTo(value: unknown, id: string | number): boolean {
  // A batch is one level: no recursion a peer can deepen.
  if (Array.isArray(value)) return value.some((entry) => !Array.isArray(entry) && isResponseTo(entry, id));
  if (typeof value !== 'object' || value === null) return false;
  const message = value as { id?: unknown; result?: unknown; error?: unknown };
  return message.id === id && ('result' in message || 'error' in message);
}

/** `text` on one line, at most 200 characters: for diagnostics and messages. */
export function quote(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 200 ? `${flat.slice(0, 200)}…` : flat;
}
