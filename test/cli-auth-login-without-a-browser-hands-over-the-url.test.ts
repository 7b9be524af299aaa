/**
 * `mcpwire auth login NAME --no-browser` for scripts, CI and remote terminals, with real parts:
 * oidc-provider on loopback approving every authorization at once, a protected MCP server that
 * checks its JWTs, the built CLI as a child process, and the test as the user agent (it follows
 * the authorization URL's redirects to the CLI's loopback receiver). With `--json` the URL comes
 * as one line before the wait; the login is stored and `--stored-auth-only` then works; a fixed
 * `--callback-port` is used or refused by name; `--timeout` bounds the wait and Ctrl-C ends it,
 * closing the receiver either way. No browser is ever opened.
 */
import { chmodSync, existsSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { requireBuiltCli, runCli, startCli } from './support/cli.js';
import { startHostedLogins, userApprovesByHttp, type HostedLogins } from './support/oauth-servers.js';
import { freePort } from './support/ports.js';
import { killAtTestEnd } from './support/processes.js';

let busy: Server | undefined;

beforeAll(() => requireBuiltCli());
afterEach(async () => {
  await new Promise((resolve) => (busy ? busy.close(resolve) : resolve(undefined)));
  busy = undefined;
});

/** The hosted server's parts, with a $BROWSER that leaves a mark when it is run. */
async function setUp(): Promise<HostedLogins & { opened: string }> {
  const hosted = await startHostedLogins();
  const opened = path.join(hosted.root, 'browser-was-opened');
  const browser = path.join(hosted.root, 'browser.sh');
  writeFileSync(browser, `#!/bin/sh\ntouch '${opened}'\n`);
  chmodSync(browser, 0o755);
  return { ...hosted, env: { ...hosted.env, BROWSER: browser }, opened };
}

/** The first stdout line of a `--no-browser --json` login, parsed. */
async function urlLine(login: ReturnType<typeof startCli>): Promise<{ authorizationUrl: string; redirectUri: string }> {
  const stdout = await login.until('stdout', (text) => text.includes('\n'), 'the authorization URL line');
  return JSON.parse(stdout.slice(0, stdout.indexOf('\n'))) as { authorizationUrl: string; redirectUri: string };
}

/** Resolves with the connect error's code (`ECONNREFUSED` once nothing listens on `url`'s port). */
function connectError(url: string): Promise<string | undefined> {
  return fetch(url, { signal: AbortSignal.timeout(10_000) }).then(
    async (answer) => (await answer.body?.cancel(), undefined),
    (error: unknown) => (error as { cause?: { code?: string } }).cause?.code ?? String(error),
  );
}

describe('mcpwire auth login --no-browser', () => {
  it('prints the URL as one JSON line before waiting, stores the login, and --stored-auth-only then works', async () => {
    const { as, env, store, opened, mcp } = await setUp();
    const port = await freePort();
    const login = startCli(['auth', 'login', 'hosted', '--no-browser', '--json', '--callback-port', String(port)], {
      env,
      timeoutMs: 60_000,
    });
    killAtTestEnd(login.pid);
    const line = await urlLine(login);
    expect(Object.keys(line)).toEqual(['authorizationUrl', 'redirectUri']);
    expect(line.redirectUri).toBe(`http://127.0.0.1:${port}/callback`);
    const url = new URL(line.authorizationUrl);
    expect(url.origin).toBe(as.issuer);
    expect(url.searchParams.get('redirect_uri')).toBe(line.redirectUri);
    expect(url.searchParams.get('resource')).toBe(mcp.url);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');

    const page = await userApprovesByHttp(url);
    expect(page.status).toBe(200);
    expect(page.text).toContain('mcpwire received the login');
    const ended = await login.done;
    expect(ended.code, ended.stderr).toBe(0);
    const lines = ended.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(JSON.parse(lines[1]!)).toMatchObject({ ok: true, result: { server: 'hosted', loggedIn: true } });
    const stored = await store.get(mcp.url);
    expect(stored?.tokens?.refreshToken).toBeTruthy();
    expect(stored?.client?.redirectUris).toEqual([line.redirectUri]);
    // The receiver is gone with the login.
    expect(await connectError(line.redirectUri)).toBe('ECONNREFUSED');

    const tools = await runCli(['tools', '--server', 'hosted', '--stored-auth-only', '--json'], { env });
    expect(tools.code, tools.stderr).toBe(0);
    expect(tools.json<{ result: Array<{ name: string }> }>().result.map((t) => t.name)).toEqual(['echo']);
    const servers = await runCli(['servers', '--stored-auth-only', '--json'], { env });
    expect(servers.code, servers.stderr).toBe(0);
    expect(existsSync(opened)).toBe(false);
    for (const run of [ended, tools, servers])
      expect(run.stdout + run.stderr).not.toContain(stored!.tokens!.accessToken);
  });

  it('in text form hands the URL over on stderr with where and how long it waits', async () => {
    const { env, opened } = await setUp();
    const login = startCli(['auth', 'login', 'hosted', '--no-browser'], { env, timeoutMs: 60_000 });
    killAtTestEnd(login.pid);
    const printed = await login.until('stderr', (text) => /^Waiting up to/m.test(text), 'the authorization URL');
    const url = /^ {2}(http:\/\/\S+)$/m.exec(printed)![1]!;
    expect(login.stderr).toMatch(/Waiting up to 300 s for the callback on http:\/\/127\.0\.0\.1:\d+\/callback/);
    await userApprovesByHttp(url);
    const ended = await login.done;
    expect(ended.code, ended.stderr).toBe(0);
    expect(ended.stdout).toContain('Logged in to server "hosted"');
    expect(existsSync(opened)).toBe(false);
  });

  it('a fixed --callback-port that is in use fails at once, naming the port, with no URL printed', async () => {
    const { env } = await setUp();
    busy = createServer();
    await new Promise<void>((resolve) => busy!.listen(0, '127.0.0.1', resolve));
    const port = (busy.address() as { port: number }).port;
    const run = await runCli(['auth', 'login', 'hosted', '--no-browser', '--json', '--callback-port', String(port)], {
      env,
    });
    expect(run.code).toBe(3);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(1); // the error envelope only: no authorization URL
    expect(JSON.parse(lines[0]!).error.message).toContain(
      `could not listen on 127.0.0.1:${port} for the login callback (the fixed callback port): it is in use`,
    );
    const usage = await runCli(['auth', 'login', 'hosted', '--callback-port', '70000'], { env });
    expect(usage.code).toBe(1);
    expect(usage.stderr).toContain('--callback-port needs a port number from 1 to 65535');
  });

  it('--timeout bounds the wait for the callback, and the receiver closes', async () => {
    const { env, store, mcp } = await setUp();
    const login = startCli(['auth', 'login', 'hosted', '--no-browser', '--json', '--timeout', '1500'], { env });
    killAtTestEnd(login.pid);
    const line = await urlLine(login);
    const ended = await login.done;
    expect(ended.code).toBe(3);
    expect(ended.stdout).toContain('no login callback arrived within 1500 ms');
    expect(await connectError(line.redirectUri)).toBe('ECONNREFUSED');
    expect(await store.get(mcp.url).then((login) => login?.tokens)).toBeUndefined();
  });

  it('Ctrl-C (SIGINT) ends the wait with 130 and closes the receiver', async () => {
    const { env } = await setUp();
    const login = startCli(['auth', 'login', 'hosted', '--no-browser', '--json'], { env });
    killAtTestEnd(login.pid);
    const line = await urlLine(login);
    login.kill('SIGINT');
    const ended = await login.done;
    expect(ended.code).toBe(130);
    expect(await connectError(line.redirectUri)).toBe('ECONNREFUSED');
  });

  it('refuses --stored-auth-only, which forbids the login it would start', async () => {
    const { env } = await setUp();
    const run = await runCli(['auth', 'login', 'hosted', '--no-browser', '--stored-auth-only'], { env });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('auth login starts a login, which --stored-auth-only forbids');
  });
});
