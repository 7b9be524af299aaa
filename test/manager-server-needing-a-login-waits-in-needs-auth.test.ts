/**
 * A configured server that wants a login: a connect or a call meeting `AUTH_REQUIRED` puts it in
 * `needs-auth` (not `error`), the manager says so once with what to run (never a token), nothing
 * restarts it, the other servers carry on, and `/mcp auth NAME` logs in through the host's
 * `onAuthorizationUrl` hook and connects it. Real HTTP servers on 127.0.0.1; the user who
 * clicks "allow" is a fetch of the authorization URL (the server approves at once).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryTokenStore } from '../src/auth/token-store.js';
import { handleCommand } from '../src/manager/commands.js';
import { McpManager, type ManagerOptions, type NeedsAuthEvent } from '../src/manager/mcp-manager.js';
import type { StatusChange } from '../src/manager/servers/slot-state.js';
import { startAutoApprovingOAuth, type AutoApprovingOAuth } from './support/auto-approving-oauth.js';
import { startHeaderProtectedServer } from './support/header-protected-server.js';
import { legacyServer, startHttpFixture, type HttpFixture } from './support/http-fixture.js';
import { eventually } from './support/wait.js';
import { endAll } from './support/end-all.js';
import { forgetHttpRoutesAfterEach } from './support/http-scene.js';

forgetHttpRoutesAfterEach();
let manager: McpManager | undefined;
let protectedServer: AutoApprovingOAuth | undefined;
let plain: HttpFixture | undefined;
afterEach(
  async () =>
    void ([manager, protectedServer, plain] = await endAll(
      [manager, 'disconnectAll'],
      [protectedServer, 'close'],
      [plain, 'close'],
    )),
);

/** The user: follows the authorization URL, whose server redirects to mcpwire's receiver at once. */
async function userAllows(url: URL): Promise<void> {
  const answer = await fetch(url);
  await answer.text();
}

interface Setup {
  manager: McpManager;
  statuses: StatusChange[];
  needsAuth: NeedsAuthEvent[];
  shown: URL[];
  store: MemoryTokenStore;
}

async function setUp(options: Pick<ManagerOptions, 'onAuthorizationUrl'> = {}): Promise<Setup> {
  protectedServer = await startAutoApprovingOAuth();
  plain = await startHttpFixture(() => false, legacyServer());
  const store = new MemoryTokenStore();
  const shown: URL[] = [];
  const hook = options.onAuthorizationUrl;
  manager = McpManager.create({
    servers: [
      // Restarts would come at once: the test would see them.
      { name: 'tracker', transport: 'http', url: protectedServer.url, restart: { initialDelayMs: 1, maxRestarts: 5 } },
      { name: 'plain', transport: 'http', url: plain.url, oauth: false },
    ],
    tokenStore: store,
    ...(hook ? { onAuthorizationUrl: async (url, context) => (shown.push(url), hook(url, context)) } : {}),
  });
  const statuses: StatusChange[] = [];
  const needsAuth: NeedsAuthEvent[] = [];
  manager.on('status', (change) => statuses.push(change));
  manager.on('needsAuth', (event) => needsAuth.push(event));
  return { manager, statuses, needsAuth, shown, store };
}

describe('a server that needs a login', () => {
  it('waits in needs-auth after a 401 at connect, is not restarted, and never holds up the others', async () => {
    const { manager, statuses, needsAuth, shown } = await setUp({ onAuthorizationUrl: userAllows });
    const outcome = await manager.connectAll();
    const refusedPosts = (): number =>
      protectedServer!.requests.filter((r) => r.method === 'POST' && r.path === '/mcp').length;
    const refusedAfterConnect = refusedPosts();
    expect(outcome.connected).toEqual(['plain']);
    expect(outcome.failed.map((f) => [f.server, f.error.code])).toEqual([['tracker', 'AUTH_REQUIRED']]);
    // A connect never logs in by itself, even with a hook: that waits for someone to ask.
    expect(shown).toEqual([]);
    expect(await manager.callTool('mcp__plain__echo', { text: 'still here' })).toMatchObject({
      content: [{ type: 'text', text: 'echo:still here' }],
    });
    expect(statuses.filter((c) => c.server === 'tracker').map((c) => c.status)).toEqual(['connecting', 'needs-auth']);
    expect(needsAuth).toEqual([
      { server: 'tracker', command: '/mcp auth tracker', reason: expect.stringContaining('server "tracker"') },
    ]);
    const status = manager.getStatus().servers.find((s) => s.name === 'tracker')!;
    expect(status).toMatchObject({
      status: 'needs-auth',
      restarts: 0,
      circuitOpen: false,
      lastError: expect.stringContaining('tracker'),
    });
    const call = await manager.callTool('mcp__tracker__echo', { text: 'x' }).catch((e: unknown) => e);
    expect(call).toMatchObject({
      code: 'INVALID_STATE',
      message: expect.stringContaining('needs a login: run /mcp auth tracker'),
    });
    const text = (await handleCommand(manager, '/mcp')).text;
    expect(text).toContain('! tracker  needs-auth  — run /mcp auth tracker');
    // The other server's work took round trips; a restart (1 ms away) would have tried by now.
    expect(manager.getStatus().servers.find((s) => s.name === 'tracker')!.restarts).toBe(0);
    expect(refusedPosts()).toBe(refusedAfterConnect);
  });

  it('/mcp auth NAME shows the login through the host hook, keeps it and connects the server', async () => {
    const { manager, shown, store, needsAuth } = await setUp({ onAuthorizationUrl: userAllows });
    await manager.connectAll();
    const answer = await handleCommand(manager, '/mcp auth tracker');
    expect(answer).toMatchObject({
      ok: true,
      text: expect.stringMatching(/^logged in to tracker; connected \(legacy, 2025-11-25, 1 tools\)$/),
    });
    expect(shown).toHaveLength(1);
    expect(manager.getStatus().servers.find((s) => s.name === 'tracker')!.status).toBe('connected');
    expect(await manager.callTool('mcp__tracker__echo', { text: 'in' })).toMatchObject({
      content: [{ type: 'text', text: 'echo:in' }],
    });
    expect((await store.get(protectedServer!.url))?.tokens?.accessToken).toBe(protectedServer!.issued[0]);
    // What the manager said and shows holds no token.
    const said = JSON.stringify([needsAuth, manager.getStatus(), answer]);
    for (const token of protectedServer!.issued) expect(said).not.toContain(token);
  });

  it('a call that meets a 401 puts the connected server in needs-auth, and /mcp auth brings it back', async () => {
    const { manager, needsAuth, shown } = await setUp({ onAuthorizationUrl: userAllows });
    await manager.connectAll();
    await manager.login('tracker');
    expect(needsAuth).toHaveLength(1);
    protectedServer!.revokeAll();
    const failed = await manager.callTool('mcp__tracker__echo', { text: 'x' }).catch((e: unknown) => e);
    expect(failed).toMatchObject({ code: 'AUTH_REQUIRED', server: 'tracker' });
    // No login page mid-call: only when asked for.
    expect(shown).toHaveLength(1);
    expect(manager.getStatus().servers.find((s) => s.name === 'tracker')!.status).toBe('needs-auth');
    expect(needsAuth).toHaveLength(2);
    expect(needsAuth[1]).toMatchObject({ server: 'tracker', command: '/mcp auth tracker' });
    expect(manager.isConnected('plain')).toBe(true);
    expect((await handleCommand(manager, '/mcp auth tracker')).ok).toBe(true);
    expect(await manager.callTool('mcp__tracker__echo', { text: 'back' })).toMatchObject({
      content: [{ type: 'text', text: 'echo:back' }],
    });
  });

  it('without a login hook, /mcp auth says where a login can be done', async () => {
    const { manager } = await setUp();
    await manager.connectAll();
    const answer = await handleCommand(manager, '/mcp auth tracker');
    expect(answer.ok).toBe(false);
    expect(answer.text).toBe(
      'server "tracker": no login page can be shown here (the host gave no onAuthorizationUrl): run mcpwire auth login tracker in a shell, then /mcp connect tracker',
    );
    expect(manager.getStatus().servers.find((s) => s.name === 'tracker')!.status).toBe('needs-auth');
  });
});

describe('a server whose headersHelper fails', () => {
  it('waits in needs-auth, and /mcp auth runs the helper again and connects it', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'mcpwire-needs-auth-'));
    try {
      writeFileSync(
        path.join(dir, 'helper.sh'),
        'test -f "$HELPER_DIR/token" || exit 4\nprintf "Authorization: Bearer %s" "$(cat "$HELPER_DIR/token")"\n',
      );
      plain = await startHeaderProtectedServer('Bearer helper-token-7777');
      manager = McpManager.create({
        servers: [
          {
            name: 'vault',
            transport: 'http',
            url: plain.url,
            headersHelper: `sh ${JSON.stringify(path.join(dir, 'helper.sh'))}`,
            env: { HELPER_DIR: dir },
          },
        ],
      });
      const needsAuth: NeedsAuthEvent[] = [];
      manager.on('needsAuth', (event) => needsAuth.push(event));
      const { failed } = await manager.connectAll();
      expect(failed[0]?.error.message).toMatch(/^server "vault": .*the headersHelper exited with status 4$/);
      expect(needsAuth).toEqual([
        { server: 'vault', command: '/mcp auth vault', reason: expect.stringContaining('status 4') },
      ]);
      expect((await handleCommand(manager, '/mcp')).text).toContain(
        '! vault  needs-auth  — its headersHelper gave no usable headers: fix what it needs, then run /mcp auth vault',
      );
      writeFileSync(path.join(dir, 'token'), 'helper-token-7777');
      expect(await handleCommand(manager, '/mcp auth vault')).toMatchObject({
        ok: true,
        text: expect.stringMatching(/^logged in to vault; connected/),
      });
      expect(await manager.callTool('mcp__vault__echo', { text: 'ok' })).toMatchObject({
        content: [{ type: 'text', text: 'echo:ok' }],
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('a login nobody finishes', () => {
  it('is abandoned by its signal: CANCELLED, the server back in needs-auth, the callback receiver closed', async () => {
    const shownUrl: { current?: URL } = {};
    const { manager } = await setUp({ onAuthorizationUrl: (url) => void (shownUrl.current = url) });
    await manager.connectAll();
    const controller = new AbortController();
    const login = manager.login('tracker', { signal: controller.signal }).catch((e: unknown) => e);
    const url = await eventually(() => shownUrl.current);
    controller.abort();
    expect(await login).toMatchObject({ code: 'CANCELLED', server: 'tracker' });
    const status = manager.getStatus().servers.find((s) => s.name === 'tracker')!;
    expect(status).toMatchObject({ status: 'needs-auth', restarts: 0 });
    // The one-shot receiver the login opened is gone: its port refuses connections.
    const redirect = new URL(url.searchParams.get('redirect_uri')!);
    const reached = await fetch(redirect).then(
      () => 'answered',
      (e: { cause?: { code?: string } }) => e.cause?.code,
    );
    expect(reached).toBe('ECONNREFUSED');
  });
});
