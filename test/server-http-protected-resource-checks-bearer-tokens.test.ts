/**
 * The resource-server half of MCP authorization on the kit's HTTP handler, with real parts:
 * oidc-provider on loopback issuing JWT access tokens for a resource (RFC 8707), a kit server
 * behind `jwtBearer` on 127.0.0.1:0, mcpwire's OAuth client with a `client_credentials` grant.
 * Refused tokens (another audience, expired, another issuer, a bad signature) are 401
 * `invalid_token`; a tool needing a scope the token lacks is 403 `insufficient_scope` before it
 * runs, and the client steps up. No token ever shows in a response or a server log line.
 */
import * as jose from 'jose';
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryTokenStore, serverKey } from '../src/auth/token-store.js';
import { McpClient } from '../src/client/mcp-client.js';
import { PROCESS_HTTP_ROUTES } from '../src/client/http-routes.js';
import {
  createHttpHandler,
  jwtBearer,
  McpServer,
  type AuthInfo,
  type HttpAuthOptions,
  type ServerLogRecord,
} from '../src/server/index.js';
import { startAuthorizationServer, type AuthorizationServer } from './support/oauth-servers.js';
import { machineToken, registerMachineClient, type MachineClient } from './support/protected-kit.js';
import { listenKitAt, type KitHttp } from './support/kit-http.js';
import { header, modernRequest } from './support/kit-wire.js';

const SCOPES = ['mcp:tools', 'mcp:admin'];

interface Setup {
  kit: KitHttp;
  logs: ServerLogRecord[];
  /** What the tools saw in `context.auth`, one entry per run. */
  seen: Array<{ tool: string; auth: AuthInfo | undefined }>;
}

const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const item of open.splice(0).reverse()) await item.close();
  PROCESS_HTTP_ROUTES.clear();
});

function kitServer(logs: ServerLogRecord[], seen: Setup['seen']): McpServer {
  const server = new McpServer({ name: 'protected-kit', version: '1.0.0', logger: (record) => logs.push(record) });
  server.registerTool({
    name: 'whoami',
    inputSchema: { type: 'object' },
    handler: (_args, context) => {
      seen.push({ tool: 'whoami', auth: context.auth });
      return {
        structuredContent: {
          subject: context.auth?.subject ?? null,
          clientId: context.auth?.clientId ?? null,
          scopes: context.auth?.scopes ?? [],
        },
      };
    },
  });
  server.registerTool({
    name: 'purge',
    inputSchema: { type: 'object' },
    requiredScopes: ['mcp:admin'],
    handler: (_args, context) => {
      seen.push({ tool: 'purge', auth: context.auth });
      return { content: [{ type: 'text', text: 'purged' }] };
    },
  });
  return server;
}

async function protectedKit(auth: (url: string) => Omit<HttpAuthOptions, 'resource'>): Promise<Setup> {
  const logs: ServerLogRecord[] = [];
  const seen: Setup['seen'] = [];
  const kit = await listenKitAt(kitServer(logs, seen), (url) => ({ auth: { resource: url, ...auth(url) } }));
  open.push(kit);
  return { kit, logs, seen };
}

async function withProvider(): Promise<{ as: AuthorizationServer; client: MachineClient }> {
  const as = await startAuthorizationServer({ resourceScopes: SCOPES });
  open.push(as);
  return { as, client: await registerMachineClient(as.issuer, SCOPES) };
}

/** A raw modern `tools/call` POST with `token` (when given). */
async function callRaw(
  url: string,
  token: string | undefined,
  tool = 'whoami',
): Promise<{ status: number; challenge: string | null; body: string }> {
  const answer = await modernRequest(
    url,
    'tools/call',
    { name: tool, arguments: {} },
    {
      clientInfo: { name: 'raw', version: '1' },
      headers: token === undefined ? {} : { authorization: `Bearer ${token}` },
    },
  );
  return { status: answer.status, challenge: header(answer, 'www-authenticate'), body: answer.text };
}

describe('Protected Resource Metadata', () => {
  it('is served at the path-based and the root well-known URL, naming this server, its issuer and scopes, header bearer only', async () => {
    const { kit } = await protectedKit(() => ({
      authorizationServers: ['https://as.example'],
      scopesSupported: SCOPES,
      verifyToken: () => Promise.reject(new Error('not called')),
    }));
    for (const path of ['/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-protected-resource']) {
      const response = await fetch(new URL(path, kit.url));
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({
        resource: kit.url,
        authorization_servers: ['https://as.example'],
        scopes_supported: SCOPES,
        bearer_methods_supported: ['header'],
      });
    }
  });

  it('a request without a token is 401 with the challenge naming the metadata and the scope; a token in the query string is not read', async () => {
    const verified: string[] = [];
    const { kit, seen } = await protectedKit(() => ({
      authorizationServers: ['https://as.example'],
      scopesSupported: SCOPES,
      requiredScopes: ['mcp:tools'],
      verifyToken: async (token) => {
        verified.push(token);
        return { scopes: ['mcp:tools'] };
      },
    }));
    const bare = await callRaw(kit.url, undefined);
    expect(bare.status).toBe(401);
    expect(bare.challenge).toBe(
      `Bearer resource_metadata="${new URL('/.well-known/oauth-protected-resource/mcp', kit.url).href}", scope="mcp:tools"`,
    );
    const queried = await callRaw(`${kit.url}?access_token=in-the-url`, undefined);
    expect(queried.status).toBe(401);
    expect(verified).toEqual([]);
    expect(seen).toEqual([]);
  });
});

/** The auth options of a kit that checks `as`'s JWTs and offers {@link SCOPES}. */
const jwtAuth = (as: AuthorizationServer) => ({
  authorizationServers: [as.issuer],
  scopesSupported: SCOPES,
  verifyToken: jwtBearer({ issuer: as.issuer }),
});

describe('jwtBearer against a real authorization server', () => {
  it("mcpwire's client_credentials client discovers the metadata from the 401, gets a token for this server and calls a tool that sees who it is", async () => {
    const { as, client: registered } = await withProvider();
    const { kit, seen, logs } = await protectedKit(() => ({ ...jwtAuth(as), requiredScopes: ['mcp:tools'] }));
    const store = new MemoryTokenStore();
    const client = await McpClient.connect(
      { url: kit.url, auth: { grant: 'client_credentials', client: registered, store } },
      { name: 'protected', connectTimeoutMs: 20_000 },
    );
    open.push(client);
    const result = await client.callTool('whoami', {});
    expect(result.structuredContent).toEqual({
      subject: registered.clientId,
      clientId: registered.clientId,
      scopes: ['mcp:tools'],
    });
    expect(seen.at(-1)?.auth?.expiresAt).toBeGreaterThan(Date.now());
    const token = (await store.get(serverKey(new URL(kit.url))))?.tokens?.accessToken;
    expect(token).toBeTruthy();
    expect(JSON.stringify(logs)).not.toContain(token);
  }, 60_000);

  it('a token for another audience is 401 invalid_token, and neither the response nor the log holds the token', async () => {
    const { as, client } = await withProvider();
    const { kit, seen, logs } = await protectedKit(() => jwtAuth(as));
    const elsewhere = await machineToken(as.issuer, client, 'http://127.0.0.1:1/another-server', ['mcp:tools']);
    const answer = await callRaw(kit.url, elsewhere);
    expect(answer.status).toBe(401);
    expect(answer.challenge).toMatch(
      /^Bearer resource_metadata="[^"]+", scope="mcp:tools mcp:admin", error="invalid_token"$/,
    );
    expect(answer.body).toContain('another audience');
    expect(answer.body).not.toContain(elsewhere);
    expect(JSON.stringify(logs)).not.toContain(elsewhere);
    expect(seen).toEqual([]);
    // The same client's token for this server is accepted.
    expect((await callRaw(kit.url, await machineToken(as.issuer, client, kit.url, ['mcp:tools']))).status).toBe(200);
  }, 60_000);

  it('a tool needing a scope the token lacks is 403 insufficient_scope before it runs, and the client steps up', async () => {
    const { as, client: registered } = await withProvider();
    const { kit, seen, logs } = await protectedKit(() => ({ ...jwtAuth(as), requiredScopes: ['mcp:tools'] }));
    const narrow = await machineToken(as.issuer, registered, kit.url, ['mcp:tools']);
    const refused = await callRaw(kit.url, narrow, 'purge');
    expect(refused.status).toBe(403);
    expect(refused.challenge).toMatch(
      /^Bearer resource_metadata="[^"]+", scope="mcp:tools mcp:admin", error="insufficient_scope"$/,
    );
    expect(refused.body).not.toContain(narrow);
    expect(seen).toEqual([]);

    const client = await McpClient.connect(
      { url: kit.url, auth: { grant: 'client_credentials', client: registered, store: new MemoryTokenStore() } },
      { name: 'protected', connectTimeoutMs: 20_000 },
    );
    open.push(client);
    expect((await client.callTool('whoami', {})).structuredContent).toMatchObject({ scopes: ['mcp:tools'] });
    expect((await client.callTool('purge', {})).content).toEqual([{ type: 'text', text: 'purged' }]);
    expect(seen.map((s) => s.tool)).toEqual(['whoami', 'purge']);
    expect([...(seen[1]!.auth?.scopes ?? [])].sort()).toEqual(['mcp:admin', 'mcp:tools']);
    expect(JSON.stringify(logs)).not.toContain(narrow);
  }, 60_000);
});

describe('jwtBearer refusals with locally signed tokens', () => {
  it('expired, another issuer, a bad signature and not a JWT are each 401 invalid_token with a reason, the token never echoed', async () => {
    const issuer = 'https://as.example';
    const { privateKey, publicKey } = await jose.generateKeyPair('ES256', { extractable: true });
    const other = await jose.generateKeyPair('ES256', { extractable: true });
    const jwk = { ...(await jose.exportJWK(publicKey)), kid: 'k1', alg: 'ES256' };
    const { kit, seen, logs } = await protectedKit(() => ({
      authorizationServers: [issuer],
      verifyToken: jwtBearer({ issuer, jwks: { keys: [jwk] } }),
    }));
    const now = Math.floor(Date.now() / 1000);
    const sign = (claims: Record<string, unknown>, key = privateKey) =>
      new jose.SignJWT({ scope: 'mcp:tools', ...claims })
        .setProtectedHeader({ alg: 'ES256', kid: 'k1', typ: 'at+jwt' })
        .setSubject('alice')
        .sign(key);
    const good = await sign({ iss: issuer, aud: kit.url, exp: now + 600 });
    expect((await callRaw(kit.url, good)).status).toBe(200);
    const cases: Array<[string, string]> = [
      [await sign({ iss: issuer, aud: kit.url, exp: now - 600 }), 'expired'],
      [await sign({ iss: 'https://evil.example', aud: kit.url, exp: now + 600 }), 'another issuer'],
      [await sign({ iss: issuer, aud: kit.url, exp: now + 600 }, other.privateKey), 'signature'],
      ['not-a-jwt-at-all', 'not a valid JWT'],
    ];
    for (const [token, reason] of cases) {
      const answer = await callRaw(kit.url, token);
      expect(answer.status, reason).toBe(401);
      expect(answer.challenge, reason).toMatch(/error="invalid_token"$/);
      expect(answer.body, reason).toContain(reason);
      expect(answer.body, reason).not.toContain(token);
      expect(JSON.stringify(logs), reason).not.toContain(token);
    }
    expect(seen).toHaveLength(1);
    expect(seen[0]!.auth).toMatchObject({ subject: 'alice', scopes: ['mcp:tools'] });
  });
});

describe('a verifier that cannot check', () => {
  it('answers 500 without a challenge when the keys cannot be fetched, and logs why without the token', async () => {
    const { kit, logs, seen } = await protectedKit(() => ({
      authorizationServers: ['http://127.0.0.1:1'],
      verifyToken: jwtBearer({ issuer: 'http://127.0.0.1:1', jwksUrl: 'http://127.0.0.1:1/jwks' }),
    }));
    const { privateKey } = await jose.generateKeyPair('ES256');
    const token = await new jose.SignJWT({})
      .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
      .setIssuer('http://127.0.0.1:1')
      .setAudience(kit.url)
      .setExpirationTime('10m')
      .sign(privateKey);
    const answer = await callRaw(kit.url, token);
    expect(answer.status).toBe(500);
    expect(answer.challenge).toBeNull();
    expect(answer.body).not.toContain(token);
    const logged = logs.find((record) => record.msg === 'the bearer token check failed');
    expect(logged).toMatchObject({
      level: 'error',
      url: '/mcp',
      error: expect.stringContaining('signing keys of issuer http://127.0.0.1:1'),
    });
    expect(JSON.stringify(logs)).not.toContain(token);
    expect(seen).toEqual([]);
  });
});

describe('legacy sessions on a protected endpoint', () => {
  it("a session made with one subject's token is not found with another subject's token", async () => {
    const issuer = 'https://as.example';
    const { privateKey, publicKey } = await jose.generateKeyPair('ES256', { extractable: true });
    const jwk = { ...(await jose.exportJWK(publicKey)), kid: 'k1', alg: 'ES256' };
    const { kit } = await protectedKit(() => ({
      authorizationServers: [issuer],
      verifyToken: jwtBearer({ issuer, jwks: { keys: [jwk] } }),
    }));
    const now = Math.floor(Date.now() / 1000);
    const tokenOf = (subject: string) =>
      new jose.SignJWT({ scope: 'mcp:tools', client_id: 'app' })
        .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
        .setSubject(subject)
        .setIssuer(issuer)
        .setAudience(kit.url)
        .setExpirationTime(now + 600)
        .sign(privateKey);
    const alice = await tokenOf('alice');
    const bob = await tokenOf('bob');
    const post = (token: string, body: unknown, session?: string) =>
      fetch(kit.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          authorization: `Bearer ${token}`,
          'mcp-protocol-version': '2025-11-25',
          ...(session ? { 'mcp-session-id': session } : {}),
        },
        body: JSON.stringify(body),
      });
    const opened = await post(alice, {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    });
    expect(opened.status).toBe(200);
    await opened.text();
    const session = opened.headers.get('mcp-session-id')!;
    expect(session).toBeTruthy();
    const list = { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} };
    const stolen = await post(bob, list, session);
    expect(stolen.status).toBe(404);
    await stolen.text();
    const own = await post(alice, list, session);
    expect(own.status).toBe(200);
    expect(await own.json()).toMatchObject({ result: { tools: [{ name: 'whoami' }, { name: 'purge' }] } });
    const deleted = await fetch(kit.url, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${bob}`, 'mcp-session-id': session },
    });
    expect(deleted.status).toBe(404);
  });
});

describe('auth options', () => {
  it('are checked when the handler is made: unknown keys, a resource that is no absolute URL or has a fragment, no issuer, no verifier', () => {
    const server = new McpServer({ name: 'options', version: '1', logger: () => undefined });
    const good: HttpAuthOptions = {
      resource: 'https://mcp.example/mcp',
      authorizationServers: ['https://as.example'],
      verifyToken: async () => ({ scopes: [] }),
    };
    expect(() => createHttpHandler(server, { auth: good })).not.toThrow();
    const bad: Array<[Record<string, unknown>, RegExp]> = [
      [{ ...good, audience: 'x' }, /unknown HTTP handler auth option "audience"/],
      [{ ...good, resource: '/mcp' }, /must be an absolute URL/],
      [{ ...good, resource: 'https://mcp.example/mcp#frag' }, /must have no fragment/],
      [{ ...good, authorizationServers: [] }, /at least one issuer/],
      [{ ...good, verifyToken: undefined }, /"verifyToken" must be a function/],
    ];
    for (const [auth, message] of bad)
      expect(() => createHttpHandler(server, { auth: auth as unknown as HttpAuthOptions })).toThrow(message);
    expect(() =>
      jwtBearer({ issuer: 'https://as.example', jwks: { keys: [] }, jwksUrl: 'https://as.example/jwks' }),
    ).toThrow(/not both/);
    expect(() => jwtBearer({ issuer: 'https://as.example', audiences: [] } as never)).toThrow(
      /unknown jwtBearer option "audiences"/,
    );
  });
});
