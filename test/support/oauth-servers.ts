/**
 * Real parts for OAuth tests, all on 127.0.0.1 port 0 in the test process: panva's
 * `oidc-provider` as the authorization server (registration, PKCE, resource indicators with JWT
 * access tokens, refresh tokens, client credentials; its development login and consent pages),
 * and a protected MCP server (the scripted legacy server behind a bearer check that verifies the
 * provider's JWTs against its JWKS with `jose` and serves Protected Resource Metadata). And the
 * user: Debian's chromium driven by playwright-core through the provider's pages.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import * as jose from 'jose';
import Provider from 'oidc-provider';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { onTestFinished } from 'vitest';
import { FileTokenStore } from '../../src/auth/file-token-store.js';
import { OAuthSession } from '../../src/auth/oauth-session.js';
import { serverKey, type StoredLogin, type TokenStore } from '../../src/auth/token-store.js';
import { json, legacyServer, startHttpFixture, type HttpFixture, type Seen } from './http-fixture.js';

export interface AuthorizationServer {
  issuer: string;
  /** Refresh tokens the provider has issued and not yet revoked are revoked (a "refresh rejected" setup). */
  revokeRefreshTokens(): Promise<void>;
  /** The grant type of every token-endpoint request the provider handled so far, with whether it succeeded. */
  grants: Array<{ grantType: string; ok: boolean }>;
  /** The lifetime (seconds) of the access tokens issued from now on. */
  setAccessTokenTtl(seconds: number): void;
  /** Token-endpoint requests arriving from now on wait until `gate` settles before the provider sees them. */
  holdTokenRequests(gate: Promise<unknown>): void;
  close(): Promise<void>;
}

export interface AuthorizationServerOptions {
  /** Access token lifetime in seconds (default 3600). */
  accessTokenTtl?: number;
  /** The scopes a resource's tokens may carry (default `['mcp:tools']`). */
  resourceScopes?: string[];
  /**
   * No login or consent page: every authorization request is approved at once for account
   * `alice` with what it asked for (oidc-provider's interaction API), so a user agent that
   * follows redirects with cookies ({@link userApprovesByHttp}) plays the user.
   */
  autoApprove?: boolean;
  /**
   * A browser page's origin allowed to register by CORS: oidc-provider answers CORS on its
   * metadata, JWKS and token endpoints (the token endpoint for a public client whose redirect URI
   * is on the page's origin) but not on registration, which a browser's JSON POST needs (a
   * preflight asking for `content-type`).
   */
  registrationCorsOrigin?: string;
  /**
   * The provider's signing key (a private JWK with `kid`, `alg`), so a test can sign tokens as
   * the provider; default a fresh RS256 one.
   */
  signingKey?: jose.JWK;
  /** Called with the provider before it serves (e.g. `provider.registerGrantType(…)`). */
  configure?: (provider: ConfigurableProvider) => void;
}

/** What `configure` may do with the provider (oidc-provider is untyped here). */
export interface ConfigurableProvider {
  /** A grant of the test's own at the token endpoint; `params` are the request parameters it reads. */
  registerGrantType(name: string, handler: (ctx: never) => Promise<void>, params?: string[]): void;
}

/** Starts oidc-provider on 127.0.0.1:0. */
export async function startAuthorizationServer(options: AuthorizationServerOptions = {}): Promise<AuthorizationServer> {
  const server: Server = createServer();
  const sockets = new Set<Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const signing = options.signingKey ?? (await freshSigningKey());
  const refreshTokens = new Set<{ destroy(): Promise<void> }>();
  let ttl = options.accessTokenTtl ?? 3600;
  const provider = new Provider(issuer, {
    jwks: { keys: [signing] },
    cookies: { keys: ['mcpwire-test-cookie-key'] },
    scopes: ['openid', 'offline_access', ...(options.resourceScopes ?? ['mcp:tools'])],
    findAccount: async (_ctx: unknown, sub: string) => ({ accountId: sub, claims: async () => ({ sub }) }),
    ttl: { AccessToken: () => ttl },
    ...(options.autoApprove
      ? { interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/auto-approve/${interaction.uid}` } }
      : {}),
    // Refresh tokens for every client allowed the grant (the default also wants an OpenID offline_access grant).
    issueRefreshToken: async (_ctx: unknown, client: { grantTypeAllowed(grant: string): boolean }) =>
      client.grantTypeAllowed('refresh_token'),
    features: {
      devInteractions: { enabled: !options.autoApprove },
      registration: { enabled: true },
      clientCredentials: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: async (_ctx: unknown, _client: unknown, oneOf?: string | string[]) => oneOf,
        useGrantedResource: async () => true,
        getResourceServerInfo: async (_ctx: unknown, resource: string) => ({
          scope: (options.resourceScopes ?? ['mcp:tools']).join(' '),
          audience: resource,
          accessTokenFormat: 'jwt',
          accessTokenTTL: ttl,
          jwt: { sign: { alg: 'RS256' } },
        }),
      },
    },
  });
  options.configure?.(provider);
  provider.on('refresh_token.saved', (token: { destroy(): Promise<void> }) => refreshTokens.add(token));
  const grants: AuthorizationServer['grants'] = [];
  type GrantContext = { oidc?: { params?: { grant_type?: unknown } } };
  const grantOf = (ctx: GrantContext) => String(ctx.oidc?.params?.grant_type ?? 'unknown');
  provider.on('grant.success', (ctx: GrantContext) => grants.push({ grantType: grantOf(ctx), ok: true }));
  provider.on('grant.error', (ctx: GrantContext) => grants.push({ grantType: grantOf(ctx), ok: false }));
  const callback = provider.callback() as (req: IncomingMessage, res: ServerResponse) => void;
  let tokenGate: Promise<unknown> = Promise.resolve();
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (options.autoApprove && req.url?.startsWith('/auto-approve/')) {
      approve(provider, req, res).catch((error: unknown) => res.writeHead(500).end(String(error)));
      return;
    }
    if (options.registrationCorsOrigin !== undefined && req.url === '/reg') {
      res.setHeader('access-control-allow-origin', options.registrationCorsOrigin);
      res.setHeader('vary', 'Origin');
      if (req.method === 'OPTIONS') {
        res
          .writeHead(204, { 'access-control-allow-methods': 'POST', 'access-control-allow-headers': 'content-type' })
          .end();
        return;
      }
    }
    if (req.url === '/token') {
      void tokenGate.finally(() => callback(req, res));
      return;
    }
    callback(req, res);
  });
  return {
    issuer,
    grants,
    setAccessTokenTtl(seconds) {
      ttl = seconds;
    },
    holdTokenRequests(gate) {
      tokenGate = gate;
    },
    async revokeRefreshTokens() {
      for (const token of refreshTokens) await token.destroy();
      refreshTokens.clear();
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A fresh RS256 signing key as a private JWK (`kid: test-key`). */
export async function freshSigningKey(): Promise<jose.JWK> {
  const { privateKey } = await jose.generateKeyPair('RS256', { extractable: true });
  return { ...(await jose.exportJWK(privateKey)), kid: 'test-key', alg: 'RS256', use: 'sig' };
}

/** Finishes one interaction of an auto-approving provider: the login as `alice`, or the consent to what is missing. */
async function approve(
  provider: InstanceType<typeof Provider>,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const details = (await provider.interactionDetails(req, res)) as {
    prompt: { name: string; details: Record<string, unknown> };
    params: { client_id: string };
    session?: { accountId: string };
    grantId?: string;
  };
  if (details.prompt.name === 'login') {
    await provider.interactionFinished(req, res, { login: { accountId: 'alice' } }, { mergeWithLastSubmission: false });
    return;
  }
  const grant = details.grantId
    ? await provider.Grant.find(details.grantId)
    : new provider.Grant({ accountId: details.session!.accountId, clientId: details.params.client_id });
  const missing = details.prompt.details as {
    missingOIDCScope?: string[];
    missingOIDCClaims?: string[];
    missingResourceScopes?: Record<string, string[]>;
  };
  if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
  if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
  for (const [resource, scopes] of Object.entries(missing.missingResourceScopes ?? {}))
    grant.addResourceScope(resource, scopes.join(' '));
  const grantId = (await grant.save()) as string;
  await provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
}

/**
 * Plays the user of an auto-approving provider without a browser: follows the authorization
 * URL's redirects (at most 20) with the cookies they set, through the provider's approval to the
 * client's redirect URI, and resolves with that last answer's status and page. Each request is
 * bounded (30 s).
 */
export function userApprovesByHttp(url: URL | string): Promise<{ status: number; text: string }> {
  return followRedirects(url, async ({ answer, location }) =>
    answer.status < 300 || answer.status >= 400 || location === undefined
      ? { status: answer.status, text: await answer.text() }
      : undefined,
  );
}

/** One answer on the way through an authorization's redirects, and where it sends the browser. */
export interface RedirectHop {
  answer: Response;
  /** The `Location` resolved against the request's URL; undefined when there is none. */
  location: URL | undefined;
}

/**
 * Follows `url`'s redirects as a browser does (at most 20, each bounded by 30 s, with the cookies
 * they set) and resolves with what `decide` returns for the first hop it returns something for;
 * a hop it passes on (or throws on) has its body cancelled.
 */
export async function followRedirects<T>(
  url: URL | string,
  decide: (hop: RedirectHop) => T | undefined | Promise<T | undefined>,
): Promise<T> {
  const cookies = new Map<string, string>();
  let next = new URL(url);
  for (let hop = 0; hop < 20; hop++) {
    const answer = await fetch(next, {
      redirect: 'manual',
      headers: { cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join('; ') },
      signal: AbortSignal.timeout(30_000),
    });
    for (const line of answer.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      cookies.set(pair!.slice(0, eq).trim(), pair!.slice(eq + 1).trim());
    }
    const header = answer.headers.get('location');
    const location = header === null ? undefined : new URL(header, next);
    let decided: T | undefined;
    try {
      decided = await decide({ answer, location });
    } finally {
      if (decided === undefined) await answer.body?.cancel().catch(() => undefined);
    }
    if (decided !== undefined) return decided;
    next = location!;
  }
  throw new Error(`the authorization at ${String(url)} did not end within 20 redirects`);
}

/**
 * A login to `serverUrl` through an auto-approving provider, kept in `store` as mcpwire's CLI
 * would keep it (the OAuth session's own login, with {@link userApprovesByHttp} as the user).
 */
export async function logInByHttp(serverUrl: string, store: TokenStore): Promise<StoredLogin> {
  let approving: Promise<unknown> = Promise.resolve();
  const session = new OAuthSession(new URL(serverUrl), 'hosted', {
    store,
    onAuthorizationUrl: (url) => {
      approving = userApprovesByHttp(url);
    },
  });
  await session.login();
  await approving;
  return (await store.get(serverKey(new URL(serverUrl))))!;
}

/** What {@link startHostedLogins} started. */
export interface HostedLogins {
  as: AuthorizationServer;
  mcp: ProtectedServer;
  /** A temporary directory holding the home (removed when the test finishes). */
  root: string;
  /** `HOME` and a `BROWSER` that does not exist, for the CLI. */
  env: Record<string, string>;
  /** The CLI's login store under that home (`~/.mcpwire/oauth`). */
  store: FileTokenStore;
}

/**
 * The parts of a CLI login test: an auto-approving oidc-provider (with `options`), the protected
 * server, and a temporary `$HOME` whose `~/.mcpwire/config.json` names it "hosted". Call it in a
 * test: all of it is stopped and removed when the test finishes.
 */
export async function startHostedLogins(options: AuthorizationServerOptions = {}): Promise<HostedLogins> {
  const as = await startAuthorizationServer({ autoApprove: true, ...options });
  onTestFinished(() => as.close());
  const mcp = await startProtectedServer(as.issuer);
  onTestFinished(() => mcp.close());
  const root = mkdtempSync(path.join(os.tmpdir(), 'mcpwire-hosted-logins-'));
  onTestFinished(() => rmSync(root, { recursive: true, force: true }));
  const home = path.join(root, 'home');
  mkdirSync(path.join(home, '.mcpwire'), { recursive: true });
  writeFileSync(
    path.join(home, '.mcpwire', 'config.json'),
    JSON.stringify({ mcpServers: { hosted: { url: mcp.url } } }),
  );
  return {
    as,
    mcp,
    root,
    env: { HOME: home, BROWSER: path.join(root, 'no-such-browser') },
    store: new FileTokenStore({ dir: path.join(home, '.mcpwire', 'oauth') }),
  };
}

export interface ProtectedServer extends HttpFixture {
  /** Requests that carried a valid token. */
  authorized(): Seen[];
}

/**
 * The scripted legacy MCP server behind a bearer check: a request without a valid JWT (this
 * issuer, audience = the server URL, signature from the provider's JWKS) gets 401 with
 * `resource_metadata`; the metadata names `metadataResource` (default: this server).
 */
export async function startProtectedServer(
  issuer: string,
  options: { metadataResource?: string } = {},
): Promise<ProtectedServer> {
  const config = (await (await fetch(`${issuer}/.well-known/openid-configuration`)).json()) as { jwks_uri: string };
  const jwks = jose.createLocalJWKSet((await (await fetch(config.jwks_uri)).json()) as jose.JSONWebKeySet);
  const good = new Set<Seen>();
  let resource = '';
  const mcp = legacyServer({ sessions: false });
  const fixture = await startHttpFixture(async (seen, res, req) => {
    if (seen.path === '/.well-known/oauth-protected-resource/mcp') {
      return json(res, {
        resource: options.metadataResource ?? resource,
        authorization_servers: [issuer],
        scopes_supported: ['mcp:tools'],
      });
    }
    if (!seen.path.startsWith('/mcp')) return false;
    const header = req.headers.authorization ?? '';
    const challenge = `Bearer resource_metadata="${new URL('/.well-known/oauth-protected-resource/mcp', resource).href}"`;
    if (!header.startsWith('Bearer '))
      return json(res, { error: 'invalid_token' }, 401, { 'www-authenticate': challenge });
    try {
      await jose.jwtVerify(header.slice(7), jwks, { issuer, audience: resource });
    } catch {
      return json(res, { error: 'invalid_token' }, 401, { 'www-authenticate': `${challenge}, error="invalid_token"` });
    }
    good.add(seen);
    return mcp(seen, res, req);
  });
  resource = fixture.url;
  return Object.assign(fixture, { authorized: () => fixture.requests.filter((r) => good.has(r)) });
}

export { launchBrowser } from './browser.js';

/**
 * Plays the user at the provider's development pages: opens `url`, signs in, consents, and
 * waits for mcpwire's "you can close this tab" page. Bounded by playwright's timeouts.
 */
export async function userLogsIn(browser: Browser, url: URL): Promise<void> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    page.setDefaultTimeout(30_000);
    await page.goto(url.toString());
    await page.fill('input[name=login]', 'alice');
    await page.fill('input[name=password]', 'secret');
    await page.click('button[type=submit]');
    await page.waitForSelector('input[name=prompt][value=consent]', { state: 'attached' });
    await page.click('button[type=submit]');
    await page.waitForSelector('text=You can close this tab');
  } finally {
    await context.close();
  }
}
