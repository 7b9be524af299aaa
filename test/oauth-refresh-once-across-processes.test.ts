/**
 * Twelve processes sharing one login store refresh an expired login once: the built CLI, twelve
 * times at once (`call echo --stored-auth-only`, one `$HOME`), against oidc-provider on loopback
 * and a protected MCP server that checks its JWTs. The first process to take the store's refresh
 * lock redeems the refresh token; the others wait, read the store again and take its tokens.
 * The provider counts its token-endpoint grants: exactly one refresh, and twelve calls answer.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { StoredLogin } from '../src/auth/token-store.js';
import { requireBuiltCli, runCli, type CliRun } from './support/cli.js';
import {
  logInByHttp,
  startHostedLogins,
  type AuthorizationServer,
  type HostedLogins,
} from './support/oauth-servers.js';
import { until } from './support/wait.js';

const PROCESSES = 12;

beforeAll(() => requireBuiltCli());

/**
 * The hosted server's parts with a stored login made with 2-second access tokens, once that token
 * has really expired (the provider's JWT `exp` passed: the server refuses it). Tokens issued from
 * then on live an hour.
 */
async function expiredLogin(): Promise<HostedLogins & { login: StoredLogin }> {
  const hosted = await startHostedLogins({ accessTokenTtl: 2 });
  const login = await logInByHttp(hosted.mcp.url, hosted.store);
  hosted.as.setAccessTokenTtl(3600);
  const expiresAt = login.tokens!.expiresAt!;
  // The JWT's `exp` is in whole seconds: a second more and the server refuses it for sure.
  await until(() => Date.now() > expiresAt + 1_000, { timeoutMs: 10_000, what: 'the access token to expire' });
  return { ...hosted, login };
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

const refreshes = (as: AuthorizationServer) => as.grants.filter((g) => g.grantType === 'refresh_token');

describe('processes sharing a login store', () => {
  it('refresh a login known to be expired once: the others take the new tokens', async () => {
    const { as, env, store, login, mcp } = await expiredLogin();
    expect(refreshes(as)).toEqual([]);
    const runs = await race(env);
    expectTwelveAnswers(runs);
    expect(refreshes(as)).toEqual([{ grantType: 'refresh_token', ok: true }]);
    const renewed = (await store.get(mcp.url))!.tokens!;
    expect(renewed.accessToken).not.toBe(login.tokens!.accessToken);
    expect(renewed.expiresAt!).toBeGreaterThan(Date.now() + 60_000);
    // Every call carried a token the server took; the lock is gone and no temporary file is left.
    expect(mcp.authorized().filter((r) => r.rpc === 'tools/call')).toHaveLength(PROCESSES);
    expect(readdirSync(store.dir)).toEqual([path.basename(store.fileOf(mcp.url))]);
  }, 180_000);

  it('refresh once when all twelve meet the server’s 401 while the first refresh is still under way', async () => {
    const { as, env, store, login, mcp } = await expiredLogin();
    // The client's clock says the token is good for an hour (skew): each process sends it and is refused.
    await store.set(mcp.url, { ...login, tokens: { ...login.tokens!, expiresAt: Date.now() + 3_600_000 } });
    const refused = () => mcp.requests.filter((r) => r.path.startsWith('/mcp')).length - mcp.authorized().length;
    // The token endpoint answers nobody until every process has been refused: they all want a refresh at once.
    as.holdTokenRequests(
      until(() => refused() >= PROCESSES, { timeoutMs: 90_000, what: 'twelve refused requests' }).catch(() => {}),
    );
    const runs = await race(env);
    expect(refused()).toBeGreaterThanOrEqual(PROCESSES);
    expectTwelveAnswers(runs);
    expect(refreshes(as)).toEqual([{ grantType: 'refresh_token', ok: true }]);
    expect((await store.get(mcp.url))!.tokens!.accessToken).not.toBe(login.tokens!.accessToken);
  }, 180_000);
});
