/**
 * MCP requests as `fetch` arguments (`{ method, headers, body }`, plain data, so a browser page
 * can be handed them too): the 2026-07-28 shape (the `_meta` envelope and the headers the binding
 * asks for) and a legacy POST in a session.
 */
import { modernMeta, sseEvents } from './kit-wire.js';

/** What `fetch(url, init)` takes, as plain JSON-able data. */
export interface WireInit {
  method: string;
  headers: Record<string, string>;
  body?: string;
}

const ACCEPT = 'application/json, text/event-stream';

/**
 * A 2026-07-28 POST of `method` with `params` (and `_meta` extras such as a `progressToken`):
 * `MCP-Protocol-Version`, `Mcp-Method`, and `Mcp-Name` from the params' `name` or `uri`.
 */
export function modernInit(
  method: string,
  params: Record<string, unknown>,
  options: { id?: number; meta?: Record<string, unknown>; headers?: Record<string, string> } = {},
): WireInit {
  const name = (params.name ?? params.uri) as string | undefined;
  return {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: ACCEPT,
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': method,
      ...(name ? { 'mcp-name': name } : {}),
      ...options.headers,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: options.id ?? 1,
      method,
      params: { ...params, _meta: { ...modernMeta(), ...options.meta } },
    }),
  };
}

/** A legacy POST of one JSON-RPC `message`, in `session` when given (revision 2025-11-25 after `initialize`). */
export function legacyInit(message: Record<string, unknown>, session?: string): WireInit {
  const initialize = message.method === 'initialize';
  return {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: ACCEPT,
      ...(initialize ? {} : { 'mcp-protocol-version': '2025-11-25' }),
      ...(session ? { 'mcp-session-id': session } : {}),
    },
    body: JSON.stringify({ jsonrpc: '2.0', ...message }),
  };
}

/** The `initialize` request of a 2025-11-25 client named `name`. */
export function initializeMessage(name: string): Record<string, unknown> {
  return {
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name, version: '1' } },
  };
}

/** The JSON-RPC messages of an answer body: one JSON message, or each SSE event's data. */
export function answerMessages(contentType: string | null, text: string): any[] {
  if ((contentType ?? '').startsWith('text/event-stream'))
    return sseEvents(text)
      .filter((event) => event.data !== '')
      .map((event) => JSON.parse(event.data));
  return text === '' ? [] : [JSON.parse(text)];
}
