/**
 * `mcpwire auth` without a browser, against real HTTP servers on loopback and real files: the
 * help, the usage errors, `auth status` read from the store (`--store DIR` or `$HOME`) in each
 * state and never with a token, `auth logout` saying what it removed, a stored login used by any
 * command, and a command meeting a server that wants a login exiting 3 with the login command
 * (none for `oauth: false`, which never logs in).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FileTokenStore } from '../src/auth/file-token-store.js';
import { requireBuiltCli, runCli } from './support/cli.js';
import { json, legacyServer, startHttpFixture, type HttpFixture } from './support/http-fixture.js';

const TOKEN = 'cli-stored-access-token-91b2';
const REFRESH = 'cli-stored-refresh-token-5d0e';

let server: HttpFixture;
let root: string;
let home: string;
let store: string;

beforeAll(async () => {
  requireBuiltCli();
  const mcp = legacyServer({ sessions: false });
  server = await startHttpFixture(async (seen, res, req) => {
    if (!seen.path.startsWith('/mcp')) return false; // no OAuth metadata: discovery finds none
    if (req.headers.authorization !== `Bearer ${TOKEN}`)
      return json(res, { error: 'invalid_token' }, 401, { 'www-authenticate': 'Bearer error="invalid_token"' });
    return mcp(seen, res, req);
  });
});
afterAll(async () => {
  await server?.close();
});
beforeEach(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'mcpwire-cli-auth-'));
  home = path.join(root, 'home');
  store = path.join(root, 'logins');
  mkdirSync(path.join(home, '.mcpwire'), { recursive: true });
  writeFileSync(
    path.join(home, '.mcpwire', 'config.json'),
    JSON.stringify({
      mcpServers: {
        hosted: { url: server.url },
        off: { url: server.url.replace('/mcp', '/mcp/off'), oauth: false },
        fs: { command: 'fs-server' },
      },
    }),
  );
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const env = () => ({ HOME: home, BROWSER: path.join(root, 'no-such-browser') });

describe('mcpwire auth', () => {
  it('has help: mcpwire help auth and auth --help', async () => {
    for (const args of [
      ['help', 'auth'],
      ['auth', '--help'],
    ]) {
      const run = await runCli(args, { env: env() });
      expect(run.code).toBe(0);
      expect(run.stdout).toContain('mcpwire auth login NAME | --url URL');
      expect(run.stdout).toContain('mcpwire auth logout NAME | --url URL');
    }
    expect((await runCli(['--help'])).stdout).toMatch(/auth login\|status\|logout/);
  });

  it('refuses what it cannot do with usage or config errors that say why', async () => {
    const none = await runCli(['auth'], { env: env() });
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('auth needs a sub-command: login, status or logout');
    const noServer = await runCli(['auth', 'login'], { env: env() });
    expect(noServer.code).toBe(1);
    expect(noServer.stderr).toContain('needs one server: NAME (from your config) or --url URL');
    const stdio = await runCli(['auth', 'login', 'fs'], { env: env() });
    expect(stdio.code).toBe(1);
    expect(stdio.stderr).toContain('server "fs" is a stdio server: it has no OAuth login');
    const off = await runCli(['auth', 'login', 'off'], { env: env() });
    expect(off.code).toBe(2);
    expect(off.stderr).toMatch(/server "off" has "oauth": false in .*config\.json: mcpwire never logs in to it/);
    const unknown = await runCli(['auth', 'logout', 'nope'], { env: env() });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('server "nope" is not configured');
  });

  it('status reads each URL server’s login from the store, in every state, and never prints a token', async () => {
    const logins = new FileTokenStore({ dir: store });
    const discovery = { resource: server.url, authorizationServer: { issuer: 'https://login.example.com' } };
    await logins.set(server.url, {
      tokens: {
        accessToken: TOKEN,
        tokenType: 'Bearer',
        refreshToken: REFRESH,
        expiresAt: Date.now() + 3_600_000,
        scope: 'mcp:tools offline_access',
      },
      discovery,
    });

    const table = await runCli(['auth', 'status', '--store', store], { env: env() });
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toMatch(
      /^hosted\s+logged in\s+\d{4}-\d\d-\d\dT[\d:]+Z\s+mcp:tools offline_access\s+https:\/\/login\.example\.com$/m,
    );
    expect(table.stdout).toMatch(/^off\s+off \(oauth: false\)/m);
    expect(table.stdout).not.toMatch(/^fs\b/m); // stdio servers have no login

    await logins.set(server.url, {
      tokens: { accessToken: TOKEN, tokenType: 'Bearer', refreshToken: REFRESH, expiresAt: Date.now() - 1_000 },
      discovery,
    });
    const expired = await runCli(['auth', 'status', 'hosted', '--store', store, '--json'], { env: env() });
    expect(expired.json<{ result: { store: string; servers: unknown[] } }>().result).toEqual({
      store,
      servers: [
        {
          server: 'hosted',
          url: server.url,
          oauth: true,
          state: 'expired',
          refreshable: true,
          expiresAt: expect.any(String),
          scopes: [],
          authorizationServer: 'https://login.example.com',
        },
      ],
    });
    expect((await runCli(['auth', 'status', 'hosted', '--store', store], { env: env() })).stdout).toContain(
      'expired (renews itself)',
    );

    // Without --store: $HOME/.mcpwire/oauth, where nothing is kept.
    const elsewhere = await runCli(['auth', 'status', '--url', server.url, '--json'], { env: env() });
    expect(elsewhere.json<{ result: { store: string; servers: Array<{ state: string }> } }>().result).toMatchObject({
      store: path.join(home, '.mcpwire', 'oauth'),
      servers: [{ state: 'not-logged-in' }],
    });

    for (const run of [table, expired, elsewhere])
      for (const secret of [TOKEN, REFRESH]) expect(run.stdout + run.stderr).not.toContain(secret);
  });

  it('a stored login is used by every command, and logout removes it and says so', async () => {
    const logins = new FileTokenStore({ dir: store });
    await logins.set(server.url, { tokens: { accessToken: TOKEN, tokenType: 'Bearer' } });
    const tools = await runCli(['tools', '--server', 'hosted', '--store', store], { env: env() });
    expect(tools.code, tools.stderr).toBe(0);
    expect(tools.stdout).toMatch(/^echo\b/m);

    const logout = await runCli(['auth', 'logout', 'hosted', '--store', store], { env: env() });
    expect(logout.code, logout.stderr).toBe(0);
    expect(logout.stdout).toBe(`Logged out of server "hosted": its stored login is removed from ${store}.\n`);
    expect(existsSync(logins.fileOf(server.url))).toBe(false);
    const again = await runCli(['auth', 'logout', '--url', server.url, '--store', store, '--json'], { env: env() });
    expect(again.code).toBe(0);
    expect(again.json<{ result: unknown }>().result).toEqual({
      server: new URL(server.url).host,
      url: server.url,
      removed: false,
      store,
    });
  });

  it('a command meeting a server that wants a login exits 3 and names the login command', async () => {
    const named = await runCli(['tools', '--server', 'hosted'], { env: env() });
    expect(named.code).toBe(3);
    expect(named.stderr).toMatch(/^error: .*; run: mcpwire auth login hosted\n$/);

    const byUrl = await runCli(['call', 'echo', '--url', server.url, '--json'], { env: env() });
    expect(byUrl.code).toBe(3);
    const error = byUrl.json<{ ok: boolean; error: { code: string; message: string; exitCode: number } }>().error;
    // The facts of the failure below stay (here: the OAuth step that needs a person), with the command.
    expect(error).toMatchObject({
      code: 'AUTH_REQUIRED',
      exitCode: 3,
      step: 'authorization',
      server: new URL(server.url).host,
      loginCommand: `mcpwire auth login --url ${server.url}`,
    });
    expect(error.message).toContain(`run: mcpwire auth login --url ${server.url}`);
  });

  it('a server with oauth: false that answers 401 exits 3 without offering a login', async () => {
    const run = await runCli(['tools', '--server', 'off'], { env: env() });
    expect(run.code).toBe(3);
    expect(run.stderr).toContain('HTTP 401');
    expect(run.stderr).not.toContain('mcpwire auth login');
  });

  it("config show and a failing command never print the oauth block's secret", async () => {
    const secret = 'oauth-secret-from-the-environment-3c1';
    const config = path.join(root, 'hosted.json');
    writeFileSync(
      config,
      JSON.stringify({
        mcpServers: {
          vault: {
            url: server.url,
            oauth: { clientId: 'mcpwire-cli', clientSecret: '${VAULT_SECRET}', scopes: ['read'] },
          },
        },
      }),
    );
    const show = await runCli(['config', 'show', '--server', 'vault', '--config', config], {
      env: { ...env(), VAULT_SECRET: secret },
    });
    expect(show.code, show.stderr).toBe(0);
    expect(show.stdout).toContain('"clientSecret": "***"');
    expect(show.stdout).toContain('"clientId": "mcpwire-cli"');
    const json = await runCli(['config', 'show', '--server', 'vault', '--config', config, '--json'], {
      env: { ...env(), VAULT_SECRET: secret },
    });
    const tools = await runCli(['tools', '--server', 'vault', '--config', config, '--json'], {
      env: { ...env(), VAULT_SECRET: secret },
    });
    expect(tools.code).toBe(3);
    for (const run of [show, json, tools]) expect(run.stdout + run.stderr).not.toContain(secret);
  });

  it('login to a server that never asks says so and stores nothing', async () => {
    const open = await startHttpFixture(legacyServer({ sessions: false }));
    try {
      const run = await runCli(['auth', 'login', '--url', open.url, '--store', store, '--json'], { env: env() });
      expect(run.code, run.stderr).toBe(0);
      expect(run.json<{ result: Record<string, unknown> }>().result).toMatchObject({
        loggedIn: false,
        state: 'not-logged-in',
      });
      const text = await runCli(['auth', 'login', '--url', open.url, '--store', store], { env: env() });
      expect(text.stdout).toBe(
        `Server "${new URL(open.url).host}" (${open.url}) did not ask for a login: nothing was stored.\n`,
      );
      expect(existsSync(store)).toBe(false);
    } finally {
      await open.close();
    }
  });
});
