/**
 * Raw HTTP for tests of the kit's Streamable HTTP handler: node:http requests whose every header
 * is the test's, the 2026-07-28 request shape (the `_meta` envelope and the headers the binding
 * asks for), and SSE bodies split into events. Nothing here starts or keeps a listener.
 */
import http from 'node:http';
import { within } from './wait.js';

/** One HTTP exchange as the test saw it. */
export interface Exchange {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The whole body (an SSE body ends with its stream). */
  text: string;
  /** The body parsed as JSON; undefined when it is not JSON. */
  json: any;
}

/** What {@link exchange} sends. */
export interface ExchangeRequest {
  /** Default POST. */
  method?: string;
  /** Sent as given, over the defaults (an `accept` for JSON and SSE; `content-type: application/json` with a body). */
  headers?: Record<string, string>;
  /** A string is sent as is, anything else JSON-encoded; undefined sends no body. */
  body?: unknown;
  /** Bound of the whole exchange, body included (default 30 s). */
  timeoutMs?: number;
}

/**
 * One HTTP request to `url`; resolves once the response body ended. Rejects on a network error,
 * or after `timeoutMs` naming the request (`"the POST response to end did not happen …"`).
 */
export function exchange(url: string, request: ExchangeRequest = {}): Promise<Exchange> {
  const { method = 'POST', headers = {}, body, timeoutMs = 30_000 } = request;
  const payload = body === undefined || typeof body === 'string' ? body : JSON.stringify(body);
  return within(
    new Promise<Exchange>((resolve, reject) => {
      const req = http.request(
        url,
        {
          method,
          headers: {
            accept: 'application/json, text/event-stream',
            ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
            ...headers,
          },
        },
        (res) => {
          let text = '';
          res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
          res.on('end', () => {
            let json: unknown;
            try {
              json = JSON.parse(text);
            } catch {
              json = undefined;
            }
            resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
          });
        },
      );
      req.once('error', reject);
      req.end(payload);
    }),
    { what: `the ${method} response to end`, timeoutMs },
  );
}

/** The `_meta` of a 2026-07-28 request declaring `capabilities`. */
export function modernMeta(capabilities: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientCapabilities': capabilities,
  };
}

/** What {@link modernRequest} adds to the request. */
export interface ModernRequestOptions {
  /** The JSON-RPC id (default 1). */
  id?: number | string;
  /** The client capabilities in `_meta` (default none). */
  capabilities?: Record<string, unknown>;
  /** The client info in `_meta` (default none sent). */
  clientInfo?: { name: string; version: string };
  /** Headers over the binding's (e.g. a different `accept`). */
  headers?: Record<string, string>;
}

/**
 * A 2026-07-28 request over raw HTTP: `params` with the `_meta` envelope, and the headers the
 * binding asks for (`MCP-Protocol-Version`, `Mcp-Method`, and `Mcp-Name` from the params' `name`,
 * `uri` or `taskId`). Resolves and rejects like {@link exchange}.
 */
export function modernRequest(
  url: string,
  method: string,
  params: Record<string, unknown>,
  options: ModernRequestOptions = {},
): Promise<Exchange> {
  const name = (params.name ?? params.uri ?? params.taskId) as string | undefined;
  return exchange(url, {
    body: {
      jsonrpc: '2.0',
      id: options.id ?? 1,
      method,
      params: {
        ...params,
        _meta: {
          ...modernMeta(options.capabilities),
          ...(options.clientInfo ? { 'io.modelcontextprotocol/clientInfo': options.clientInfo } : {}),
        },
      },
    },
    headers: {
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': method,
      ...(name ? { 'mcp-name': name } : {}),
      ...options.headers,
    },
  });
}

/** One server-sent event: its fields as sent (`data` lines joined with a newline). */
export interface SseEvent {
  id?: string;
  event?: string;
  retry?: string;
  data: string;
}

/** Splits a whole SSE body into its events (blank blocks skipped). */
export function sseEvents(text: string): SseEvent[] {
  return text
    .split('\n\n')
    .filter((block) => block.trim() !== '')
    .map((block) => {
      const event: SseEvent = { data: '' };
      const data: string[] = [];
      for (const line of block.split('\n')) {
        const colon = line.indexOf(':');
        const field = line.slice(0, colon);
        const value = line.slice(colon + 1).replace(/^ /, '');
        if (field === 'id') event.id = value;
        else if (field === 'event') event.event = value;
        else if (field === 'retry') event.retry = value;
        else if (field === 'data') data.push(value);
      }
      event.data = data.join('\n');
      return event;
    });
}

/** The one value of response header `name` (lower-case) in `answer`, or null when it was not sent. */
export function header(answer: Exchange, name: string): string | null {
  const value = answer.headers[name];
  return Array.isArray(value) ? value.join(', ') : (value ?? null);
}
