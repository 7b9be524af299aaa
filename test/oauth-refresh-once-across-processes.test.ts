/**
 * Twelve processes sharing one login store refresh an expired login once: the built CLI, twelve
 * times at once (`call echo --stored-auth-only`, one `$HOME`), against oidc-provider on loopback
 * and a protected MCP server that checks its JWTs. The first process to take the store's refresh
 * lock redeems the refresh token; the others wait, read the store again and take its tokens.
 * The provider counts its token-endpoint grants: exactly one refresh, and twelve calls answer.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FileTokenStore } from '../src/auth/file-token-store.js';
import type { StoredLogin } from '../src/auth/token-store.js';
import { requireBuiltCli, runCli, type CliRun } from './support/cli.js';
import {
  logInByHttp,
  startAuthorizationServer,
  startProtectedServer,
  type AuthorizationServer,
  type ProtectedServer,
} from './support/oauth-servers.js';
import { until } from './support/wait.js';

const PROCESSES = 12;

let as: AuthorizationServer | undefined;
let server: ProtectedServer | undefined;
let root: string | undefined;

beforeAll(() => requireBuiltCli());
afterEach(async () => {
  await server?.close();
  await as?.close();
  server = as = undefined;
  if (root) rmSync(root, { recursive: true, force: true });
  root = undefined;
});

/**
 * A home whose config names the protected server "hosted" and whose store holds a login made
 * with 2-second access tokens, once that token has really expired (the provider's JWT `exp`
 * passed: the server refuses it). Tokens issued from then on live an hour.
 */
async function expiredLogin(): Promise<{
  env: Record<string, string>;
  store: FileTokenStore;
  login: StoredLogin;
  mcp: ProtectedServer;
}> {
  as = await startAuthorizationServer({ autoApprove: true, accessTokenTtl: 2 });
  server = await startProtectedServer(as.issuer);
  root = mkdtempSync(path.join(os.tmpdir(), 'mcpwire-refresh-race-'));
  const home = path.join(root, 'home');
  mkdirSync(path.join(home, '.mcpwire'), { recursive: true });
  writeFileSync(
    path.join(home, '.mcpwire', 'config.json'),
    JSON.stringify({ mcpServers: { hosted: { url: server.url } } }),
  );
  const store = new FileTokenStore({ dir: path.join(home, '.mcpwire', 'oauth') });
  const login = await logInByHttp(server.url, store);
  as.setAccessTokenTtl(3600);
  const expiresAt = login.tokens!.expiresAt!;
  // The JWT's `exp` is in whole seconds: a second more and the server refuses it for sure.
  await until(() => Date.now() > expiresAt + 1_000, { timeoutMs: 10_000, what: 'the access token to expire' });
  return { env: { HOME: home, BROWSER: path.join(root, 'no-such-browser') }, store, login, mcp: server };
}

/** `mcpwire call echo --arg text=call-<i>` in `PROCESSES` processes at once. */
function race(env: Record<string, string>): Promise<CliRun[]> {
  return Promise.all(
    Array.from({ length: PROCESSES }, (_, i) =>
      runCli(['call', 'echo', '--arg', `text=call-${i}`, '--server', 'hosted', '--stored-auth-only', '--json'], {
        env,
        timeoutMs: 120_000,
      }),
    ),
  );
}

function expectTwelveAnswers(runs: CliRun[]): void {
  runs.forEach((run, i) => {
    expect(run.code, run.stderr).toBe(0);
    expect(run.json<{ result: { content: Array<{ text: string }> } }>().result.content[0]!.text).toBe(`echo:call-${i}`);
  });
}

const refreshes = () => as!.grants.filter((g) => g.grantType === 'refresh_token');

describe('processes sharing a login store', () => {
  it('refresh a login known to be expired once: the others take the new tokens', async () => {
    const { env, store, login, mcp } = await expiredLogin();
    expect(refreshes()).toEqual([]);
    const runs = await race(env);
    expectTwelveAnswers(runs);
    expect(refreshes()).toEqual([{ grantType: 'refresh_token', ok: true }]);
    const renewed = (await store.get(mcp.url))!.tokens!;
    expect(renewed.accessToken).not.toBe(login.tokens!.accessToken);
    expect(renewed.expiresAt!).toBeGreaterThan(Date.now() + 60_000);
    // Every call carried a token the server took; the lock is gone and no temporary file is left.
    expect(mcp.authorized().filter((r) => r.rpc === 'tools/call')).toHaveLength(PROCESSES);
    expect(readdirSync(store.dir)).toEqual([path.basename(store.fileOf(mcp.url))]);
  }, 180_000);

  it('refresh once when all twelve meet the server’s 401 while the first refresh is still under way', async () => {
    const { env, store, login, mcp } = await expiredLogin();
    // The client's clock says the token is good for an hour (skew): each process sends it and is refused.
    await store.set(mcp.url, { ...login, tokens: { ...login.tokens!, expiresAt: Date.now() + 3_600_000 } });
    const refused = () => mcp.requests.filter((r) => r.path.startsWith('/mcp')).length - mcp.authorized().length;
    // The token endpoint answers nobody until every process has been refused: they all want a refresh at once.
    as!.holdTokenRequests(
      until(() => refused() >= PROCESSES, { timeoutMs: 90_000, what: 'twelve refused requests' }).catch(() => {}),
    );
    const runs = await race(env);
    expect(refused()).toBeGreaterThanOrEqual(PROCESSES);
    expectTwelveAnswers(runs);
    expect(refreshes()).toEqual([{ grantType: 'refresh_token', ok: true }]);
    expect((await store.get(mcp.url))!.tokens!.accessToken).not.toBe(login.tokens!.accessToken);
  }, 180_000);
});
