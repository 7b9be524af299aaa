/**
 * The kinds of transport mcpwire ships, told apart by their `kind` literal: what varies per kind
 * (a process id, an HTTP session, HTTP facts for tracing) is reached through these type guards on
 * the object a caller built or handed over, never through optional flags on {@link Transport}.
 * Type-only imports: nothing here loads `child_process` or undici.
 */
import type { Transport } from '../protocol/transport.js';
import type { LegacySseTransport } from './http/legacy-sse.js';
import type { StreamableHttpTransport } from './http/streamable-http.js';
import type { StdioTransport } from './stdio/stdio.js';
import type { StdioServerTransport } from './stdio/stdio-server.js';

function kindOf(transport: Transport): unknown {
  return (transport as { kind?: unknown }).kind;
}

/** A child-process transport (`pid`, `exitStatus`). */
export function isStdioTransport(transport: Transport): transport is StdioTransport {
  return kindOf(transport) === 'stdio';
}

/** The server's side of stdio (`inputEnded`: the client closed stdin, the answers may still go out). */
export function isStdioServerTransport(transport: Transport): transport is StdioServerTransport {
  return kindOf(transport) === 'stdio-server';
}

/** A Streamable HTTP transport (`setSession`, per-message headers, `onExchange`). */
export function isStreamableHttpTransport(transport: Transport): transport is StreamableHttpTransport {
  return kindOf(transport) === 'streamable-http';
}

/** Either HTTP transport: both report their exchanges to `onExchange` observers. */
export function isHttpTransport(transport: Transport): transport is StreamableHttpTransport | LegacySseTransport {
  const kind = kindOf(transport);
  return kind === 'streamable-http' || kind === 'http-sse';
}
