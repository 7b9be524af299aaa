/**
 * A stored registration the authorization server no longer knows (`invalid_client` at the token
 * endpoint) is registered again once and the login repeated, not turned into a dead end; the
 * new registration replaces the old one in the store.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryTokenStore } from '../src/auth/token-store.js';
import { McpClient } from '../src/client/mcp-client.js';
import { json, legacyServer, startHttpFixture, type HttpFixture } from './support/http-fixture.js';
import { answerOAuthDiscovery, refuseWithChallenge } from './support/oauth-discovery.js';
import { freePort } from './support/ports.js';
import { approveWithCode } from './support/scripted-oauth.js';
import { closedAfterEach, endAll } from './support/end-all.js';
import { forgetHttpRoutesAfterEach } from './support/http-scene.js';

forgetHttpRoutesAfterEach();
let fixture: HttpFixture | undefined;
afterEach(async () => void ([fixture] = await endAll([fixture, 'close'])));
const clients = closedAfterEach<McpClient>();

/** A port nothing listens on right now (the login's preferred callback port). */

describe('a forgotten registration', () => {
  it('is registered again once, and the login goes through', async () => {
    let origin = '';
    let registered = 0;
    const forgotten = new Set<string>();
    const mcp = legacyServer({ sessions: false });
    fixture = await startHttpFixture((seen, res, req) => {
      if (answerOAuthDiscovery(origin, seen, res)) return true;
      const path = seen.path.split('?')[0];
      if (path === '/register')
        return json(res, { client_id: `client-${++registered}`, redirect_uris: seen.json?.redirect_uris ?? [] }, 201);
      if (path === '/token') {
        const clientId = new URLSearchParams(seen.body).get('client_id') ?? '';
        if (forgotten.has(clientId)) return json(res, { error: 'invalid_client' }, 401);
        return json(res, { access_token: `token-of-${clientId}`, token_type: 'Bearer', expires_in: 3600 });
      }
      if (path !== '/mcp') return false;
      if (!req.headers.authorization?.startsWith('Bearer token-of-')) return refuseWithChallenge(res, origin);
      return mcp(seen, res, req);
    });
    origin = `http://127.0.0.1:${fixture.port}`;
    const store = new MemoryTokenStore();
    const approvals: URL[] = [];
    const auth = {
      store,
      callbackPort: await freePort(),
      // The user approves at once: the callback carries a code and the state sent.
      onAuthorizationUrl: async (url: URL) => {
        approvals.push(url);
        await approveWithCode(url, `code-${approvals.length}`);
      },
    };
    clients.push(await McpClient.connect({ url: fixture.url, auth }, { name: 'forgetful' }));
    expect(registered).toBe(1);

    // The server forgets client-1; the stored tokens are gone too, so the next connect logs in.
    forgotten.add('client-1');
    const login = (await store.get(fixture.url))!;
    await store.set(fixture.url, { client: login.client!, discovery: login.discovery! });
    const again = await McpClient.connect({ url: fixture.url, auth }, { name: 'forgetful' });
    clients.push(again);
    expect(await again.listTools()).toHaveLength(1);
    expect(registered).toBe(2);
    expect(approvals.map((u) => u.searchParams.get('client_id'))).toEqual(['client-1', 'client-1', 'client-2']);
    expect((await store.get(fixture.url))?.client?.clientId).toBe('client-2');
  });
});
