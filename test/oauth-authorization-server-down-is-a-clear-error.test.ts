/**
 * The authorization server the metadata names does not answer (nothing listens there): the
 * connect fails with `AUTH_REQUIRED` at the discovery step, naming the server and the URL it
 * could not fetch, and no browser is involved.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { OAuthError } from '../src/auth/auth-error.js';
import { MemoryTokenStore } from '../src/auth/token-store.js';
import { McpClient } from '../src/client/mcp-client.js';
import { json, startHttpFixture, type HttpFixture } from './support/http-fixture.js';
import { refuseWithChallenge } from './support/oauth-discovery.js';
import { freePort } from './support/ports.js';
import { endAll } from './support/end-all.js';
import { forgetHttpRoutesAfterEach } from './support/http-scene.js';

let fixture: HttpFixture | undefined;
forgetHttpRoutesAfterEach();
afterEach(async () => void ([fixture] = await endAll([fixture, 'close'])));

describe('an authorization server that is down', () => {
  it('fails the connect at discovery, naming the server and the metadata URL', async () => {
    // A port that was just free: the authorization server "is down".
    const downAt = `http://127.0.0.1:${await freePort()}`;
    let origin = '';
    fixture = await startHttpFixture((seen, res) => {
      if (seen.path === '/.well-known/oauth-protected-resource/mcp')
        return json(res, { resource: `${origin}/mcp`, authorization_servers: [downAt] });
      if (seen.path === '/mcp') return refuseWithChallenge(res, origin);
      return false;
    });
    origin = `http://127.0.0.1:${fixture.port}`;
    const opened: URL[] = [];
    const error = await McpClient.connect(
      { url: fixture.url, auth: { store: new MemoryTokenStore(), onAuthorizationUrl: (url) => void opened.push(url) } },
      { name: 'orphan' },
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OAuthError);
    expect((error as OAuthError).code).toBe('AUTH_REQUIRED');
    expect((error as OAuthError).step).toBe('discovery');
    expect((error as OAuthError).message).toContain(
      `server "orphan": could not fetch ${downAt}/.well-known/oauth-authorization-server`,
    );
    expect(opened).toHaveLength(0);
  });
});
