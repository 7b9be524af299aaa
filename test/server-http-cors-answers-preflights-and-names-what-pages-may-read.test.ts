/**
 * The `cors` option's answers, table-driven over requests as a browser sends them: a preflight
 * from an allowed origin is answered 204 with MCP's methods and request headers (and the `Mcp-*`
 * headers it asks for), from any other origin 403; every other answer names the origin and the
 * headers a page may read (`Mcp-Session-Id`, `WWW-Authenticate`, `DPoP-Nonce`…), with
 * `Vary: Origin` whenever the answer depends on it; options that would be unsafe or mean nothing
 * are refused when the handler is made.
 */
import { describe, expect, it } from 'vitest';
import {
  answerHeaders,
  checkCorsOptions,
  originAllowed,
  preflight,
  type CorsOptions,
} from '../src/server/http/cors.js';
import type { HttpRequestIn } from '../src/transport/http-server/http-exchange.js';

const APP = 'https://app.example.com';
const OTHER = 'https://evil.example';
const BASE_HEADERS =
  'Content-Type, Accept, Authorization, DPoP, Mcp-Protocol-Version, Mcp-Session-Id, Last-Event-ID, Mcp-Method, Mcp-Name';
const EXPOSED = 'Mcp-Session-Id, Mcp-Protocol-Version, WWW-Authenticate, DPoP-Nonce, Retry-After';
const METHODS = 'GET, POST, DELETE, OPTIONS';

/** A request as the handler's edge hands it over; the body is never read by CORS. */
function request(method: string, headers: Record<string, string> = {}): HttpRequestIn {
  return {
    method,
    target: '/mcp',
    header: (name) => headers[name],
    text: () => Promise.reject(new Error('CORS reads no body')),
  };
}

/** A browser's preflight for a POST from `origin`. */
function preflightFrom(origin: string, extra: Record<string, string> = {}): HttpRequestIn {
  return request('OPTIONS', { origin, 'access-control-request-method': 'POST', ...extra });
}

describe('a preflight', () => {
  const listed: CorsOptions = { origins: [APP, 'http://localhost:5173'] };
  const cases: Array<{ name: string; options: CorsOptions; req: HttpRequestIn; answer: unknown }> = [
    {
      name: 'from a listed origin: 204 with the origin, the methods, MCP’s request headers and the max age',
      options: listed,
      req: preflightFrom(APP),
      answer: {
        status: 204,
        headers: {
          'access-control-allow-origin': APP,
          'access-control-allow-methods': METHODS,
          'access-control-allow-headers': BASE_HEADERS,
          'access-control-max-age': '7200',
          vary: 'Origin, Access-Control-Request-Headers',
        },
      },
    },
    {
      name: 'asking for a tool’s Mcp-Param-* headers: they are allowed, MCP’s own once, others not',
      options: listed,
      req: preflightFrom(APP, {
        'access-control-request-headers':
          'authorization,content-type,mcp-name,mcp-param-region,mcp-param-region,x-custom',
      }),
      answer: {
        status: 204,
        headers: expect.objectContaining({ 'access-control-allow-headers': `${BASE_HEADERS}, mcp-param-region` }),
      },
    },
    {
      name: 'asking for a header whose name is not a token: not echoed',
      options: listed,
      req: preflightFrom(APP, { 'access-control-request-headers': 'mcp-param-a b, mcp-param-"x"' }),
      answer: { status: 204, headers: expect.objectContaining({ 'access-control-allow-headers': BASE_HEADERS }) },
    },
    {
      name: 'from an origin not listed: 403, nothing allowed',
      options: listed,
      req: preflightFrom(OTHER),
      answer: {
        status: 403,
        message: 'Forbidden: the Origin header is not an allowed origin',
        headers: { vary: 'Origin' },
      },
    },
    {
      name: 'from a listed origin on another port: 403',
      options: listed,
      req: preflightFrom('http://localhost:5174'),
      answer: expect.objectContaining({ status: 403 }),
    },
    {
      name: 'with any origin allowed: answered *, varying only with the headers asked for',
      options: { origins: '*' },
      req: preflightFrom(OTHER),
      answer: {
        status: 204,
        headers: {
          'access-control-allow-origin': '*',
          'access-control-allow-methods': METHODS,
          'access-control-allow-headers': BASE_HEADERS,
          'access-control-max-age': '7200',
          vary: 'Access-Control-Request-Headers',
        },
      },
    },
    {
      name: 'with credentials: the origin named and credentials allowed',
      options: { origins: [APP], credentials: true, maxAgeSeconds: 60 },
      req: preflightFrom(APP),
      answer: {
        status: 204,
        headers: {
          'access-control-allow-origin': APP,
          'access-control-allow-credentials': 'true',
          'access-control-allow-methods': METHODS,
          'access-control-allow-headers': BASE_HEADERS,
          'access-control-max-age': '60',
          vary: 'Origin, Access-Control-Request-Headers',
        },
      },
    },
    {
      name: 'asking to reach a private network from a listed origin: allowed',
      options: listed,
      req: preflightFrom(APP, { 'access-control-request-private-network': 'true' }),
      answer: { status: 204, headers: expect.objectContaining({ 'access-control-allow-private-network': 'true' }) },
    },
    {
      name: 'from an origin listed in another spelling (upper case, default port, a slash): allowed',
      options: { origins: ['HTTPS://App.Example.com:443/'] },
      req: preflightFrom(APP),
      answer: { status: 204, headers: expect.objectContaining({ 'access-control-allow-origin': APP }) },
    },
    {
      name: 'from an app scheme listed (an extension): allowed',
      options: { origins: ['chrome-extension://abcdefghijklmnop'] },
      req: preflightFrom('chrome-extension://abcdefghijklmnop'),
      answer: expect.objectContaining({ status: 204 }),
    },
    { name: 'a GET is none', options: listed, req: request('GET', { origin: APP }), answer: undefined },
    { name: 'an OPTIONS without Origin is none', options: listed, req: request('OPTIONS'), answer: undefined },
    {
      name: 'an OPTIONS without Access-Control-Request-Method is none',
      options: listed,
      req: request('OPTIONS', { origin: APP }),
      answer: undefined,
    },
  ];
  it.each(cases)('$name', ({ options, req, answer }) => {
    expect(preflight(req, options)).toEqual(answer);
  });
});

describe('the headers of every other answer', () => {
  const cases: Array<{ name: string; options: CorsOptions; origin?: string; headers: Record<string, string> }> = [
    {
      name: 'to a listed origin: the origin, what a page may read, and Vary',
      options: { origins: [APP] },
      origin: APP,
      headers: { 'access-control-allow-origin': APP, 'access-control-expose-headers': EXPOSED, vary: 'Origin' },
    },
    {
      name: 'with credentials: credentials allowed too',
      options: { origins: [APP], credentials: true },
      origin: APP,
      headers: {
        'access-control-allow-origin': APP,
        'access-control-allow-credentials': 'true',
        'access-control-expose-headers': EXPOSED,
        vary: 'Origin',
      },
    },
    {
      name: 'to an origin not listed: only Vary',
      options: { origins: [APP] },
      origin: OTHER,
      headers: { vary: 'Origin' },
    },
    { name: 'without Origin, with a list: only Vary', options: { origins: [APP] }, headers: { vary: 'Origin' } },
    {
      name: 'with any origin allowed: * and what a page may read, whatever the origin',
      options: { origins: '*' },
      origin: OTHER,
      headers: { 'access-control-allow-origin': '*', 'access-control-expose-headers': EXPOSED },
    },
    {
      name: 'with any origin allowed, without Origin: the same',
      options: { origins: '*' },
      headers: { 'access-control-allow-origin': '*', 'access-control-expose-headers': EXPOSED },
    },
  ];
  it.each(cases)('$name', ({ options, origin, headers }) => {
    const req = request('POST', origin === undefined ? {} : { origin });
    expect(answerHeaders(req, options)).toEqual(headers);
  });
});

describe('which origins are allowed', () => {
  const options: CorsOptions = { origins: [APP, 'http://127.0.0.1:8080', 'http://[::1]:3000'] };
  const cases: Array<[string, boolean]> = [
    [APP, true],
    ['https://APP.example.com', true],
    ['http://app.example.com', false],
    ['https://app.example.com:8443', false],
    ['https://sub.app.example.com', false],
    ['http://127.0.0.1:8080', true],
    ['http://127.0.0.1', false],
    ['http://[::1]:3000', true],
    ['null', false],
    ['', false],
  ];
  it.each(cases)('%s → %s', (origin, allowed) => {
    expect(originAllowed(origin, options)).toBe(allowed);
  });

  it('any, and null too, when every origin is allowed', () => {
    for (const origin of [APP, OTHER, 'null']) expect(originAllowed(origin, { origins: '*' })).toBe(true);
  });
});

describe('the cors option', () => {
  const cases: Array<[string, unknown, RegExp]> = [
    ['an unknown key', { origins: [APP], allowHeaders: ['x'] }, /unknown HTTP handler cors option "allowHeaders"/],
    ['any origin with credentials', { origins: '*', credentials: true }, /"cors.credentials" needs a list of origins/],
    ['an opaque origin', { origins: ['null'] }, /takes origins/],
    ['an origin with a path', { origins: ['https://app.example.com/mcp'] }, /takes origins/],
    ['an origin with credentials in it', { origins: ['https://user@app.example.com'] }, /takes origins/],
    ['a bare host', { origins: ['app.example.com'] }, /takes origins/],
    ['an http origin that is no URL', { origins: ['http://exa mple'] }, /takes origins|not a URL/],
    ['origins as one string', { origins: APP }, /must be a list of origins or "\*"/],
    ['a negative max age', { origins: [APP], maxAgeSeconds: -1 }, /"cors.maxAgeSeconds" must be a whole number/],
    ['a fractional max age', { origins: [APP], maxAgeSeconds: 1.5 }, /"cors.maxAgeSeconds" must be a whole number/],
    ['credentials as text', { origins: [APP], credentials: 'yes' }, /"cors.credentials" must be a boolean/],
  ];
  it.each(cases)('refuses %s', (_name, options, message) => {
    expect(() => checkCorsOptions(options as CorsOptions)).toThrow(message);
  });

  it('takes a list, any origin, and a max age of 0', () => {
    expect(() => checkCorsOptions({ origins: [] })).not.toThrow();
    expect(() => checkCorsOptions({ origins: '*', maxAgeSeconds: 0 })).not.toThrow();
    expect(() => checkCorsOptions({ origins: [APP], credentials: true })).not.toThrow();
  });
});
