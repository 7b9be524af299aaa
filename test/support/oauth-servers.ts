/**
 * Real parts for OAuth tests, all on 127.0.0.1 port 0 in the test process: panva's
 * `oidc-provider` as the authorization server (registration, PKCE, resource indicators with JWT
 * access tokens, refresh tokens, client credentials; its development login and consent pages),
 * and a protected MCP server (the scripted legacy server behind a bearer check that verifies the
 * provider's JWTs against its JWKS with `jose` and serves Protected Resource Metadata). And the
 * user: Debian's chromium driven by playwright-core through the provider's pages.
 */
import { createServer, type Server } from 'node:http';
import type { Socket } from 'node:net';
import * as jose from 'jose';
import Provider from 'oidc-provider';
import type { Browser } from 'playwright-core';
import { json, legacyServer, startHttpFixture, type HttpFixture, type Seen } from './http-fixture.js';

export interface AuthorizationServer {
  issuer: string;
  /** Refresh tokens the provider has issued and not yet revoked are revoked (a "refresh rejected" setup). */
  revokeRefreshTokens(): Promise<void>;
  close(): Promise<void>;
}

export interface AuthorizationServerOptions {
  /** Access token lifetime in seconds (default 3600). */
  accessTokenTtl?: number;
  /** The scopes a resource's tokens may carry (default `['mcp:tools']`). */
  resourceScopes?: string[];
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
  const { privateKey } = await jose.generateKeyPair('RS256', { extractable: true });
  const signing = { ...(await jose.exportJWK(privateKey)), kid: 'test-key', alg: 'RS256', use: 'sig' };
  const refreshTokens = new Set<{ destroy(): Promise<void> }>();
  const provider = new Provider(issuer, {
    jwks: { keys: [signing] },
    cookies: { keys: ['mcpwire-test-cookie-key'] },
    scopes: ['openid', 'offline_access', ...(options.resourceScopes ?? ['mcp:tools'])],
    findAccount: async (_ctx: unknown, sub: string) => ({ accountId: sub, claims: async () => ({ sub }) }),
    ttl: { AccessToken: options.accessTokenTtl ?? 3600 },
    // Refresh tokens for every client allowed the grant (the default also wants an OpenID offline_access grant).
    issueRefreshToken: async (_ctx: unknown, client: { grantTypeAllowed(grant: string): boolean }) =>
      client.grantTypeAllowed('refresh_token'),
    features: {
      devInteractions: { enabled: true },
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
          accessTokenTTL: options.accessTokenTtl ?? 3600,
          jwt: { sign: { alg: 'RS256' } },
        }),
      },
    },
  });
  provider.on('refresh_token.saved', (token: { destroy(): Promise<void> }) => refreshTokens.add(token));
  server.on('request', provider.callback());
  return {
    issuer,
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
