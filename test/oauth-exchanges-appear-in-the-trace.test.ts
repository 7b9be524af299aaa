/**
 * `--trace` / `ClientOptions.trace` shows the OAuth exchanges of a login beside the MCP traffic:
 * one `oauth-exchange` event per HTTP exchange (method, URL, status, duration), never a header or
 * a body, so no code, verifier, secret or token.
 */
import { describe, expect, it } from 'vitest';
import { MemoryTokenStore } from '../src/auth/token-store.js';
import { McpClient } from '../src/client/mcp-client.js';
import type { TraceRecord } from '../src/observe/trace-record.js';
import { approveWithCode, startScriptedOAuth } from './support/scripted-oauth.js';

describe('the trace of a login', () => {
  it('records each OAuth exchange with its URL and status, and no credential', async () => {
    const fixture = await startScriptedOAuth();
    const records: TraceRecord[] = [];
    const origin = `http://127.0.0.1:${fixture.port}`;
    // The scripted token endpoint refuses the code: the login gets through discovery, registration, the callback and
    // the token request.
    await McpClient.connect(
      {
        url: fixture.url,
        auth: {
          store: new MemoryTokenStore(),
          onAuthorizationUrl: (url) => approveWithCode(url, 'the-secret-code'),
        },
      },
      { name: 'traced', trace: { sink: (record) => records.push(record) } },
    ).catch(() => undefined);
    const exchanges = records
      .filter((r) => r.kind === 'event' && (r as { event?: string }).event === 'oauth-exchange')
      .map((r) => (r as { detail?: Record<string, unknown> }).detail!);
    expect(exchanges.map((e) => [e.method, e.url, e.status])).toEqual([
      ['GET', `${origin}/.well-known/oauth-protected-resource/mcp`, 200],
      ['GET', `${origin}/.well-known/oauth-authorization-server`, 200],
      ['POST', `${origin}/register`, 201],
      ['POST', `${origin}/token`, 400],
    ]);
    expect(JSON.stringify(records)).not.toContain('the-secret-code');
  });
});
