/**
 * `node examples/todo-server/server.mjs --http 127.0.0.1:0 --auth-issuer URL`: the todo server as
 * an OAuth protected resource, with a real authorization server (oidc-provider on loopback). A
 * request without a token is 401 with the challenge; mcpwire's `client_credentials` client finds
 * the issuer from it and adds a task. Needs `npm run build` (the example imports dist/).
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MemoryTokenStore } from '../src/auth/token-store.js';
import { McpClient } from '../src/client/mcp-client.js';
import { PROCESS_HTTP_ROUTES } from '../src/client/http-routes.js';
import { startAuthorizationServer, type AuthorizationServer } from './support/oauth-servers.js';
import { registerMachineClient } from './support/protected-kit.js';
import { ALICE, startTodoHttp, tempDir, TODO_SERVER } from './support/todo-server.js';

let temp: ReturnType<typeof tempDir>;
let as: AuthorizationServer | undefined;
const clients: McpClient[] = [];

beforeEach(() => {
  temp = tempDir();
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await as?.close();
  PROCESS_HTTP_ROUTES.clear();
  temp.remove();
});

describe('the todo server with --auth-issuer', () => {
  it('refuses a request without a token with the challenge, and serves a client_credentials client of that issuer', async () => {
    as = await startAuthorizationServer();
    const registered = await registerMachineClient(as.issuer, ['mcp:tools']);
    const { url } = await startTodoHttp([
      '--db',
      path.join(temp.dir, 'tasks.db'),
      '--http',
      '127.0.0.1:0',
      '--auth-issuer',
      as.issuer,
    ]);

    const bare = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    });
    expect(bare.status).toBe(401);
    expect(bare.headers.get('www-authenticate')).toBe(
      `Bearer resource_metadata="${new URL('/.well-known/oauth-protected-resource/mcp', url).href}"`,
    );
    const metadata = await (await fetch(new URL('/.well-known/oauth-protected-resource/mcp', url))).json();
    expect(metadata).toMatchObject({ resource: url, authorization_servers: [as.issuer] });

    const client = await McpClient.connect(
      { url, auth: { grant: 'client_credentials', client: registered, store: new MemoryTokenStore() } },
      { name: 'todo', connectTimeoutMs: 20_000 },
    );
    clients.push(client);
    const added = await client.callTool('add_task', { user_id: ALICE, title: 'Behind a token' });
    expect(added.structuredContent).toMatchObject({ success: true, task: { title: 'Behind a token' } });
  }, 60_000);

  it('is refused on stdio and without an http(s) URL', async () => {
    const { readConfig } = await import(pathToFileURL(path.join(path.dirname(TODO_SERVER), 'config.mjs')).href);
    expect(() => readConfig(['--auth-issuer', 'https://as.example'], {})).toThrow(/needs --http/);
    expect(() => readConfig(['--http', '127.0.0.1:0', '--auth-issuer', 'as.example'], {})).toThrow(/http\(s\) URL/);
    expect(readConfig(['--http', '127.0.0.1:0', '--auth-issuer', 'https://as.example'], {}).auth).toEqual({
      issuer: 'https://as.example',
      audience: undefined,
    });
  });
});
