/**
 * Authorization-server endpoints are HTTPS except on loopback (MCP authorization, "Communication
 * Security"): a 2025-03-26 server over plain HTTP on another host, which would be its own
 * authorization server, is refused before any code or verifier could go there; so is metadata
 * that names a plain-HTTP authorization server. Discovery's HTTP is the function given to it,
 * here one that answers like the network would.
 */
import { describe, expect, it } from 'vitest';
import { OAuthError } from '../src/auth/auth-error.js';
import { discover } from '../src/auth/discovery.js';

const asked: string[] = [];
const network =
  (answers: Record<string, unknown>) =>
  async (url: string): Promise<Response> => {
    asked.push(url);
    const body = answers[url];
    return body === undefined
      ? new Response('not found', { status: 404 })
      : new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
  };

describe('authorization servers off loopback', () => {
  it('refuses a plain-HTTP 2025-03-26 server as its own authorization server', async () => {
    asked.length = 0;
    const error = await discover(
      { serverUrl: new URL('http://mcp.example.com/mcp'), serverName: 'plain', fetch: network({}) },
      undefined,
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OAuthError);
    expect((error as OAuthError).message).toContain(
      'http://mcp.example.com publishes no protected resource metadata and, as its own authorization server, is neither HTTPS nor on loopback',
    );
    expect(asked).not.toContain('http://mcp.example.com/.well-known/oauth-authorization-server');
  });

  it('refuses resource metadata that names a plain-HTTP authorization server', async () => {
    const prm = 'https://mcp.example.com/.well-known/oauth-protected-resource/mcp';
    const error = await discover(
      {
        serverUrl: new URL('https://mcp.example.com/mcp'),
        serverName: 'tls',
        fetch: network({
          [prm]: { resource: 'https://mcp.example.com/mcp', authorization_servers: ['http://login.example.com'] },
        }),
      },
      undefined,
    ).catch((e: unknown) => e);
    expect((error as OAuthError).message).toContain(
      'the authorization server http://login.example.com/ is neither HTTPS nor on loopback',
    );
  });
});
