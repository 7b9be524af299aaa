/**
 * The HTTP that OAuth traffic (metadata, registration, token requests) goes through: undici's
 * fetch with a dispatcher the session owns, so it can be traced and closed like the MCP traffic;
 * and the rule that an authorization server is reached over HTTPS, or plain HTTP on loopback.
 */
import { Agent, fetch as undiciFetch, type Dispatcher } from 'undici';
import { errorMessage } from '../protocol/errors.js';
import { redactUrl } from '../util/redact.js';

/** What oauth4webapi calls as its `customFetch`. */
export type OAuthFetch = (url: string, init: RequestInit & { signal?: AbortSignal | null }) => Promise<Response>;

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

/** An owned keep-alive dispatcher and the fetch bound to it; `close()` ends its sockets. */
export interface OAuthHttp {
  fetch: OAuthFetch;
  close(): Promise<void>;
}

/** A fetch through a new undici `Agent` (or `dispatcher`, which the caller then owns and closes). */
export function oauthHttp(dispatcher?: Dispatcher, observe?: OAuthObserver): OAuthHttp {
  const agent = dispatcher ?? new Agent({ keepAliveTimeout: 4_000, connect: { timeout: 10_000 } });
  const send = (url: string, init: RequestInit): Promise<Response> =>
    undiciFetch(url, {
      ...(init as object),
      dispatcher: agent,
      redirect: 'manual',
    } as never);
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
      if (dispatcher === undefined) await agent.close().catch(() => {});
    },
  };
}

/**
 * Runs `work` with an {@link OAuthHttp} made for it and closed after it, so OAuth traffic (rare:
 * a login, a refresh) leaves no socket open between exchanges and nothing to close.
 */
export async function withOAuthHttp<T>(
  dispatcher: Dispatcher | undefined,
  work: (http: OAuthHttp) => Promise<T>,
  observe?: OAuthObserver,
): Promise<T> {
  const http = oauthHttp(dispatcher, observe);
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
