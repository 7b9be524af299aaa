/**
 * `--stored-auth-only`, the CI switch, on every command with real parts: oidc-provider on
 * loopback, a protected MCP server checking its JWTs, the built CLI. Without a stored login a
 * one-shot command, `servers` and `repl` exit 3 at once naming the server and `mcpwire auth login
 * NAME`, having started no login (nothing registered or stored, no question on a terminal, no
 * process left); with a stored login whose access token expired, the stored refresh token renews
 * it and the command works, and a refresh token the provider refuses is exit 3 again.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { CLI, requireBuiltCli, runCli } from './support/cli.js';
import { logInByHttp, startHostedLogins } from './support/oauth-servers.js';
import { requireTmux, useTerminals, type Terminal } from './support/tmux.js';
import { eventually } from './support/wait.js';

let terminal: Terminal | undefined;

beforeAll(requireBuiltCli);
beforeAll(requireTmux);
const terminals = useTerminals();

const HINT = 'server "hosted" needs a login and has no stored login that works';

describe('--stored-auth-only', () => {
  it('without a stored login, a command exits 3 naming the server and its login command, having started no login', async () => {
    const { as, env, store } = await startHostedLogins();
    const tools = await runCli(['tools', '--server', 'hosted', '--stored-auth-only'], { env });
    expect(tools.code).toBe(3);
    expect(tools.stderr).toMatch(
      /^error: server "hosted" needs a login and has no stored login that works \(after HTTP 401 .*\); run: mcpwire auth login hosted\n$/,
    );
    const call = await runCli(['call', 'echo', '--server', 'hosted', '--stored-auth-only', '--json'], { env });
    expect(call.code).toBe(3);
    expect(call.json<{ error: Record<string, unknown> }>().error).toMatchObject({
      code: 'AUTH_REQUIRED',
      exitCode: 3,
      loginCommand: 'mcpwire auth login hosted',
    });
    // No client was registered and nothing was kept: the login never began.
    expect(existsSync(store.dir)).toBe(false);
    expect(as.grants).toEqual([]);
  });

  it('on a terminal it asks nothing: exit 3 at once, where the same command without it offers the login', async () => {
    const { env, root } = await startHostedLogins();
    const status = path.join(root, 'status');
    const script = `"$0" "$@"; echo $? > '${status}'`;
    terminal = terminals.start(
      ['sh', '-c', script, process.execPath, CLI, 'tools', '--server', 'hosted', '--stored-auth-only'],
      env,
    );
    const screen = await terminal.waitFor('run: mcpwire auth login hosted', 30_000);
    expect(screen).not.toContain('Log in now');
    const code = await eventually(
      () => (existsSync(status) ? readFileSync(status, 'utf8').trim() || undefined : undefined),
      {
        what: 'the exit status',
      },
    );
    expect(code).toBe('3');
    terminal.kill();
    // The control: without the switch, the terminal is offered a login.
    terminal = terminals.start([process.execPath, CLI, 'tools', '--server', 'hosted'], env);
    await terminal.waitFor('server "hosted" needs a login. Log in now in a browser? [y/N]', 30_000);
  });

  it('servers prints every server, then exits 3 naming those without a login; repl exits 3 before its prompt', async () => {
    const { env, mcp } = await startHostedLogins();
    // Refused too, but a login would not help: it is not named.
    const config = path.join(env.HOME!, '.mcpwire', 'config.json');
    writeFileSync(
      config,
      JSON.stringify({ mcpServers: { hosted: { url: mcp.url }, off: { url: mcp.url, oauth: false } } }),
    );
    const text = await runCli(['servers', '--stored-auth-only'], { env });
    expect(text.code).toBe(3);
    expect(text.stdout).toMatch(/^hosted\s+needs-auth\s+http/m);
    expect(text.stdout).toMatch(/^off\s+needs-auth\s+http/m);
    expect(text.stderr).toBe(`error: ${HINT} (--stored-auth-only starts none); run: mcpwire auth login hosted\n`);
    const json = await runCli(['servers', '--stored-auth-only', '--json'], { env });
    expect(json.code).toBe(3);
    const error = json.json<{ ok: boolean; error: Record<string, unknown> }>().error;
    expect(error).toMatchObject({ code: 'AUTH_REQUIRED', exitCode: 3, loginCommand: 'mcpwire auth login hosted' });
    expect((error.result as { servers: Array<{ name: string; status: string }> }).servers).toEqual([
      expect.objectContaining({ name: 'hosted', status: 'needs-auth' }),
      expect.objectContaining({ name: 'off', status: 'needs-auth' }),
    ]);
    const repl = await runCli(['repl', '--stored-auth-only'], { env, input: 'exit\n' });
    expect(repl.code).toBe(3);
    expect(repl.stderr).toContain(`${HINT} (--stored-auth-only starts none); run: mcpwire auth login hosted`);
    // Without the switch, servers reports the same state and exits 0 (a listing).
    expect((await runCli(['servers'], { env })).code).toBe(0);
  }, 120_000);

  it('an expired stored login is renewed with its refresh token; once the provider refuses that, exit 3', async () => {
    const { as, env, store, mcp } = await startHostedLogins();
    const login = await logInByHttp(mcp.url, store);
    await store.set(mcp.url, { ...login, tokens: { ...login.tokens!, expiresAt: Date.now() - 1_000 } });
    const before = as.grants.length;
    const tools = await runCli(['tools', '--server', 'hosted', '--stored-auth-only', '--json'], { env });
    expect(tools.code, tools.stderr).toBe(0);
    expect(tools.json<{ result: Array<{ name: string }> }>().result.map((t) => t.name)).toEqual(['echo']);
    expect(as.grants.slice(before)).toEqual([{ grantType: 'refresh_token', ok: true }]);
    const renewed = await store.get(mcp.url);
    expect(renewed?.tokens?.accessToken).not.toBe(login.tokens!.accessToken);
    expect(renewed!.tokens!.expiresAt!).toBeGreaterThan(Date.now());

    // A refresh token the provider no longer takes: exit 3 naming the login command, no login started.
    await as.revokeRefreshTokens();
    await store.set(mcp.url, { ...renewed!, tokens: { ...renewed!.tokens!, expiresAt: Date.now() - 1_000 } });
    const refused = await runCli(['tools', '--server', 'hosted', '--stored-auth-only'], { env });
    expect(refused.code).toBe(3);
    expect(refused.stderr).toMatch(/^error: .*; run: mcpwire auth login hosted\n$/);
    expect(as.grants.slice(before).map((g) => g.grantType)).toEqual(['refresh_token', 'refresh_token']);
  });
});
