/**
 * A caller who aborts a connect while its OAuth login waits for the user gets `CANCELLED` (the
 * signal's reason as the cause), like an abort of any other step of a connect, and the login's
 * callback receiver is closed.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryTokenStore } from '../src/auth/token-store.js';
import { McpClient } from '../src/client/mcp-client.js';
import { McpError } from '../src/protocol/errors.js';
import { startAutoApprovingOAuth, type AutoApprovingOAuth } from './support/auto-approving-oauth.js';
import { eventually } from './support/wait.js';
import { endAll } from './support/end-all.js';
import { forgetHttpRoutesAfterEach } from './support/http-scene.js';

let server: AutoApprovingOAuth | undefined;
forgetHttpRoutesAfterEach();
afterEach(async () => void ([server] = await endAll([server, 'close'])));

describe('a connect aborted during its OAuth login', () => {
  it('rejects with CANCELLED whose cause is the signal reason, and closes the callback receiver', async () => {
    server = await startAutoApprovingOAuth();
    const shown: { url?: URL } = {};
    const controller = new AbortController();
    const connecting = McpClient.connect(
      { url: server.url, auth: { store: new MemoryTokenStore(), onAuthorizationUrl: (url) => void (shown.url = url) } },
      { name: 'tracker', signal: controller.signal },
    ).catch((e: unknown) => e);
    const url = await eventually(() => shown.url);
    const reason = new Error('the user walked away');
    controller.abort(reason);
    const error = await connecting;
    expect(error).toBeInstanceOf(McpError);
    expect(error).toMatchObject({ code: 'CANCELLED', server: 'tracker' });
    expect((error as Error).cause).toBe(reason);
    const redirect = new URL(url.searchParams.get('redirect_uri')!);
    const reached = await fetch(redirect).then(
      () => 'answered',
      (e: { cause?: { code?: string } }) => e.cause?.code,
    );
    expect(reached).toBe('ECONNREFUSED');
  });
});
