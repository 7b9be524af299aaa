/**
 * A raw legacy Streamable HTTP client of one session (2025-11-25, `Mcp-Session-Id`) that sends
 * each message to the URL it is told: for tests where a session's requests land on chosen nodes.
 * `post` waits for the whole response; `stream` reads a POST's or GET's body as it comes.
 */
import { expect, onTestFinished } from 'vitest';
import { exchange, sseEvents, type Exchange } from './kit-wire.js';
import { readText, type TextStream } from './stream-reader.js';

export const LEGACY_REVISION = '2025-11-25';

let nextId = 1000;
/** A JSON-RPC request with a fresh id. */
export function rpc(
  method: string,
  params: Record<string, unknown> = {},
): { jsonrpc: '2.0'; id: number; method: string; params: Record<string, unknown> } {
  return { jsonrpc: '2.0', id: nextId++, method, params };
}

/** The JSON-RPC answer of a POST: its JSON body, or the last SSE event's data. */
export function answerOf(response: Exchange): any {
  if (response.json !== undefined) return response.json;
  const events = sseEvents(response.text).filter((event) => event.data !== '');
  return events.length === 0 ? undefined : JSON.parse(events.at(-1)!.data);
}

/** The JSON-RPC messages of an SSE body (priming events, with no data, left out). */
export function sseMessages(text: string): any[] {
  return sseEvents(text)
    .filter((event) => event.data !== '')
    .map((event) => JSON.parse(event.data));
}

export class LegacyWire {
  id = '';
  constructor(private readonly token?: string) {}

  /**
   * A session made by `initialize` at `url` (asserted 200), then `notifications/initialized`
   * sent to `initializedAt` (default `url`).
   */
  static async open(
    url: string,
    options: { token?: string; capabilities?: Record<string, unknown>; initializedAt?: string } = {},
  ): Promise<LegacyWire> {
    const wire = new LegacyWire(options.token);
    const made = await wire.post(
      url,
      rpc('initialize', {
        protocolVersion: LEGACY_REVISION,
        capabilities: options.capabilities ?? { elicitation: {} },
        clientInfo: { name: 'raw', version: '1' },
      }),
    );
    expect(made.status, made.text).toBe(200);
    wire.id = made.headers['mcp-session-id'] as string;
    const initialized = await wire.post(options.initializedAt ?? url, {
      jsonrpc: '2.0',
      method: 'notifications/initialized',
    });
    expect(initialized.status).toBe(202);
    return wire;
  }

  headers(extra: Record<string, string> = {}): Record<string, string> {
    return {
      ...(this.id ? { 'mcp-session-id': this.id, 'mcp-protocol-version': LEGACY_REVISION } : {}),
      ...(this.token ? { authorization: `Bearer ${this.token}` } : {}),
      ...extra,
    };
  }

  post(url: string, body: unknown, headers: Record<string, string> = {}, timeoutMs?: number): Promise<Exchange> {
    return exchange(url, { headers: this.headers(headers), body, ...(timeoutMs ? { timeoutMs } : {}) });
  }

  /** A request's answer (asserted to be one: no 404). */
  async call(url: string, method: string, params: Record<string, unknown> = {}): Promise<any> {
    const response = await this.post(url, rpc(method, params));
    expect(response.status, response.text).toBe(200);
    return answerOf(response);
  }

  /** A streamed POST (`body`) or GET whose body is read as it comes; released when the test finishes. */
  async stream(
    url: string,
    method: 'POST' | 'GET',
    body?: unknown,
    extra: Record<string, string> = {},
  ): Promise<{ status: number; text: TextStream }> {
    const response = await fetch(url, {
      method,
      headers: this.headers({
        accept: method === 'GET' ? 'text/event-stream' : 'application/json, text/event-stream',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...extra,
      }),
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = readText(response.body);
    onTestFinished(() => text.cancel());
    return { status: response.status, text };
  }
}
