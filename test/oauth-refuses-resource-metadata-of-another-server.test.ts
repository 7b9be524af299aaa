/**
 * RFC 9728 §3.3 / MCP "resource" validation: protected resource metadata that names another
 * server is refused before anything else happens (no authorization-server lookup, no
 * registration, no browser), with an error that names both.
 */
import { describe, expect, it } from 'vitest';
import { OAuthError } from '../src/auth/auth-error.js';
import { MemoryTokenStore } from '../src/auth/token-store.js';
import { McpClient } from '../src/client/mcp-client.js';
import { startScriptedOAuth } from './support/scripted-oauth.js';

describe('protected resource metadata of another server', () => {
  it('is refused before any authorization server is asked and before the browser', async () => {
    const fixture = await startScriptedOAuth({ metadataResource: () => 'https://evil.example.com/mcp' });
    const opened: URL[] = [];
    const error = await McpClient.connect(
      { url: fixture.url, auth: { store: new MemoryTokenStore(), onAuthorizationUrl: (url) => void opened.push(url) } },
      { name: 'victim' },
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OAuthError);
    expect((error as OAuthError).step).toBe('discovery');
    expect((error as OAuthError).message).toContain('is for https://evil.example.com/mcp, not for');
    expect(opened).toHaveLength(0);
    expect(fixture.requests.map((r) => r.path.split('?')[0])).not.toContain('/.well-known/oauth-authorization-server');
    expect(fixture.requests.map((r) => r.path)).not.toContain('/register');
  });

  it('accepts metadata whose resource is a parent of the server URL on the same origin', async () => {
    const fixture = await startScriptedOAuth({ metadataResource: (origin) => origin });
    const opened: URL[] = [];
    // The login gets as far as the browser step (which then times out): the metadata was accepted.
    const error = await McpClient.connect(
      {
        url: fixture.url,
        auth: {
          store: new MemoryTokenStore(),
          loginTimeoutMs: 200,
          onAuthorizationUrl: (url) => void opened.push(url),
        },
      },
      { name: 'victim' },
    ).catch((e: unknown) => e);
    expect((error as OAuthError).step).toBe('callback');
    expect(opened).toHaveLength(1);
    expect(opened[0]!.searchParams.get('resource')).toBe(`http://127.0.0.1:${fixture.port}`);
  });
});
