/**
 * The client's side of `ClientOptions.trace`: one tracer per `connect`, which wraps every
 * transport the connect uses (the stdio process and its restart, the HTTP route attempts) with
 * the tracing decorator and records what happens between them (a spawn or an HTTP+SSE connect
 * that failed). Loaded on demand: a client that does not trace never loads this module.
 */
import type { Transport } from '../protocol/transport.js';
import { redactHeaderValue } from '../util/redact.js';
import { guardSink, type TraceSink } from '../observe/trace-sink.js';
import { TraceBuilder } from '../observe/trace-builder.js';
import { traceTransport, type TraceTransportOptions } from '../observe/tracing-transport.js';
import { isHttpTransport, isStdioTransport } from '../transport/kinds.js';

/** What `ClientOptions.trace` holds. */
export interface TraceOptions {
  /** Receives one record per frame and event. */
  sink: TraceSink;
  /** Values to hide (`***`) wherever they would appear: tokens, configured env values. */
  secrets?: string[];
}

/** The tracing of one `connect`: records share one clock, one revision, one redaction list. */
export interface ConnectTracer {
  /**
   * `transport`, traced: handed the concrete transport (before any other wrapping), it wires what
   * the decorator records of its kind — a process's pid and exit, an HTTP transport's exchanges.
   * `spawned` names the process just started for it (recorded without its environment).
   */
  wrap(transport: Transport, spawned?: { command: string; args?: readonly string[] }): Transport;
  /** Records an event that belongs to no transport (a failed spawn or connect). */
  event(name: string, detail: Record<string, unknown>): void;
  /** Hides the credentials among `headers` from now on (an authorize hook's, learnt per request). */
  addSecretHeaders(headers: Record<string, string>): void;
}

/** A tracer for the connect to `server`; `headers` are the HTTP headers whose credentials join the secrets. */
export function connectTracer(
  trace: TraceOptions,
  server: string,
  headers: Record<string, string> = {},
): ConnectTracer {
  const secrets = [...(trace.secrets ?? []), ...credentialValues(headers)];
  const builder = new TraceBuilder({ server, secrets });
  const sink = guardSink(trace.sink);
  return {
    wrap: (transport, spawned) => {
      const options: TraceTransportOptions = { server, sink, builder, ...(spawned ? { spawned } : {}) };
      if (isStdioTransport(transport)) options.process = transport;
      else if (isHttpTransport(transport)) options.exchanges = (listener) => transport.onExchange(listener);
      return traceTransport(transport, options);
    },
    event: (name, detail) => sink(builder.event(name, detail, 'out')),
    addSecretHeaders: (headers) => builder.addSecrets(credentialValues(headers)),
  };
}

/** The credential values among `headers` (and the token of `Scheme token`), so they are hidden wherever they appear. */
function credentialValues(headers: Record<string, string>): string[] {
  const values: string[] = [];
  for (const [name, value] of Object.entries(headers)) {
    if (redactHeaderValue(name, value) === value) continue;
    values.push(value);
    const token = /^[A-Za-z][\w-]*\s+(\S+)$/.exec(value)?.[1];
    if (token) values.push(token);
  }
  return values;
}
