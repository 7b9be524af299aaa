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
import { failureOf } from './support/failure.js';
import { startHttpFixture, type HttpFixture, unauthorized } from './support/http-fixture.js';
import { endAll } from './support/end-all.js';
import { forgetHttpRoutesAfterEach } from './support/http-scene.js';

let fixture: HttpFixture | undefined;
forgetHttpRoutesAfterEach();
afterEach(async () => void ([fixture] = await endAll([fixture, 'close'])));

describe('a failed login after a 401', () => {
  it('keeps the server refusal (status, URL, challenge) on the OAuthError', async () => {
    fixture = await startHttpFixture((_seen, res) => {
      // Port 1 on loopback: nothing listens, so discovery fails at once.
      return unauthorized(
        res,
        'Bearer resource_metadata="http://127.0.0.1:1/.well-known/oauth-protected-resource", scope="tools:read"',
      );
    });
    const connecting = McpClient.connect(
      { url: fixture.url, auth: { store: new MemoryTokenStore() } },
      { name: 'guarded' },
    );
    const error = await failureOf(connecting, OAuthError, { step: 'discovery' });
    expect(error.refusal).toBeInstanceOf(HttpError);
    expect(error.refusal).toMatchObject({
      code: 'AUTH_REQUIRED',
      status: 401,
      url: fixture.url,
      challenge: [{ scheme: 'bearer', params: { scope: 'tools:read' } }],
    });
    expect(error.toJSON()).toMatchObject({ step: 'discovery', refusal: { status: 401 } });
  });
});
