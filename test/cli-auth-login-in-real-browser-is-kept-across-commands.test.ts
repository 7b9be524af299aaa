/**
 * The whole CLI login with real parts: oidc-provider on loopback, a protected MCP server that
 * checks the provider's JWTs, `mcpwire` as real child processes, `$BROWSER` a small script that
 * hands the authorization URL to the test, and chromium playing the user at the provider's login
 * and consent pages. `auth login NAME` exits 0 with the login in the store under `$HOME`; a new
 * `tools` process works without a browser; `auth status` shows the login and never a token;
 * `auth logout` removes it, and `tools` then exits 3 naming the login command.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FileTokenStore } from '../src/auth/file-token-store.js';
import { CLI, requireBuiltCli, runCli, type CliRun } from './support/cli.js';
import {
  launchBrowser,
  startAuthorizationServer,
  startProtectedServer,
  userLogsIn,
  type AuthorizationServer,
  type ProtectedServer,
} from './support/oauth-servers.js';
import { requireTmux, useTerminals, type Terminal } from './support/tmux.js';
import { eventually, until } from './support/wait.js';

describe('mcpwire auth login in a real browser', () => {
  let browser: Browser;
  let as: AuthorizationServer | undefined;
  let server: ProtectedServer | undefined;
  let root: string | undefined;
  const children: ChildProcess[] = [];
  let terminal: Terminal | undefined;

  beforeAll(async () => {
    requireBuiltCli();
    requireTmux();
    browser = await launchBrowser();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });
  afterEach(async () => {
    for (const child of children.splice(0))
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await server?.close();
    await as?.close();
    if (root) rmSync(root, { recursive: true, force: true });
  });
  const terminals = useTerminals();

  /** `mcpwire ARGS` as a child we can kill; `done` resolves when it ends (never rejects). */
  function startCli(args: string[], env: Record<string, string>): { done: Promise<Omit<CliRun, 'json'>> } {
    const child = spawn(process.execPath, [CLI, ...args], {
      env: { ...process.env, NO_COLOR: '1', ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    children.push(child);
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.stdin.on('error', () => {});
    child.stdin.end();
    return {
      done: new Promise((resolve) => child.once('close', (code, signal) => resolve({ code, signal, stdout, stderr }))),
    };
  }

  /**
   * The provider, the protected server, a home whose config names it "hosted", and a $BROWSER script writing the URL to
   * `urlFile`.
   */
  async function setUp(): Promise<{
    env: Record<string, string>;
    home: string;
    urlFile: string;
    mcp: ProtectedServer;
    issuer: string;
  }> {
    as = await startAuthorizationServer();
    server = await startProtectedServer(as.issuer);
    root = mkdtempSync(path.join(os.tmpdir(), 'mcpwire-cli-login-'));
    const home = path.join(root, 'home');
    mkdirSync(path.join(home, '.mcpwire'), { recursive: true });
    writeFileSync(
      path.join(home, '.mcpwire', 'config.json'),
      JSON.stringify({ mcpServers: { hosted: { url: server.url } } }),
    );
    // The "browser": writes the URL it is given where the test reads it (whole, by a rename).
    const urlFile = path.join(root, 'authorization-url');
    const opener = path.join(root, 'browser.sh');
    writeFileSync(opener, `#!/bin/sh\nprintf '%s' "$1" > '${urlFile}.tmp' && mv '${urlFile}.tmp' '${urlFile}'\n`);
    chmodSync(opener, 0o755);
    return { env: { HOME: home, BROWSER: opener }, home, urlFile, mcp: server, issuer: as.issuer };
  }

  const handedUrl = (urlFile: string) =>
    eventually(() => (existsSync(urlFile) ? new URL(readFileSync(urlFile, 'utf8')) : undefined), {
      timeoutMs: 60_000,
      what: 'the authorization URL handed to $BROWSER',
    });

  it('logs in, a new process lists the tools without a browser, status hides the token, logout makes tools exit 3', async () => {
    const { env, home, urlFile, mcp, issuer } = await setUp();
    const login = startCli(['auth', 'login', 'hosted'], env);
    const url = await handedUrl(urlFile);
    await userLogsIn(browser, url);
    const loggedIn = await login.done;
    expect(loggedIn.code, loggedIn.stderr).toBe(0);
    expect(loggedIn.stdout).toContain('Logged in to server "hosted"');
    // The URL is printed too, for a terminal whose browser is elsewhere.
    expect(loggedIn.stderr).toContain(url.toString());
    expect(url.searchParams.get('resource')).toBe(mcp.url);

    const stored = await new FileTokenStore({ dir: path.join(home, '.mcpwire', 'oauth') }).get(mcp.url);
    const accessToken = stored?.tokens?.accessToken;
    const refreshToken = stored?.tokens?.refreshToken;
    expect(accessToken).toBeTruthy();
    expect(refreshToken).toBeTruthy();
    rmSync(urlFile);

    const runs: CliRun[] = [loggedIn as CliRun];
    const tools = await runCli(['tools', '--server', 'hosted', '--json'], { env });
    runs.push(tools);
    expect(tools.code, tools.stderr).toBe(0);
    expect(tools.json<{ result: Array<{ name: string }> }>().result.map((t) => t.name)).toEqual(['echo']);
    expect(existsSync(urlFile)).toBe(false); // no browser

    const status = await runCli(['auth', 'status'], { env });
    runs.push(status);
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toMatch(/hosted\s+logged in/);
    expect(status.stdout).toContain(issuer);
    const statusJson = await runCli(['auth', 'status', 'hosted', '--json'], { env });
    runs.push(statusJson);
    const row = statusJson.json<{ result: { servers: Array<Record<string, unknown>> } }>().result.servers[0]!;
    expect(row).toMatchObject({
      server: 'hosted',
      state: 'logged-in',
      refreshable: true,
      authorizationServer: issuer,
      scopes: expect.arrayContaining(['mcp:tools']),
    });
    expect(Date.parse(String(row.expiresAt))).toBeGreaterThan(Date.now());

    const logout = await runCli(['auth', 'logout', 'hosted'], { env });
    runs.push(logout);
    expect(logout.code, logout.stderr).toBe(0);
    expect(logout.stdout).toMatch(/Logged out of server "hosted": its stored login is removed/);
    const after = await runCli(['tools', '--server', 'hosted'], { env });
    runs.push(after);
    expect(after.code, after.stderr).toBe(3);
    expect(after.stderr).toContain('run: mcpwire auth login hosted');
    expect(existsSync(urlFile)).toBe(false); // off a terminal, no browser is opened
    const afterStatus = await runCli(['auth', 'status', '--json'], { env });
    runs.push(afterStatus);
    expect(afterStatus.json<{ result: { servers: Array<Record<string, unknown>> } }>().result.servers[0]).toMatchObject(
      { server: 'hosted', state: 'not-logged-in' },
    );

    for (const run of runs) {
      for (const secret of [accessToken!, refreshToken!]) {
        expect(run.stdout).not.toContain(secret);
        expect(run.stderr).not.toContain(secret);
      }
    }
  }, 180_000);

  it('on a terminal, a command that meets a server without a login offers it, logs in and goes on', async () => {
    const { env, urlFile, mcp } = await setUp();
    terminal = terminals.start([process.execPath, CLI, 'tools', '--server', 'hosted'], env);
    await terminal.waitFor('server "hosted" needs a login. Log in now in a browser? [y/N]', 60_000);
    terminal.type('y');
    await userLogsIn(browser, await handedUrl(urlFile));
    const screen = await terminal.waitFor(/^echo\b/m, 60_000);
    expect(screen).toContain('If it does not open, visit:');
    await until(() => terminal!.exited(), { timeoutMs: 15_000, what: 'mcpwire tools to exit' });
    expect(mcp.authorized().length).toBeGreaterThan(0);
  }, 180_000);

  it('on a terminal, declining the login exits 3 naming the login command, and opens no browser', async () => {
    const { env, urlFile } = await setUp();
    const status = path.join(root!, 'status');
    terminal = terminals.start(
      ['sh', '-c', `"$0" "$@"; echo $? > '${status}'`, process.execPath, CLI, 'tools', '--server', 'hosted'],
      env,
    );
    await terminal.waitFor('Log in now in a browser? [y/N]', 60_000);
    terminal.type('n');
    const screen = await terminal.waitFor('run: mcpwire auth login hosted', 30_000);
    expect(screen).not.toContain('If it does not open, visit:');
    const code = await eventually(
      () => (existsSync(status) ? readFileSync(status, 'utf8').trim() || undefined : undefined),
      { what: 'the exit status' },
    );
    expect(code).toBe('3');
    expect(existsSync(urlFile)).toBe(false);
  }, 120_000);
});
