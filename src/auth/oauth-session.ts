/**
 * The OAuth state of one MCP server for one connection: the headers each request carries, the
 * refresh before expiry and after `401 invalid_token` (one at a time, however many requests
 * wait), the login after a `401` nothing else answers, and the step-up after
 * `403 insufficient_scope` with the union of granted and challenged scopes (bounded). Its
 * {@link OAuthSession.authorize} is the HTTP transports' authorize hook.
 */
import * as oauth from 'oauth4webapi';
import type { AuthChallenge } from '../util/auth-challenge.js';
import type { HttpError } from '../protocol/errors.js';
import { redactUrl } from '../util/redact.js';
import type { AuthorizeRequest } from '../transport/http/authorize-hook.js';
import { LoginRedirectError, OAuthError, withRefusal } from './auth-error.js';
import type { OAuthOptions } from './auth-options.js';
import {
  DEFAULT_LOGIN_TIMEOUT_MS,
  loginWithBrowser,
  redeemCode,
  tokensOf,
  type LoginContext,
} from './authorization-code.js';
import { clientAuthOf, oauthCode, oauthReason } from './client-identity.js';
import { DefaultTokenStore, keepsCryptoKeys } from './default-store.js';
import { defaultEndpointsMissing, discover, type Discovered } from './discovery.js';
import { dpopHandle, newDpopKey, resourceProof, wantsDpop, withNonceRetry } from './dpop.js';
import { withOAuthHttp, type OAuthFetch, type OAuthObserver } from './oauth-http.js';
import { prepareRedirect } from './redirect-login.js';
import {
  serverKey,
  type StoredClient,
  type StoredDiscovery,
  type StoredLogin,
  type StoredTokens,
  type TokenStore,
} from './token-store.js';

/** A token this close to its expiry is refreshed before use. */
const REFRESH_MARGIN_MS = 60_000;
const DEFAULT_MAX_STEP_UPS = 2;
/** Logins a session starts for 401s that no refresh answered. */
const MAX_LOGINS_AFTER_REFUSAL = 3;

/**
 * OAuth for one server: headers, refresh, login, step-up. Holds no socket or timer between
 * exchanges. The login is read from the store once and kept in memory (a request costs no store
 * read); what the session obtains (a login, a refresh) is written through; a refusal re-reads the
 * store first, so a newer login another process wrote to a shared store is taken instead of
 * refreshing or logging in again.
 */
export class OAuthSession {
  readonly serverUrl: URL;
  readonly key: string;
  readonly store: TokenStore;
  /** When false, a refusal that needs a login is not answered here (the caller logs in). */
  interactive = true;
  private readonly serverName: string;
  private readonly options: OAuthOptions;
  /** The login as last read from or written to the store (a promise, so concurrent first reads share one). */
  private kept: Promise<StoredLogin | undefined> | undefined;
  private refreshing: Promise<StoredTokens | undefined> | undefined;
  private loggingIn: Promise<StoredTokens> | undefined;
  private stepUps = 0;
  private loginsAfterRefusal = 0;
  /** The MCP server's latest DPoP nonce. */
  private resourceNonce: string | undefined;
  /** The `callbackUrl` option's login, finished once. */
  private callbackFinished: Promise<unknown> | undefined;

  private readonly observe: OAuthObserver | undefined;

  /** `observe` sees every OAuth HTTP exchange (method, redacted URL, status): the client's trace. */
  constructor(serverUrl: URL, serverName: string, options: OAuthOptions = {}, observe?: OAuthObserver) {
    this.observe = observe;
    this.serverUrl = new URL(serverUrl);
    this.key = serverKey(this.serverUrl);
    this.serverName = serverName;
    this.options = options;
    this.store = options.store ?? new DefaultTokenStore();
  }

  /** The transports' authorize hook (bound). */
  readonly authorize = async (request: AuthorizeRequest): Promise<Record<string, string> | undefined> => {
    // A login by redirect that came back is finished before anything is sent (its failure fails
    // every request). Not under this request's signal: a probe's timeout must not end a login
    // whose code can be redeemed once; the request stops waiting on its own abort.
    if (this.options.callbackUrl !== undefined) {
      if (this.callbackFinished === undefined) {
        this.callbackFinished = this.finishRedirect(this.options.callbackUrl);
        this.callbackFinished.catch(() => {}); // each waiting request gets the failure
      }
      await untilAborted(this.callbackFinished, request.signal);
    }
    if (request.rejected === undefined) return this.headersOf(await this.currentTokens(request.signal), request);
    const tokens = await this.answerRefusal(request.rejected, request.signal, tokenIn(request.rejectedAuthorization));
    return tokens === undefined ? undefined : this.headersOf(tokens, request);
  };

  /**
   * Logs in from a refusal's challenge (or none): discovery, client identity, the browser step,
   * tokens stored. One login at a time: a second caller shares the first's. Rejects with an
   * {@link OAuthError}.
   */
  login(challenge?: readonly AuthChallenge[], extraScopes: string[] = [], signal?: AbortSignal): Promise<StoredTokens> {
    this.loggingIn ??= this.runLogin(bearerOf(challenge), extraScopes, signal).finally(() => {
      this.loggingIn = undefined;
    });
    return this.loggingIn;
  }

  /**
   * The login by redirect, first half: discovery (from the well-known URLs), the client (a
   * registration for the `redirectUri` option when needed), PKCE and `state` kept in the store as
   * the pending login; resolves with the authorization URL to send the page to (no hook called).
   */
  startRedirect(signal?: AbortSignal): Promise<URL> {
    return withOAuthHttp(
      this.options,
      async (http) =>
        (await this.beginRedirect(http.fetch, await this.prepare(http.fetch, undefined, [], signal), signal)).url,
      this.observe,
    );
  }

  /**
   * The login by redirect, second half: the pending login finished from `callbackUrl` (the URL the
   * page came back with): its `state` must be the one sent and the login not older than
   * `loginTimeoutMs`; the code is redeemed with the stored verifier and the tokens stored. A
   * callback of a login already finished (no login pending, tokens stored) resolves with those
   * tokens. Rejects with an {@link OAuthError} (step `callback` or `token`).
   */
  async finishRedirect(callbackUrl: string | URL, signal?: AbortSignal): Promise<StoredTokens> {
    const params = new URL(callbackUrl).searchParams;
    const login = (await this.reread()) ?? {};
    const pending = login.pending;
    const fail = (reason: string): OAuthError => new OAuthError(reason, { server: this.serverName, step: 'callback' });
    if (!pending) {
      if (login.tokens) return login.tokens;
      throw fail(
        'no login by redirect is under way for this server in this store (finished already, or started with another store): start the login again',
      );
    }
    if (params.get('state') !== pending.state)
      throw fail(
        'the login callback carried a state that is not the one sent (a forged or stale authorization response); log in again',
      );
    const { pending: _finished, ...rest } = login;
    if (Date.now() - pending.startedAt > (this.options.loginTimeoutMs ?? DEFAULT_LOGIN_TIMEOUT_MS)) {
      await this.save(rest);
      throw fail('the login callback came after the login timeout (auth option "loginTimeoutMs"); log in again');
    }
    const as = pending.discovery.authorizationServer as oauth.AuthorizationServer;
    const dpop = pending.dpop ? (login.dpopKey ?? (await newDpopKey(await keepsCryptoKeys(this.store)))) : undefined;
    let tokens: StoredTokens;
    try {
      tokens = await withOAuthHttp(
        this.options,
        (http) =>
          redeemCode(
            {
              as,
              serverName: this.serverName,
              fetch: http.fetch,
              resource: pending.discovery.resource,
              scopes: pending.scopes,
              dpop,
              signal,
            },
            pending.client,
            params,
            pending,
          ),
        this.observe,
      );
    } catch (error) {
      // A code is redeemed once: the pending login is over either way.
      await this.save(rest);
      throw error;
    }
    await this.save({
      ...rest,
      tokens,
      client: pending.client,
      discovery: pending.discovery,
      ...(dpop ? { dpopKey: dpop } : {}),
    });
    return tokens;
  }

  /** Forgets the stored login of this server. */
  async logout(): Promise<void> {
    await this.store.delete(this.key);
    this.kept = Promise.resolve(undefined);
  }

  // ---- the login kept in memory ----

  /** The login in memory; the store is read the first time only. */
  private loginInMemory(): Promise<StoredLogin | undefined> {
    return (this.kept ??= this.readStore());
  }

  /** The store's login now (another process may have written a newer one), kept in memory. */
  private reread(): Promise<StoredLogin | undefined> {
    return (this.kept = this.readStore());
  }

  private readStore(): Promise<StoredLogin | undefined> {
    const reading = this.store.get(this.key);
    // A failed read is not kept: the next request reads again.
    reading.catch(() => {
      if (this.kept === reading) this.kept = undefined;
    });
    return reading;
  }

  /** Writes `login` to the store and keeps it. */
  private async save(login: StoredLogin): Promise<void> {
    await this.store.set(this.key, login);
    this.kept = Promise.resolve(login);
  }

  // ---- tokens ----

  /** The kept tokens, renewed first when they expire within a minute and can be refreshed. */
  private async currentTokens(signal?: AbortSignal): Promise<StoredTokens | undefined> {
    if (this.loggingIn) return this.loggingIn.catch(() => undefined);
    const tokens = (await this.loginInMemory())?.tokens;
    if (!tokens) return undefined;
    if (expiresSoon(tokens) && tokens.refreshToken) {
      return (
        (await this.renew(tokens.accessToken, signal).catch(() => undefined)) ??
        (tokens.expiresAt! > Date.now() ? tokens : undefined)
      );
    }
    return tokens;
  }

  /** `Authorization` for `tokens`; a DPoP-bound token also gets a fresh proof for this method and URL. */
  private async headersOf(
    tokens: StoredTokens | undefined,
    request: AuthorizeRequest,
  ): Promise<Record<string, string>> {
    if (!tokens) return {};
    if (tokens.tokenType !== 'DPoP') return { authorization: `Bearer ${tokens.accessToken}` };
    const key = (await this.loginInMemory())?.dpopKey;
    if (!key) return {};
    return {
      authorization: `DPoP ${tokens.accessToken}`,
      dpop: await resourceProof(key, request.method, request.url, tokens.accessToken, this.resourceNonce),
    };
  }

  /** What to resend with after a 401/403, or undefined to give up. */
  private async answerRefusal(
    refusal: HttpError,
    signal?: AbortSignal,
    sent?: string,
  ): Promise<StoredTokens | undefined> {
    // RFC 9449 §9: the server wants its nonce in the proof; the same token goes again with a new proof.
    const dpopChallenge = refusal.challenge?.find((c) => c.scheme === 'dpop');
    if (
      refusal.status === 401 &&
      dpopChallenge?.params.error === 'use_dpop_nonce' &&
      refusal.dpopNonce !== undefined &&
      refusal.dpopNonce !== this.resourceNonce
    ) {
      this.resourceNonce = refusal.dpopNonce;
      return (await this.loginInMemory())?.tokens;
    }
    const bearer = bearerOf(refusal.challenge);
    if (refusal.status === 403) {
      if (bearer?.params.error !== 'insufficient_scope' || !this.mayLogIn()) return undefined;
      // Step-up: a bounded number of new logins, each asking for what was granted plus what is challenged.
      if (this.stepUps >= (this.options.maxStepUps ?? DEFAULT_MAX_STEP_UPS)) return undefined;
      this.stepUps++;
      const granted = (await this.loginInMemory())?.tokens?.scope?.split(' ').filter(Boolean) ?? [];
      return this.login(refusal.challenge, granted, signal).catch((error: unknown) => {
        throw withRefusal(error, refusal);
      });
    }
    if (this.loggingIn) return this.loggingIn;
    // 401: a newer login in the store or a refresh answers it when it can (never a new login or
    // registration while a refresh token works). The token refused is the one the attempt carried:
    // a late refusal of a token renewed since is answered with the new one, not a second refresh.
    const refused = sent ?? (await this.loginInMemory())?.tokens?.accessToken;
    const renewed = await this.renew(refused, signal).catch(() => undefined);
    if (renewed) return renewed;
    // A server that refuses every fresh token would otherwise ask the user on every request.
    if (!this.mayLogIn() || this.loginsAfterRefusal >= MAX_LOGINS_AFTER_REFUSAL) return undefined;
    this.loginsAfterRefusal++;
    return this.login(refusal.challenge, [], signal).catch((error: unknown) => {
      throw withRefusal(error, refusal);
    });
  }

  /** A login may start here: always for a machine client, for a person only once connected. */
  private mayLogIn(): boolean {
    return this.interactive || (this.options.grant !== undefined && this.options.grant !== 'authorization_code');
  }

  /**
   * Tokens to use instead of `stale` (the access token in hand): the store's, when another
   * process (or an earlier renewal) left other tokens there that are not about to expire, else
   * the store's refreshed. One renewal at a time. Undefined when there is nothing to refresh with.
   */
  private renew(stale: string | undefined, signal?: AbortSignal): Promise<StoredTokens | undefined> {
    this.refreshing ??= this.runRenew(stale, signal).finally(() => {
      this.refreshing = undefined;
    });
    return this.refreshing;
  }

  private async runRenew(stale: string | undefined, signal?: AbortSignal): Promise<StoredTokens | undefined> {
    const renew = () => this.renewNow(stale, signal);
    const stored = (await this.reread())?.tokens;
    // Nothing to redeem, or tokens to take: no lock needed.
    if (!this.store.lock || !stored?.refreshToken || adoptable(stored, stale)) return renew();
    // Processes sharing the store renew one at a time; the store is read again under the lock, so
    // tokens another process renewed meanwhile are taken instead of redeeming the refresh token again.
    return this.store.lock(this.key, renew, signal);
  }

  private async renewNow(stale: string | undefined, signal?: AbortSignal): Promise<StoredTokens | undefined> {
    const login = await this.reread();
    const stored = login?.tokens;
    if (stored && adoptable(stored, stale)) return stored;
    const refreshToken = stored?.refreshToken;
    if (!login || !refreshToken || !login.client || !login.discovery) return undefined;
    const as = login.discovery.authorizationServer as oauth.AuthorizationServer;
    const client: oauth.Client = { client_id: login.client.clientId };
    let result: oauth.TokenEndpointResponse;
    const { client: storedClient, discovery } = login;
    try {
      const DPoP = login.dpopKey ? await dpopHandle(login.dpopKey, storedClient.clientId) : undefined;
      result = await withOAuthHttp(
        this.options,
        (http) =>
          withNonceRetry(async () => {
            const response = await oauth.refreshTokenGrantRequest(
              as,
              client,
              clientAuthOf(storedClient),
              refreshToken,
              {
                additionalParameters: { resource: discovery.resource },
                [oauth.customFetch]: http.fetch,
                [oauth.allowInsecureRequests]: true,
                ...(signal ? { signal } : {}),
                ...(DPoP ? { DPoP } : {}),
              },
            );
            return oauth.processRefreshTokenResponse(as, client, response);
          }),
        this.observe,
      );
    } catch (error) {
      // Another process sharing the store may have refreshed meanwhile (a rotated refresh token
      // makes ours fail): its tokens are taken, never overwritten.
      const now = await this.reread();
      if (now?.tokens && now.tokens.refreshToken !== refreshToken) {
        if (adoptable(now.tokens, stale)) return now.tokens;
      } else if (now && refusedGrant(error)) {
        // A refresh token the server no longer accepts is dropped, so the next step is a login.
        // Anything else (the server unreachable, a 5xx, an abort) keeps it for the next try.
        const { tokens: _dropped, ...rest } = now;
        await this.save(rest);
      }
      throw new OAuthError(
        `refreshing the login at ${redactUrl(as.token_endpoint ?? as.issuer)} failed: ${oauthReason(error)}`,
        { server: this.serverName, step: 'refresh', ...oauthCode(error), cause: error },
      );
    }
    const tokens = tokensOf(result, login.tokens?.scope?.split(' ') ?? [], refreshToken);
    await this.save({ ...login, tokens });
    return tokens;
  }

  private runLogin(
    bearer: AuthChallenge | undefined,
    extraScopes: string[],
    signal?: AbortSignal,
  ): Promise<StoredTokens> {
    return withOAuthHttp(this.options, (http) => this.loginWith(http.fetch, bearer, extraScopes, signal), this.observe);
  }

  /** What every login starts from: discovery, the stored login (read afresh), the scopes, whether to bind with DPoP. */
  private async prepare(
    fetch: OAuthFetch,
    bearer: AuthChallenge | undefined,
    extraScopes: string[],
    signal?: AbortSignal,
  ): Promise<Prepared> {
    const found = await discover(
      { serverUrl: this.serverUrl, serverName: this.serverName, fetch, signal, bearerChallenged: bearer !== undefined },
      bearer?.params.resource_metadata,
    );
    const as = found.authorizationServer;
    // Read afresh: another process may have registered a client with this server meanwhile.
    const stored: StoredLogin = (await this.reread()) ?? {};
    const scopes = chooseScopes(
      this.options.scopes,
      bearer?.params.scope,
      found.resourceMetadata?.scopes_supported,
      as.scopes_supported,
      extraScopes,
    );
    // DPoP when both ends take it: the MCP server challenged with the DPoP scheme (or its metadata
    // requires bound tokens) and the authorization server signs ES256 proofs' tokens.
    const serverTakesDpop =
      bearer?.scheme === 'dpop' || found.resourceMetadata?.dpop_bound_access_tokens_required === true;
    return { found, stored, scopes, bind: serverTakesDpop && wantsDpop(as) };
  }

  /** The pending login by redirect kept in the store, and its authorization URL. */
  private async beginRedirect(fetch: OAuthFetch, prepared: Prepared, signal?: AbortSignal) {
    const { found, stored, scopes, bind } = prepared;
    const { url, pending } = await prepareRedirect({
      serverName: this.serverName,
      options: this.options,
      fetch,
      as: found.authorizationServer,
      resource: found.resource,
      scopes,
      storedClient: stored.client,
      signal,
      discovery: discoveryOf(found),
      dpop: bind,
    });
    await this.save({ ...stored, pending });
    return { url, pending };
  }

  private async loginWith(
    fetch: OAuthFetch,
    bearer: AuthChallenge | undefined,
    extraScopes: string[],
    signal?: AbortSignal,
  ): Promise<StoredTokens> {
    const prepared = await this.prepare(fetch, bearer, extraScopes, signal);
    const { found, stored, scopes } = prepared;
    const as = found.authorizationServer;
    const browser = this.options.grant === undefined || this.options.grant === 'authorization_code';
    if (browser && this.options.redirectUri !== undefined) {
      const hook = this.options.onAuthorizationUrl;
      if (!hook)
        throw new OAuthError(
          'the server requires an OAuth login and no stored login works: start the login by redirect (startRedirectLogin, or give onAuthorizationUrl to send the page to the authorization server)',
          { server: this.serverName, step: 'authorization' },
        );
      const { url, pending } = await this.beginRedirect(fetch, prepared, signal);
      const timeoutMs = this.options.loginTimeoutMs ?? DEFAULT_LOGIN_TIMEOUT_MS;
      try {
        await hook(url, {
          server: this.serverName,
          signal: signal ?? new AbortController().signal,
          redirectUri: pending.redirectUri,
          timeoutMs,
        });
      } catch (error) {
        throw new OAuthError(
          `the authorization URL could not be handed over: ${(error as Error)?.message ?? String(error)}`,
          { server: this.serverName, step: 'authorization', cause: error },
        );
      }
      throw new LoginRedirectError(this.serverName, url);
    }
    const dpop =
      browser && prepared.bind ? (stored.dpopKey ?? (await newDpopKey(await keepsCryptoKeys(this.store)))) : undefined;
    const machine = {
      serverName: this.serverName,
      options: this.options,
      fetch,
      as,
      resource: found.resource,
      scopes: scopes.filter((s) => s !== 'offline_access'),
      signal,
    };
    const { tokens, client } =
      this.options.grant === 'client_credentials'
        ? await (await import('./client-credentials.js')).clientCredentialsTokens(machine)
        : this.options.grant === 'jwt_bearer'
          ? await (await import('./jwt-bearer.js')).jwtBearerTokens(machine)
          : await browserLoginOnce({
              serverName: this.serverName,
              options: this.options,
              fetch,
              as,
              resource: found.resource,
              scopes,
              storedClient: stored.client,
              dpop,
              signal,
            }).catch((error: unknown) => {
              throw defaultEndpointsMissing(error, found, this.serverName);
            });
    await this.save({
      tokens,
      client,
      ...(dpop ? { dpopKey: dpop } : {}),
      discovery: discoveryOf(found),
    });
    return tokens;
  }
}

/** What {@link OAuthSession.prepare} found. */
interface Prepared {
  found: Discovered;
  stored: StoredLogin;
  scopes: string[];
  /** Both ends take DPoP. */
  bind: boolean;
}

/** Discovery as stored. */
function discoveryOf(found: Discovered): StoredDiscovery {
  const as = found.authorizationServer;
  return {
    resource: found.resource,
    authorizationServer: { ...(as as Record<string, unknown>), issuer: as.issuer },
    ...(found.resourceMetadataUrl !== undefined ? { resourceMetadataUrl: found.resourceMetadataUrl } : {}),
  };
}

/**
 * A registration the server has forgotten (`invalid_client` / `unauthorized_client` at the token
 * endpoint for a stored registration) is registered again once and the login repeated; a second
 * refusal is final.
 */
async function browserLoginOnce(context: LoginContext): Promise<{ tokens: StoredTokens; client: StoredClient }> {
  try {
    return await loginWithBrowser(context);
  } catch (error) {
    const forgotten =
      error instanceof OAuthError &&
      error.step === 'token' &&
      (error.oauthError === 'invalid_client' || error.oauthError === 'unauthorized_client');
    if (!forgotten || context.storedClient?.source !== 'registered' || context.options.client !== undefined)
      throw error;
    return loginWithBrowser({ ...context, storedClient: undefined });
  }
}

/** `work`, or the signal's reason as soon as `signal` aborts (`work` goes on). */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return work;
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** True for stored tokens other than `stale` (the ones in hand) not about to expire: they are taken as they are. */
function adoptable(stored: StoredTokens, stale: string | undefined): boolean {
  return stored.accessToken !== stale && !expiresSoon(stored);
}

/** True when `tokens` expire within {@link REFRESH_MARGIN_MS} (tokens without an expiry never do). */
function expiresSoon(tokens: StoredTokens): boolean {
  return tokens.expiresAt !== undefined && tokens.expiresAt - Date.now() < REFRESH_MARGIN_MS;
}

/** The access token of an `authorization` header (`Bearer …`, `DPoP …`). */
function tokenIn(authorization: string | undefined): string | undefined {
  return authorization?.replace(/^(bearer|dpop)\s+/i, '');
}

/** The first `Bearer` challenge, else the first `DPoP` one (both carry `resource_metadata`, `scope`, `error`). */
function bearerOf(challenge: readonly AuthChallenge[] | undefined): AuthChallenge | undefined {
  return challenge?.find((c) => c.scheme === 'bearer') ?? challenge?.find((c) => c.scheme === 'dpop');
}

/**
 * The scopes of a login (spec: "Scope Selection Strategy"): configured ones, else the
 * challenge's, else all the resource's `scopes_supported`, else none; plus those already granted
 * (step-up asks for the union); plus `offline_access` when the authorization server lists it.
 */
export function chooseScopes(
  configured: string[] | undefined,
  challenged: string | undefined,
  resourceScopes: string[] | undefined,
  serverScopes: string[] | undefined,
  extra: string[],
): string[] {
  const base = configured ?? (challenged !== undefined ? challenged.split(' ') : (resourceScopes ?? []));
  const out = new Set([...extra, ...base].filter(Boolean));
  if (out.size > 0 && serverScopes?.includes('offline_access')) out.add('offline_access');
  return [...out];
}

/**
 * True when the token endpoint refused the refresh token itself (RFC 6749 §5.2 `invalid_grant`:
 * expired, revoked or unknown), the one failure after which the stored refresh token is useless.
 */
function refusedGrant(error: unknown): boolean {
  return oauthCode(error).oauthError === 'invalid_grant';
}
