/**
 * The whole login with real parts: oidc-provider on loopback, a protected MCP server that checks
 * the provider's JWTs, and chromium playing the user at the provider's login and consent pages.
 * A login through the library is stored in a file store; a second client with the same store
 * connects without a browser; a refresh the provider rejects falls back to a login.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FileTokenStore } from '../src/auth/file-token-store.js';
import type { OAuthOptions } from '../src/auth/auth-options.js';
import { McpClient } from '../src/client/mcp-client.js';
import { PROCESS_HTTP_ROUTES } from '../src/client/http-routes.js';
import {
  launchBrowser,
  startAuthorizationServer,
  startProtectedServer,
  userLogsIn,
  type AuthorizationServer,
  type ProtectedServer,
} from './support/oauth-servers.js';

describe('an OAuth login in a real browser', () => {
  let browser: Browser;
  let as: AuthorizationServer;
  let server: ProtectedServer;
  let dir: string;
  const clients: McpClient[] = [];

  beforeAll(async () => {
    browser = await launchBrowser();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });
  afterEach(async () => {
    for (const client of clients.splice(0)) await client.close();
    await server?.close();
    await as?.close();
    PROCESS_HTTP_ROUTES.clear();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  async function setUp(): Promise<{ store: FileTokenStore; logins: URL[]; auth: OAuthOptions }> {
    as = await startAuthorizationServer();
    server = await startProtectedServer(as.issuer);
    dir = mkdtempSync(path.join(os.tmpdir(), 'mcpwire-oauth-'));
    const store = new FileTokenStore({ dir: path.join(dir, 'oauth') });
    const logins: URL[] = [];
    const auth: OAuthOptions = {
      store,
      onAuthorizationUrl: async (url) => {
        logins.push(url);
        await userLogsIn(browser, url);
      },
    };
    return { store, logins, auth };
  }

  it('logs in once, stores the login in 0600 files, and a second client connects without a browser', async () => {
    const { store, logins, auth } = await setUp();
    const first = await McpClient.connect({ url: server.url, auth }, { name: 'protected', connectTimeoutMs: 20_000 });
    clients.push(first);
    expect((await first.listTools()).map((t) => t.name)).toEqual(['echo']);
    expect(logins).toHaveLength(1);
    // The authorization request carried PKCE S256, state and the resource (RFC 8707).
    const sent = logins[0]!.searchParams;
    expect(sent.get('code_challenge_method')).toBe('S256');
    expect(sent.get('state')).toBeTruthy();
    expect(sent.get('resource')).toBe(server.url);
    expect(sent.get('redirect_uri')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);

    const file = store.fileOf(server.url);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(store.dir).mode & 0o777).toBe(0o700);
    const stored = await store.get(server.url);
    expect(stored?.tokens?.refreshToken).toBeTruthy();
    expect(stored?.tokens?.expiresAt).toBeGreaterThan(Date.now());

    const second = await McpClient.connect(
      { url: server.url, auth: { store: new FileTokenStore({ dir: store.dir }) } },
      { name: 'protected' },
    );
    clients.push(second);
    expect((await second.callTool('echo', { text: 'hi' })).content).toEqual([{ type: 'text', text: 'echo:hi' }]);
    expect(logins).toHaveLength(1);
  }, 120_000);

  it('refreshes an expired token without a browser, and logs in again when the provider rejects the refresh', async () => {
    const { store, logins, auth } = await setUp();
    clients.push(await McpClient.connect({ url: server.url, auth }, { name: 'protected', connectTimeoutMs: 20_000 }));
    expect(logins).toHaveLength(1);
    const login = (await store.get(server.url))!;

    // Expired: the next connect refreshes first (a new access token, no browser).
    await store.set(server.url, { ...login, tokens: { ...login.tokens!, expiresAt: Date.now() - 1_000 } });
    clients.push(await McpClient.connect({ url: server.url, auth }, { name: 'protected' }));
    const refreshed = (await store.get(server.url))!;
    expect(refreshed.tokens!.accessToken).not.toBe(login.tokens!.accessToken);
    expect(logins).toHaveLength(1);

    // Revoked at the provider and expired here: the refresh fails, so the user logs in again.
    await as.revokeRefreshTokens();
    await store.set(server.url, { ...refreshed, tokens: { ...refreshed.tokens!, expiresAt: Date.now() - 1_000 } });
    const again = await McpClient.connect({ url: server.url, auth }, { name: 'protected', connectTimeoutMs: 20_000 });
    clients.push(again);
    expect(await again.listTools()).toHaveLength(1);
    expect(logins).toHaveLength(2);
  }, 180_000);
});
