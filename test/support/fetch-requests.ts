/**
 * `Request` objects for driving a fetch handler in-process (`createFetchHandler`): a JSON-RPC POST,
 * a 2026-07-28 request with its envelope and binding headers, a legacy `initialize`.
 */
import { modernMeta } from './kit-wire.js';
import { LEGACY_REVISION, rpc } from './legacy-wire.js';

/** The endpoint the requests go to (no listener: the handler is called directly). */
export const FETCH_URL = 'http://localhost/mcp';

/** A POST of `body` as JSON, accepting JSON and SSE, with `headers` over those. */
export function jsonPost(body: unknown, headers: Record<string, string> = {}, signal?: AbortSignal): Request {
  return new Request(FETCH_URL, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify(body),
    ...(signal ? { signal } : {}),
  });
}

/** What {@link modernPost} adds to the request. */
export interface ModernPostOptions {
  id?: number;
  /** `_meta` fields over the envelope's (e.g. a `progressToken`). */
  meta?: Record<string, unknown>;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

/** A 2026-07-28 request: the `_meta` envelope, `MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name` from `params.name`. */
export function modernPost(method: string, params: Record<string, unknown>, options: ModernPostOptions = {}): Request {
  const name = params.name as string | undefined;
  return jsonPost(
    { jsonrpc: '2.0', id: options.id ?? 1, method, params: { ...params, _meta: { ...modernMeta(), ...options.meta } } },
    {
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': method,
      ...(name ? { 'mcp-name': name } : {}),
      ...options.headers,
    },
    options.signal,
  );
}

/** A legacy `initialize` (2025-11-25) with a fresh id. */
export function legacyInitialize(): ReturnType<typeof rpc> {
  return rpc('initialize', {
    protocolVersion: LEGACY_REVISION,
    capabilities: {},
    clientInfo: { name: 'raw', version: '1' },
  });
}
