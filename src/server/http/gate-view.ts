/**
 * The bearer gate (`auth/bearer-gate.ts`) as it reads a request and writes an answer today: a
 * request with `method`, `url` and `headers`, a response with `writeHead`/`end`/`setHeader`,
 * made over the neutral {@link HttpRequestIn} and {@link ResponseSink}. Replaced by the gate on
 * the neutral interfaces themselves.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { HttpRequestIn, ResponseSink } from '../../transport/http-server/http-exchange.js';

/** What the gate reads of the request (`headers` answers any lower-case name). */
export function gateRequest(req: HttpRequestIn): IncomingMessage {
  const headers = new Proxy(
    {},
    {
      get: (_target, name) => (typeof name === 'string' ? req.header(name.toLowerCase()) : undefined),
    },
  );
  return { method: req.method, url: req.target, headers } as unknown as IncomingMessage;
}

/** Where the gate writes: `writeHead(status, headers).end(body)` and `setHeader`, onto `sink`. */
export function gateResponse(sink: ResponseSink): ServerResponse {
  let status = 200;
  let headers: Record<string, string> = {};
  const res = {
    writeHead(code: number, given: Record<string, string | number> = {}) {
      status = code;
      headers = {};
      for (const key in given) headers[key.toLowerCase()] = String(given[key]);
      return res;
    },
    end(body?: string) {
      sink.send(status, headers, body);
      return res;
    },
    setHeader(name: string, value: string | number) {
      sink.setHeader(name.toLowerCase(), String(value));
      return res;
    },
  };
  return res as unknown as ServerResponse;
}
