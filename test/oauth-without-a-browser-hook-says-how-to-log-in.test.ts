/**
 * No interactive login possible (no `onAuthorizationUrl`) and nothing stored: the connect fails
 * with `AUTH_REQUIRED` naming the server and saying what to do, before any client registration.
 */
import { describe, expect, it } from 'vitest';
import { OAuthError } from '../src/auth/auth-error.js';
import { MemoryTokenStore } from '../src/auth/token-store.js';
import { McpClient } from '../src/client/mcp-client.js';
import { failureOf } from './support/failure.js';
import { startScriptedOAuth } from './support/scripted-oauth.js';

describe('a protected server without an interactive login', () => {
  it('fails with AUTH_REQUIRED that names the server and says how to log in', async () => {
    const fixture = await startScriptedOAuth();
    const connecting = McpClient.connect(
      { url: fixture.url, auth: { store: new MemoryTokenStore() } },
      { name: 'tracker' },
    );
    const error = await failureOf(connecting, OAuthError, { code: 'AUTH_REQUIRED' });
    expect(error.message).toMatch(/^server "tracker": the server requires an OAuth login/);
    expect(error.message).toContain('give onAuthorizationUrl');
    expect(fixture.requests.map((r) => r.path)).not.toContain('/register');
  });
});
