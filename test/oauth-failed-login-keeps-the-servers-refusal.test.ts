/**
 * A login started by the server's 401 that fails (here: its resource metadata cannot be fetched)
 * rejects with the OAuthError of the failed step, and the server's refusal stays reachable as its
 * typed `refusal` (status, URL, parsed challenge). Real HTTP server on 127.0.0.1.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { OAuthError } from '../src/auth/auth-error.js';
import { MemoryTokenStore } from '../src/auth/token-store.js';
import { McpClient } from '../src/client/mcp-client.js';
import { HttpError } from '../src/protocol/errors.js';
import { startHttpFixture, type HttpFixture } from './support/http-fixture.js';
import { endAll } from './support/end-all.js';
import { forgetHttpRoutesAfterEach } from './support/http-scene.js';

let fixture: HttpFixture | undefined;
forgetHttpRoutesAfterEach();
afterEach(async () => void ([fixture] = await endAll([fixture, 'close'])));

describe('a failed login after a 401', () => {
  it('keeps the server refusal (status, URL, challenge) on the OAuthError', async () => {
    fixture = await startHttpFixture((_seen, res) => {
      // Port 1 on loopback: nothing listens, so discovery fails at once.
      res
        .writeHead(401, {
          'www-authenticate':
            'Bearer resource_metadata="http://127.0.0.1:1/.well-known/oauth-protected-resource", scope="tools:read"',
        })
        .end();
      return true;
    });
    const error = await McpClient.connect(
      { url: fixture.url, auth: { store: new MemoryTokenStore() } },
      { name: 'guarded' },
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OAuthError);
    expect((error as OAuthError).step).toBe('discovery');
    const refusal = (error as OAuthError).refusal;
    expect(refusal).toBeInstanceOf(HttpError);
    expect(refusal).toMatchObject({
      code: 'AUTH_REQUIRED',
      status: 401,
      url: fixture.url,
      challenge: [{ scheme: 'bearer', params: { scope: 'tools:read' } }],
    });
    expect((error as OAuthError).toJSON()).toMatchObject({ step: 'discovery', refusal: { status: 401 } });
  });
});
