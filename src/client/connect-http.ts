/**
 * Reaching a server by URL: which of the three HTTP shapes it speaks, found as the 2026-07-28
 * backward-compatibility rules say (`basic/transports/streamable-http.mdx`): POST
 * `server/discover` (modern) → POST `initialize` (legacy Streamable HTTP) → when that fails with
 * 400/404/405, GET the URL for an `endpoint` event (2024-11-05 HTTP+SSE). The verdict is kept
 * per URL (`http-routes.ts`: the process's cache, or the caller's `http.routes`) and tried first next time; a route
 * that fails is forgotten and the URL probed afresh. Only a detected verdict is kept: a connect that pins the era, the
 * revision or the transport neither reads nor writes the cache (a pinned era would otherwise stand in for detection on
 * every later connect to that URL). A caller's `eraHint` is tried as a verdict would be when the cache has none,
 * and forgotten the same way when it fails. The connect timeout is one deadline for every route tried.
 */
import { errorMessage, HttpError, McpError } from '../protocol/errors.js';
import type { Transport } from '../protocol/transport.js';
import { PROCESS_HTTP_ROUTES } from './http-routes.js';
import { DEFAULT_CONNECT_TIMEOUT_MS, DEFAULT_HTTP_PROBE_TIMEOUT_MS } from './negotiate.js';
import { checkOptions, optionKeys } from '../protocol/option-keys.js';
import type { ClientOptions } from './options.js';
import type { OAuthOptions } from '../auth/auth-options.js';
import type { AuthorizeHook } from '../transport/http/authorize-hook.js';
import type { ConnectTracer } from './trace-hook.js';
import type { FetchFunction } from '../transport/http/fetch-engine.js';

/** A server reached over HTTP. */
export interface HttpServerSpec {
  /** The MCP endpoint (Streamable HTTP) or the SSE URL (HTTP+SSE). */
  url: string | URL;
  /** Sent on every request (e.g. `Authorization`); their values never appear in errors. */
  headers?: Record<string, string>;
  /** Skip detection: `http` = Streamable HTTP (either era), `sse` = 2024-11-05 HTTP+SSE. */
  transport?: 'http' | 'sse' | 'auto';
  /** Log in with OAuth when the server asks for it (MCP authorization); see {@link OAuthOptions}. */
  auth?: OAuthOptions;
  /**
   * Headers of your own per request, and one resend after a 401/403 when it gives new ones (see
   * {@link AuthorizeHook}; the manager's `headersHelper` is one). Not with `auth`, which is such
   * a hook itself. HTTP+SSE asks it once per connect (for the stream's GET) and, after a 401/403
   * there, once more.
   */
  authorize?: AuthorizeHook;
  /**
   * The `fetch` every request of this connection goes through (the probes, both eras, HTTP+SSE):
   * a wrapper of your own, a polyfill, a test double. Without it: undici's pool on Node and Deno,
   * the global `fetch` elsewhere.
   */
  fetch?: FetchFunction;
}

const HTTP_SPEC_KEYS = optionKeys<HttpServerSpec>('HTTP server spec', {
  url: true,
  headers: true,
  transport: true,
  auth: true,
  authorize: true,
  fetch: true,
});

/** True when `target` names a URL rather than a command or a transport. */
export function isHttpSpec(target: unknown): target is HttpServerSpec {
  return (
    typeof target === 'object' &&
    target !== null &&
    'url' in target &&
    typeof (target as { send?: unknown }).send !== 'function'
  );
}

/**
 * Connects to `spec` with `open` (McpClient's own connect over a transport it holds: the
 * transport built here, and the pipe its connection uses — the same, or the tracing decorator
 * around it) and returns what it returns. Rejects with the error of the last route tried; when neither Streamable HTTP
 * nor HTTP+SSE answers, the error says both.
 */
export async function connectHttp<C extends { era: 'legacy' | 'modern' }>(
  spec: HttpServerSpec,
  options: ClientOptions,
  open: (transport: Transport, pipe: Transport, options: ClientOptions) => Promise<C>,
): Promise<C> {
  checkOptions(spec, HTTP_SPEC_KEYS);
  if (spec.auth && spec.authorize)
    throw new McpError('INVALID_ARGUMENT', 'give "auth" (OAuth) or "authorize" (a hook of your own), not both', {
      server: options.name,
    });
  const url = new URL(String(spec.url));
  const key = url.toString();
  const name = options.name ?? url.host;
  const headers = spec.headers ?? {};
  const maxMessageBytes = options.http?.maxMessageBytes;
  const sizeCap = maxMessageBytes === undefined ? {} : { maxMessageBytes };
  const routes = options.http?.routes ?? PROCESS_HTTP_ROUTES;
  const engine = spec.fetch === undefined ? {} : { fetch: spec.fetch };
  const http = await import('../transport/http/index.js');
  const pinned = spec.transport === 'http' || spec.transport === 'sse' ? spec.transport : undefined;
  const eraPinned = options.era !== undefined && options.era !== 'auto' ? true : options.protocolVersion !== undefined;
  const detecting = pinned === undefined && !eraPinned;
  // Every route attempt is traced here, probes included (they are real traffic); `open` gets no
  // `trace`, so it does not wrap a second time.
  // The hint is read here (a route to try first), not by each route's negotiation.
  const { trace, eraHint, ...untraced } = options;
  const tracer = trace ? (await import('./trace-hook.js')).connectTracer(trace, name, headers) : undefined;
  const traced = (transport: Transport): Transport => (tracer ? tracer.wrap(transport) : transport);
  const base: ClientOptions = {
    ...untraced,
    name,
    probeTimeoutMs: options.probeTimeoutMs ?? DEFAULT_HTTP_PROBE_TIMEOUT_MS,
  };
  // The clock starts with the first attempt, which gets the whole timeout; a fallback, a re-probe
  // or the handshake after the HTTP+SSE GET get what is left, and nothing once it ran out.
  const totalMs = options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
  let endsAt: number | undefined;
  const timeLeft = (phase: string): number => {
    if (endsAt === undefined) {
      endsAt = Date.now() + totalMs;
      return totalMs;
    }
    const left = endsAt - Date.now();
    if (left <= 0)
      throw new McpError('TIMEOUT', `the connect timeout of ${totalMs} ms ran out before ${phase}`, { server: name });
    return left;
  };

  // OAuth: the session gives each request its headers; during the connect it only refreshes, a
  // login (which may wait on a person) happens below, outside the connect timeout.
  const traceOAuth = tracer ? (exchange: object) => tracer.event('oauth-exchange', { ...exchange }) : undefined;
  // The connection's own `fetch` carries the OAuth traffic too, unless `auth` names one of its own.
  const auth = spec.auth && spec.fetch && !spec.auth.fetch ? { ...spec.auth, fetch: spec.fetch } : spec.auth;
  const session = auth
    ? new (await import('../auth/oauth-session.js')).OAuthSession(url, name, auth, traceOAuth)
    : undefined;
  // When tracing, what a hook hands out (a token, a helper's header) joins the trace's secrets at once,
  // so a server echoing it in a message body does not put it in the trace.
  const own = spec.authorize && tracer ? learningSecrets(spec.authorize, tracer) : spec.authorize;
  const hook = session && tracer ? learningSecrets(session.authorize, tracer) : (session?.authorize ?? own);
  const authorize = hook ? { authorize: hook } : {};
  const openSse = async (extra: Record<string, string> | undefined): Promise<Transport> =>
    http.LegacySseTransport.connect(url, {
      name,
      headers: extra ? { ...headers, ...extra } : headers,
      ...sizeCap,
      ...engine,
      connectTimeoutMs: timeLeft('the HTTP+SSE stream was opened'),
      ...(options.signal ? { signal: options.signal } : {}),
    });
  const viaSse = async (): Promise<C> => {
    let transport: Transport;
    try {
      // HTTP+SSE has no authorize hook: the headers of the connect's start (with OAuth, a 401 logs in and reconnects).
      const first = hook ? await hook({ method: 'GET', url, signal: options.signal }) : undefined;
      try {
        transport = await openSse(first);
      } catch (error) {
        // A hook of the caller's own gets one more say after a refusal, as on Streamable HTTP.
        if (!own || !(error instanceof HttpError) || error.code !== 'AUTH_REQUIRED') throw error;
        const again = await own({ method: 'GET', url, signal: options.signal, rejected: error });
        if (again === undefined) throw error;
        transport = await openSse(again);
      }
    } catch (error) {
      tracer?.event('connect-failed', { transport: 'sse', error: errorMessage(error) });
      throw error;
    }
    let connectTimeoutMs: number;
    try {
      connectTimeoutMs = timeLeft('the handshake over HTTP+SSE');
    } catch (error) {
      await transport.close();
      throw error;
    }
    const client = await open(transport, traced(transport), { ...base, era: 'legacy', connectTimeoutMs });
    if (detecting) routes.set(key, 'sse');
    return client;
  };
  const viaStreamable = async (era: ClientOptions['era']): Promise<C> => {
    const connectTimeoutMs = timeLeft('Streamable HTTP was tried');
    const transport = new http.StreamableHttpTransport(url, { name, headers, ...sizeCap, ...engine, ...authorize });
    const client = await open(transport, traced(transport), {
      ...base,
      connectTimeoutMs,
      ...(era === undefined ? {} : { era }),
    });
    if (detecting) routes.set(key, client.era);
    return client;
  };

  // A hook of the caller's own may take time (a command, a token service): its first headers are
  // asked for before the first request, within the connect's deadline but outside any one
  // request's timeout (a probe must not fail because the headers were slow to come).
  if (own) {
    endsAt = Date.now() + totalMs;
    await firstHeaders(own, url, name, totalMs, options.signal);
  }
  if (session === undefined) return attempt();
  session.interactive = false;
  let client: C;
  try {
    client = await attempt();
  } catch (error) {
    if (
      !(error instanceof HttpError) ||
      error.code !== 'AUTH_REQUIRED' ||
      (error.status !== 401 && error.status !== 403)
    )
      throw error;
    // The server wants a login: once, then the connect again with a fresh timeout.
    try {
      await session.login(error.challenge, [], options.signal);
    } catch (loginError) {
      // The caller's abort while the user was away is a cancel like any other step's.
      if (options.signal?.aborted && !(loginError instanceof McpError && loginError.code === 'CANCELLED')) {
        throw new McpError('CANCELLED', 'connect was cancelled by the caller during the OAuth login', {
          server: name,
          cause: options.signal.reason,
        });
      }
      // The server's 401 (status, challenge) stays reachable beside the login's own failure.
      throw (await import('../auth/auth-error.js')).withRefusal(loginError, error);
    }
    endsAt = undefined;
    client = await attempt();
  }
  session.interactive = true;
  return client;

  async function attempt(): Promise<C> {
    if (pinned === 'sse') return viaSse();
    const cached = detecting ? routes.get(key) : undefined;
    // A caller's remembered era stands in for a verdict of this process's, never over one.
    const first = cached ?? (eraPinned ? undefined : eraHint);
    if (first !== undefined) {
      try {
        return first === 'sse' ? await viaSse() : await viaStreamable(first);
      } catch (error) {
        if (error instanceof McpError && (error.code === 'AUTH_REQUIRED' || error.code === 'CANCELLED')) throw error;
        routes.delete(key); // the server changed: probe from scratch
        // A spent connect timeout leaves no time to probe now; the next connect will.
        if (error instanceof McpError && error.code === 'TIMEOUT') throw error;
      }
    }
    try {
      return await viaStreamable(undefined);
    } catch (error) {
      if (pinned === 'http' || !isNotStreamableHttp(error)) throw error;
      try {
        return await viaSse();
      } catch (sseError) {
        if (sseError instanceof McpError && (sseError.code === 'TIMEOUT' || sseError.code === 'CANCELLED'))
          throw sseError;
        const first = error;
        const second = sseError instanceof McpError ? sseError.reason : errorMessage(sseError);
        // The HTTP facts are the Streamable HTTP attempt's (the route tried first); the other is the message's.
        throw new HttpError(
          'TRANSPORT',
          `${url.origin}${url.pathname} is neither a Streamable HTTP endpoint (${first.reason}) nor an HTTP+SSE one (${second})`,
          {
            server: name,
            method: 'initialize',
            cause: error,
            url: first.url,
            ...(first.status !== undefined ? { status: first.status } : {}),
            ...(first.body !== undefined ? { body: first.body } : {}),
          },
        );
      }
    }
  }
}

/**
 * Asks `hook` once for headers (what it gives is its own to keep), bounded by `ms` and the
 * caller's `signal`. Rejects with `TIMEOUT` or `CANCELLED` (the hook's request signal aborted, so
 * the hook can stop what it started), or with the hook's own error.
 */
/** `hook`, telling `tracer` the credentials among the headers it gives. */
function learningSecrets(hook: AuthorizeHook, tracer: ConnectTracer): AuthorizeHook {
  return async (request) => {
    const headers = await hook(request);
    if (headers) tracer.addSecretHeaders(headers);
    return headers;
  };
}

async function firstHeaders(
  hook: AuthorizeHook,
  url: URL,
  server: string,
  ms: number,
  signal: AbortSignal | undefined,
): Promise<void> {
  const controller = new AbortController();
  const timeout = new McpError(
    'TIMEOUT',
    `the connect timeout of ${ms} ms ran out while the authorize hook gave the first headers`,
    { server },
  );
  const timer = setTimeout(() => controller.abort(timeout), ms);
  const onAbort = (): void => controller.abort(signal!.reason);
  if (signal?.aborted) onAbort();
  else signal?.addEventListener('abort', onAbort, { once: true });
  try {
    await hook({ method: 'POST', url, signal: controller.signal });
    if (controller.signal.aborted) throw controller.signal.reason;
  } catch (error) {
    if (!controller.signal.aborted) throw error;
    if (controller.signal.reason === timeout) throw timeout;
    throw new McpError('CANCELLED', 'connect was cancelled by the caller', { server, cause: signal?.reason });
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  }
}

/** `initialize` refused with 400/404/405 and no JSON-RPC answer: the URL may be an HTTP+SSE server. */
function isNotStreamableHttp(error: unknown): error is HttpError {
  if (!(error instanceof HttpError) || error.code !== 'TRANSPORT' || error.method !== 'initialize') return false;
  return error.status === 400 || error.status === 404 || error.status === 405;
}
