/**
 * The OAuth session reads the token store once and keeps the login in memory: requests cost no
 * store read (with the file store, no file read per POST), on OAuth servers and on servers that
 * never ask for a login alike. A refusal re-reads the store, so a newer login another process
 * wrote to a shared file store is taken without a browser. Real HTTP fixtures on 127.0.0.1 and a
 * real FileTokenStore in a temp dir, counted by a wrapper (the session is what is under test).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FileTokenStore } from '../src/auth/file-token-store.js';
import type { StoredLogin, TokenStore } from '../src/auth/token-store.js';
import { PROCESS_HTTP_ROUTES } from '../src/client/http-routes.js';
import { McpClient } from '../src/client/mcp-client.js';
import { startAutoApprovingOAuth, type AutoApprovingOAuth } from './support/auto-approving-oauth.js';
import { legacyServer, startHttpFixture, type HttpFixture } from './support/http-fixture.js';

let server: AutoApprovingOAuth | HttpFixture | undefined;
let dir: string | undefined;
const clients: McpClient[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
  await server?.close();
  server = undefined;
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
  PROCESS_HTTP_ROUTES.clear();
});

/** The real file store, its reads counted. */
class CountingStore implements TokenStore {
  reads = 0;
  constructor(readonly inner: FileTokenStore) {}
  get(key: string): Promise<StoredLogin | undefined> {
    this.reads++;
    return this.inner.get(key);
  }
  set(key: string, login: StoredLogin): Promise<void> {
    return this.inner.set(key, login);
  }
  delete(key: string): Promise<void> {
    return this.inner.delete(key);
  }
}

async function fileStore(): Promise<CountingStore> {
  dir ??= await mkdtemp(path.join(tmpdir(), 'mcpwire-login-kept-'));
  return new CountingStore(new FileTokenStore({ dir }));
}

/** A user who clicks "allow" on the auto-approving server's page. */
async function userAllows(url: URL): Promise<void> {
  await (await fetch(url)).text();
}

const noBrowser = (): never => {
  throw new Error('no browser expected');
};

describe('the OAuth session keeps the login in memory', () => {
  it('sends many requests to a logged-in server without reading the store again', async () => {
    const oauthServer = await startAutoApprovingOAuth();
    server = oauthServer;
    const store = await fileStore();
    const client = await McpClient.connect(
      { url: oauthServer.url, auth: { store, onAuthorizationUrl: userAllows } },
      { name: 'tracker' },
    );
    clients.push(client);
    const readsAfterConnect = store.reads;
    for (let i = 0; i < 10; i++) await client.callTool('echo', { text: `n${i}` });
    expect(store.reads).toBe(readsAfterConnect);
    expect(oauthServer.issued).toHaveLength(1);
  });

  it('reads the store at most once for a server that never asks for a login', async () => {
    server = await startHttpFixture(() => false, legacyServer());
    const store = await fileStore();
    const client = await McpClient.connect(
      { url: server.url, auth: { store, onAuthorizationUrl: noBrowser } },
      { name: 'plain' },
    );
    clients.push(client);
    for (let i = 0; i < 10; i++) await client.callTool('echo', { text: `n${i}` });
    expect(store.reads).toBeLessThanOrEqual(1);
  });

  it('takes a newer login another process wrote to the shared store after a 401, without a browser', async () => {
    const oauthServer = await startAutoApprovingOAuth();
    server = oauthServer;
    const first = await fileStore();
    const firstClient = await McpClient.connect(
      { url: oauthServer.url, auth: { store: first, onAuthorizationUrl: userAllows } },
      { name: 'tracker' },
    );
    clients.push(firstClient);
    // A second process: its own store object on the same directory, and no way to show a login page.
    const second = new CountingStore(new FileTokenStore({ dir: first.inner.dir }));
    const secondClient = await McpClient.connect(
      { url: oauthServer.url, auth: { store: second, onAuthorizationUrl: noBrowser } },
      { name: 'tracker' },
    );
    clients.push(secondClient);
    // The login both hold is revoked; the first process logs in again and writes the new login.
    oauthServer.revokeAll();
    expect(await firstClient.callTool('echo', { text: 'first' })).toMatchObject({
      content: [{ type: 'text', text: 'echo:first' }],
    });
    expect(oauthServer.issued).toHaveLength(2);
    // The second process's kept token is refused; it finds the first's newer login in the store.
    expect(await secondClient.callTool('echo', { text: 'second' })).toMatchObject({
      content: [{ type: 'text', text: 'echo:second' }],
    });
    expect(oauthServer.issued).toHaveLength(2);
    const last = oauthServer.requests.filter((r) => r.path === '/mcp' && r.method === 'POST').at(-1)!;
    expect(last.headers.authorization).toBe(`Bearer ${oauthServer.issued[1]}`);
  });
});
