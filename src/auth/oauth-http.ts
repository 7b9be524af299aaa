/**
 * The HTTP that OAuth traffic (metadata, registration, token requests) goes through, so it can be
 * traced and closed like the MCP traffic: the caller's `fetch` when the `auth` option gives one;
 * else, with the Node parts registered (`auth-runtime.ts`), undici's fetch with a dispatcher the
 * session owns; else the runtime's `fetch`. Redirects are never followed. And the rule that an
 * authorization server is reached over HTTPS, or plain HTTP on loopback.
 *
 * In a browser every request here is a CORS request: only `accept`, `content-type` (form or JSON)
 * and, for token requests, `authorization` / `dpop` are sent, as oauth4webapi sends them.
 */
import { errorMessage } from '../protocol/errors.js';
import { redactUrl } from '../util/redact.js';
import { nodeAuthParts, type OAuthFetch, type OwnedFetch } from './auth-runtime.js';

export type { OAuthFetch } from './auth-runtime.js';

/** A `fetch` of the caller's own (the runtime's, a wrapper around it). */
export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

/**
 * One OAuth HTTP exchange as traces show it: method, URL (credentials redacted), status or the
 * failure, duration. Never a header or a body (they carry codes, verifiers, secrets and tokens).
 */
export interface OAuthExchange {
  method: string;
  url: string;
  status?: number;
  error?: string;
  ms: number;
}

/** Receives each {@link OAuthExchange} (a trace). */
export type OAuthObserver = (exchange: OAuthExchange) => void;

/** An owned fetch; `close()` ends its sockets. */
export interface OAuthHttp {
  fetch: OAuthFetch;
  close(): Promise<void>;
}

/** Where OAuth requests go: the `auth` option's `fetch` and `dispatcher`. */
export interface OAuthHttpSource {
  /** Used for every OAuth request when given. */
  fetch?: FetchLike | undefined;
  /** An undici `Dispatcher` (Node; the caller owns and closes it). */
  dispatcher?: unknown;
}

/**
 * A fetch for OAuth requests: `source.fetch`, else (Node parts registered) undici through a new
 * `Agent` or `source.dispatcher`, else `globalThis.fetch`. The choice is made at the first request.
 */
export function oauthHttp(source: OAuthHttpSource = {}, observe?: OAuthObserver): OAuthHttp {
  let owned: Promise<OwnedFetch> | undefined;
  const engine = (): Promise<OwnedFetch> =>
    (owned ??= (async (): Promise<OwnedFetch> => {
      const given = source.fetch;
      if (given) return { fetch: (url, init) => given(url, { ...init, redirect: 'manual' }), close: async () => {} };
      const node = await nodeAuthParts();
      if (node) return node.ownedFetch(source.dispatcher);
      return {
        fetch: (url, init) => globalThis.fetch(url, { ...init, redirect: 'manual' }),
        close: async () => {},
      };
    })());
  const send = async (url: string, init: RequestInit): Promise<Response> => (await engine()).fetch(url, init);
  return {
    fetch: async (url, init) => {
      if (!observe) return send(url, init);
      const started = Date.now();
      const method = init.method ?? 'GET';
      try {
        const response = await send(url, init);
        report(observe, { method, url: redactUrl(url), status: response.status, ms: Date.now() - started });
        return response;
      } catch (error) {
        report(observe, { method, url: redactUrl(url), error: errorMessage(error), ms: Date.now() - started });
        throw error;
      }
    },
    close: async () => {
      if (owned) await (await owned.catch(() => undefined))?.close();
    },
  };
}

/**
 * Runs `work` with an {@link OAuthHttp} made for it and closed after it, so OAuth traffic (rare:
 * a login, a refresh) leaves no socket open between exchanges and nothing to close.
 */
export async function withOAuthHttp<T>(
  source: OAuthHttpSource | undefined,
  work: (http: OAuthHttp) => Promise<T>,
  observe?: OAuthObserver,
): Promise<T> {
  const http = oauthHttp(source, observe);
  try {
    return await work(http);
  } finally {
    await http.close();
  }
}

/** True for `localhost`, `127.0.0.0/8` and `[::1]`: the hosts plain HTTP is tolerated on. */
export function isLoopback(url: URL): boolean {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** True when an authorization-server URL may be used: HTTPS, or HTTP on loopback. */
export function isAcceptableEndpoint(url: URL): boolean {
  return url.protocol === 'https:' || (url.protocol === 'http:' && isLoopback(url));
}

/** An observer that throws never breaks a login. */
function report(observe: OAuthObserver, exchange: OAuthExchange): void {
  try {
    observe(exchange);
  } catch {
    // a trace sink's failure is the sink's business
  }
}
