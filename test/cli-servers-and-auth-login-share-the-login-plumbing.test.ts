/**
 * The CLI's manager commands and `mcpwire auth login` share the login plumbing: `mcpwire servers
 * --store DIR` connects with the login `auth login --store DIR` kept (same store, same browser
 * hook for `/mcp auth`), and a server authorized by a `headersHelper` is never sent to
 * `mcpwire auth login` when its credentials are refused. Real child processes (the built CLI),
 * real HTTP servers on 127.0.0.1, real files; the "browser" is a script that fetches the URL
 * from an authorization server that approves at once.
 */
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startAutoApprovingOAuth, type AutoApprovingOAuth } from './support/auto-approving-oauth.js';
import { requireBuiltCli, runCli } from './support/cli.js';
import { startHeaderProtectedServer, type HeaderProtectedServer } from './support/header-protected-server.js';
import { endAll } from './support/end-all.js';

let server: AutoApprovingOAuth | HeaderProtectedServer | undefined;
let root: string | undefined;
beforeAll(() => requireBuiltCli());
afterEach(async () => {
  [server] = await endAll([server, 'close']);
  if (root) rmSync(root, { recursive: true, force: true });
  root = undefined;
});

/** A temp root with an empty `$HOME`, a config file of `servers`, and a browser that clicks "allow". */
function setUp(servers: Record<string, unknown>): { config: string; store: string; env: Record<string, string> } {
  root = mkdtempSync(path.join(os.tmpdir(), 'mcpwire-cli-login-plumbing-'));
  const home = path.join(root, 'home');
  mkdirSync(home);
  const config = path.join(root, 'mcp.json');
  writeFileSync(config, JSON.stringify({ mcpServers: servers }));
  const browser = path.join(root, 'browser.mjs');
  writeFileSync(browser, `#!/usr/bin/env node\nconst answer = await fetch(process.argv[2]);\nawait answer.text();\n`);
  chmodSync(browser, 0o755);
  return { config, store: path.join(root, 'logins'), env: { HOME: home, BROWSER: browser } };
}

describe('the CLI manager and auth login share the login plumbing', () => {
  it('mcpwire servers --store DIR connects with the login that auth login --store DIR kept', async () => {
    const oauth = await startAutoApprovingOAuth();
    server = oauth;
    const { config, store, env } = setUp({ tracker: { url: oauth.url } });
    const login = await runCli(['auth', 'login', 'tracker', '--config', config, '--store', store], { env });
    expect(login.code, login.stderr).toBe(0);
    expect(oauth.issued).toHaveLength(1);
    const servers = await runCli(['servers', '--config', config, '--store', store, '--json'], { env });
    expect(servers.code, servers.stderr).toBe(0);
    const status = servers.json<{ result: { servers: { name: string; status: string; toolCount: number }[] } }>()
      .result;
    expect(status.servers.find((s) => s.name === 'tracker')).toMatchObject({ status: 'connected', toolCount: 1 });
    // The stored login answered: no second login.
    expect(oauth.issued).toHaveLength(1);
  });

  it('a server whose headersHelper credentials are refused exits 3 saying so, without naming auth login', async () => {
    const guarded = await startHeaderProtectedServer('Bearer the-right-key');
    server = guarded;
    const { config, env } = setUp({
      keyed: { url: guarded.url, headersHelper: 'echo "Authorization: Bearer a-wrong-key"' },
    });
    const run = await runCli(['tools', '--server', 'keyed', '--config', config], { env });
    expect(run.code, run.stderr).toBe(3);
    expect(run.stderr).toContain('server "keyed": the credentials its headersHelper printed were refused (HTTP 401');
    expect(run.stderr).not.toContain('auth login');
    expect(run.stderr).not.toContain('a-wrong-key');
  });
});
