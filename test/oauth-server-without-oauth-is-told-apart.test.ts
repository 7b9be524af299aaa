/**
 * A server that answers 401 but offers no OAuth login (an API-key server: no protected resource
 * metadata, no authorization server metadata) is told apart from a 2025-03-26 OAuth server: the
 * login stops before any browser, and the error says the server does not offer OAuth login and
 * to configure its credentials with headers or headersHelper. Real HTTP servers on 127.0.0.1.
 * (The 2025-03-26 default endpoints themselves are covered by the conformance suite's
 * `auth/2025-03-26-oauth-endpoint-fallback`.)
 */
import { afterEach, describe, expect, it } from 'vitest';
import { NotOAuthError } from '../src/auth/discovery.js';
import { MemoryTokenStore } from '../src/auth/token-store.js';
import { McpClient } from '../src/client/mcp-client.js';
import { startHeaderProtectedServer } from './support/header-protected-server.js';
import { json, legacyServer, startHttpFixture, type HttpFixture } from './support/http-fixture.js';
import { endAll } from './support/end-all.js';
import { forgetHttpRoutesAfterEach } from './support/http-scene.js';

let fixture: HttpFixture | undefined;
forgetHttpRoutesAfterEach();
afterEach(async () => void ([fixture] = await endAll([fixture, 'close'])));

/**
 * An MCP server at /mcp that wants `X-Api-Key`, refusing with 401 and `challenge` (or no header); every other path is
 * 404.
 */
async function apiKeyServer(challenge: string | undefined): Promise<HttpFixture> {
  const mcp = legacyServer();
  return startHttpFixture((seen, res, req) => {
    if (!seen.path.startsWith('/mcp')) return json(res, { message: 'not found' }, 404);
    if (req.headers['x-api-key'] === 'the-key') return mcp(seen, res, req);
    return json(
      res,
      { message: 'missing API key' },
      401,
      challenge === undefined ? {} : { 'www-authenticate': challenge },
    );
  });
}

async function loginRefused(url: string): Promise<{ error: unknown; shown: URL[] }> {
  const shown: URL[] = [];
  const error = await McpClient.connect(
    { url, auth: { store: new MemoryTokenStore(), onAuthorizationUrl: (u) => void shown.push(u) } },
    { name: 'keyed', connectTimeoutMs: 10_000 },
  ).catch((e: unknown) => e);
  return { error, shown };
}

function expectNotOAuth(error: unknown): void {
  expect(error).toBeInstanceOf(NotOAuthError);
  const message = (error as NotOAuthError).message;
  expect(message).toMatch(
    /^server "keyed": this server does not offer OAuth login \(no protected resource \/ authorization server metadata at /,
  );
  expect(message).toContain('/.well-known/oauth-protected-resource/mcp');
  expect(message).toContain('/.well-known/oauth-authorization-server');
  expect(message).toMatch(/configure its credentials with headers or headersHelper$/);
  expect((error as NotOAuthError).code).toBe('AUTH_REQUIRED');
}

describe('a 401 from a server that does not offer OAuth', () => {
  it('without a Bearer challenge, stops at discovery: no registration, no browser', async () => {
    fixture = await apiKeyServer(undefined);
    const { error, shown } = await loginRefused(`${fixture.url}`);
    expectNotOAuth(error);
    expect((error as NotOAuthError).message).toContain('named no Bearer challenge');
    expect(shown).toEqual([]);
    expect(fixture.requests.map((r) => r.path)).not.toContain('/register');
  });

  it('guarding its metadata URLs with 401 too, stops at discovery: no registration, no browser', async () => {
    fixture = await startHeaderProtectedServer('Bearer static-api-key');
    const { error, shown } = await loginRefused(fixture.url);
    expectNotOAuth(error);
    expect(shown).toEqual([]);
    expect(fixture.requests.map((r) => r.path)).not.toContain('/register');
  });

  it('with a Bearer challenge but no default registration endpoint, stops before the browser', async () => {
    fixture = await apiKeyServer('Bearer realm="api"');
    const { error, shown } = await loginRefused(`${fixture.url}`);
    expectNotOAuth(error);
    expect((error as NotOAuthError).message, (error as Error).message).toContain('/register answered HTTP 404');
    expect(shown).toEqual([]);
    expect(fixture.requests.map((r) => r.path)).not.toContain('/authorize');
  });
});
