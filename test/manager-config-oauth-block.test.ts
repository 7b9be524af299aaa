/**
 * The per-server `oauth` block: read from config files (its `${VAR}` secret expanded and kept
 * secret), checked (an unknown key or a secret without a client id is `CONFIG_INVALID` naming file,
 * server and field), never shown (`redactServer`, `secretValues`), and turned into the client's
 * `auth` option: OAuth on for every URL server unless `oauth: false`, a key file read when the
 * options are built. A real protected HTTP server shows the wiring: a stored login reaches it
 * through `connectServer`'s hooks, and `oauth: false` leaves the 401 as `AUTH_REQUIRED`.
 */
import { generateKeyPairSync } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MemoryTokenStore } from '../src/auth/token-store.js';
import type { McpClient } from '../src/client/mcp-client.js';
import { PROCESS_HTTP_ROUTES } from '../src/client/http-routes.js';
import { loadConfig } from '../src/manager/config/load-config.js';
import { redactServer, secretValues } from '../src/manager/config/redact.js';
import { oauthOptionsFor } from '../src/manager/servers/server-oauth.js';
import { checkServerDefinition } from '../src/manager/servers/check-definition.js';
import type { ManagedServer } from '../src/manager/servers/managed-server.js';
import { connectServer, connectTarget } from '../src/manager/servers/connect-target.js';
import { ConfigError, HttpError } from '../src/protocol/errors.js';
import { json, legacyServer, startHttpFixture, type HttpFixture } from './support/http-fixture.js';
import { useConfigDirs } from './support/config-dirs.js';

const dirs = useConfigDirs('mcpwire-oauth-config-');

const SECRET = 'oauth-client-secret-value-42';

async function load(servers: Record<string, unknown>) {
  const file = path.join(dirs.project, '.mcp.json');
  writeFileSync(file, JSON.stringify({ mcpServers: servers }));
  return { file, ...(await loadConfig({ cwd: dirs.project, homeDir: dirs.home, env: { HOSTED_SECRET: SECRET } })) };
}

describe('the oauth block in a config file', () => {
  it('is read with its ${VAR} secret expanded, and the secret is never shown', async () => {
    const { servers, errors } = await load({
      hosted: {
        url: 'https://mcp.example.com/mcp',
        oauth: {
          clientId: 'mcpwire-cli',
          clientSecret: '${HOSTED_SECRET}',
          scopes: ['read', 'write'],
          callbackPort: 33418,
          tokenEndpointAuthMethod: 'client_secret_post',
        },
      },
    });
    expect(errors).toEqual([]);
    const server = servers.find((s) => s.name === 'hosted')!;
    expect(server.oauth).toEqual({
      clientId: 'mcpwire-cli',
      clientSecret: SECRET,
      scopes: ['read', 'write'],
      callbackPort: 33418,
      tokenEndpointAuthMethod: 'client_secret_post',
    });
    expect(JSON.stringify(redactServer(server))).not.toContain(SECRET);
    expect(redactServer(server).oauth).toMatchObject({ clientId: 'mcpwire-cli', clientSecret: '***' });
    expect(secretValues(server)).toContain(SECRET);
  });

  it('hides a secret written into the file by hand too', async () => {
    const { servers } = await load({
      hosted: { url: 'https://mcp.example.com/mcp', oauth: { clientId: 'c', clientSecret: 'literal-secret-in-file' } },
    });
    const server = servers[0]!;
    expect(JSON.stringify(redactServer(server))).not.toContain('literal-secret-in-file');
    expect(secretValues(server)).toContain('literal-secret-in-file');
  });

  it('takes oauth: false', async () => {
    const { servers, errors } = await load({ hosted: { url: 'https://mcp.example.com/mcp', oauth: false } });
    expect(errors).toEqual([]);
    expect(servers[0]!.oauth).toBe(false);
  });

  it('refuses an unknown key, naming the file, the server, the field and the key', async () => {
    const { file, errors } = await load({
      hosted: { url: 'https://mcp.example.com/mcp', oauth: { clientId: 'c', client_secret: 'x' } },
    });
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(ConfigError);
    expect(errors[0]).toMatchObject({ code: 'CONFIG_INVALID', file, server: 'hosted', field: 'oauth' });
    expect(errors[0]!.message).toContain(`${file}: server "hosted": oauth has an unknown key "client_secret"`);
  });

  it('refuses a mistyped field of the block, naming it', async () => {
    const { errors } = await load({ hosted: { url: 'https://mcp.example.com/mcp', oauth: { grant: 'password' } } });
    expect(errors[0]).toMatchObject({ code: 'CONFIG_INVALID', server: 'hosted', field: 'oauth.grant' });
    expect(errors[0]!.message).toContain(
      'oauth.grant must be one of "authorization_code", "client_credentials", got "password"',
    );
    const port = await load({ hosted: { url: 'https://mcp.example.com/mcp', oauth: { callbackPort: 'high' } } });
    expect(port.errors[0]).toMatchObject({ field: 'oauth.callbackPort' });
  });

  it('refuses a secret or a machine grant without a client id, without showing the secret', async () => {
    const secret = await load({
      hosted: { url: 'https://mcp.example.com/mcp', oauth: { clientSecret: '${HOSTED_SECRET}' } },
    });
    expect(secret.errors[0]).toMatchObject({ code: 'CONFIG_INVALID', server: 'hosted', field: 'oauth' });
    expect(secret.errors[0]!.message).toMatch(/clientId/);
    expect(secret.errors[0]!.message).not.toContain(SECRET);
    const machine = await load({
      hosted: { url: 'https://mcp.example.com/mcp', oauth: { grant: 'client_credentials' } },
    });
    expect(machine.errors[0]!.message).toMatch(/clientId/);
  });

  it('describes a value of neither form', async () => {
    const { errors } = await load({ hosted: { url: 'https://mcp.example.com/mcp', oauth: 'yes' } });
    expect(errors[0]).toMatchObject({ field: 'oauth' });
    expect(errors[0]!.message).toMatch(/oauth must be false or \{ clientId, clientSecret, /);
  });
});

describe('the oauth block of a hand-written server', () => {
  it('is read by the same rules as a config entry', () => {
    const server = { name: 'hosted', transport: 'http', url: 'https://mcp.example.com/mcp' };
    expect(() =>
      checkServerDefinition({ ...server, oauth: { clientId: 'c', scopes: ['a'] } }, 'McpManager options.servers[0]'),
    ).not.toThrow();
    expect(() => checkServerDefinition({ ...server, oauth: false }, 'McpManager options.servers[0]')).not.toThrow();
    const error = catchError(() =>
      checkServerDefinition({ ...server, oauth: { clientID: 'c' } }, 'McpManager options.servers[0]'),
    );
    expect(error).toMatchObject({ code: 'CONFIG_INVALID', server: 'hosted', field: 'oauth' });
    expect(error.message).toContain('oauth has an unknown key "clientID"');
  });
});

describe('oauthOptionsFor', () => {
  const http = (extra: Partial<ManagedServer> = {}): ManagedServer => ({
    name: 'hosted',
    transport: 'http',
    url: 'https://mcp.example.com/mcp',
    ...extra,
  });

  it('is undefined for a stdio server and for oauth: false', () => {
    expect(oauthOptionsFor({ name: 'fs', transport: 'stdio', command: 'fs-server' })).toBeUndefined();
    expect(oauthOptionsFor(http({ oauth: false }))).toBeUndefined();
    expect(oauthOptionsFor(http({ transport: 'sse', oauth: false }))).toBeUndefined();
  });

  it('is on for a URL server without a block, with the hooks given', () => {
    expect(oauthOptionsFor(http())).toEqual({});
    const store = new MemoryTokenStore();
    const onAuthorizationUrl = () => undefined;
    expect(oauthOptionsFor(http({ transport: 'sse' }), { store, onAuthorizationUrl })).toEqual({
      store,
      onAuthorizationUrl,
    });
  });

  it('turns the block into a pre-registered client and the login settings', () => {
    const options = oauthOptionsFor(
      http({
        oauth: {
          clientId: 'c',
          clientSecret: 's3cret',
          scopes: ['a'],
          callbackPort: 4000,
          clientMetadataUrl: 'https://app.example/client.json',
          grant: 'client_credentials',
          tokenEndpointAuthMethod: 'client_secret_basic',
        },
      }),
    );
    expect(options).toEqual({
      grant: 'client_credentials',
      scopes: ['a'],
      callbackPort: 4000,
      clientMetadataUrl: 'https://app.example/client.json',
      client: { clientId: 'c', clientSecret: 's3cret', tokenEndpointAuthMethod: 'client_secret_basic' },
    });
  });

  it('reads the private key file (relative to the config file) when the options are built', () => {
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    writeFileSync(path.join(dirs.project, 'client.pem'), pem, { mode: 0o600 });
    const spec = http({
      oauth: { clientId: 'c', privateKeyFile: 'client.pem', signingAlgorithm: 'ES256' },
      provenance: { file: path.join(dirs.project, '.mcp.json'), scope: 'project' },
    });
    expect(oauthOptionsFor(spec)?.client).toEqual({ clientId: 'c', privateKey: pem, signingAlgorithm: 'ES256' });
  });

  it('a key file that cannot be read or holds no key is CONFIG_INVALID naming it, never quoting it', () => {
    const config = path.join(dirs.project, '.mcp.json');
    const missing = path.join(dirs.project, 'missing.pem');
    const spec = http({
      oauth: { clientId: 'c', privateKeyFile: missing },
      provenance: { file: config, scope: 'project' },
    });
    const error = catchError(() => oauthOptionsFor(spec));
    expect(error).toBeInstanceOf(ConfigError);
    expect(error).toMatchObject({
      code: 'CONFIG_INVALID',
      server: 'hosted',
      field: 'oauth.privateKeyFile',
      file: config,
    });
    expect(error.message).toContain(missing);
    expect(error.message).toContain('ENOENT');

    const junk = path.join(dirs.project, 'junk.pem');
    writeFileSync(junk, 'not-a-key-but-a-secret-looking-text');
    const bad = catchError(() => oauthOptionsFor(http({ oauth: { clientId: 'c', privateKeyFile: junk } })));
    expect(bad).toMatchObject({ code: 'CONFIG_INVALID', field: 'oauth.privateKeyFile' });
    expect(bad.message).toContain(junk);
    expect(bad.message).not.toContain('secret-looking');
    // connectTarget builds the same options, so it fails the same way before anything is sent.
    expect(catchError(() => connectTarget(spec))).toMatchObject({
      code: 'CONFIG_INVALID',
      field: 'oauth.privateKeyFile',
    });
  });
});

describe('a URL server connected from its definition', () => {
  const TOKEN = 'stored-access-token-7f3a';
  let server: HttpFixture;
  const clients: McpClient[] = [];

  beforeEach(async () => {
    const mcp = legacyServer({ sessions: false });
    server = await startHttpFixture(async (seen, res, req) => {
      if (req.headers.authorization !== `Bearer ${TOKEN}`)
        return json(res, { error: 'invalid_token' }, 401, { 'www-authenticate': 'Bearer error="invalid_token"' });
      return mcp(seen, res, req);
    });
  });
  afterEach(async () => {
    for (const client of clients.splice(0)) await client.close();
    await server.close();
    PROCESS_HTTP_ROUTES.clear();
  });

  const spec = (extra: Partial<ManagedServer> = {}): ManagedServer => ({
    name: 'hosted',
    transport: 'http',
    url: server.url,
    ...extra,
  });

  it('uses the login kept in the store its hooks name', async () => {
    const store = new MemoryTokenStore();
    await store.set(server.url, { tokens: { accessToken: TOKEN, tokenType: 'Bearer' } });
    const client = await connectServer(spec(), { connectTimeoutMs: 20_000 }, { store });
    clients.push(client);
    expect((await client.listTools()).map((t) => t.name)).toEqual(['echo']);
  });

  it('with oauth: false, sends no stored login and the 401 stays AUTH_REQUIRED', async () => {
    const store = new MemoryTokenStore();
    await store.set(server.url, { tokens: { accessToken: TOKEN, tokenType: 'Bearer' } });
    const error = await connectServer(spec({ oauth: false }), { connectTimeoutMs: 20_000 }, { store }).then(
      (client) => {
        clients.push(client);
        return undefined;
      },
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({ code: 'AUTH_REQUIRED', status: 401 });
    expect(server.requests.every((r) => r.headers.authorization === undefined)).toBe(true);
  });
});

function catchError(fn: () => unknown): Error & Record<string, unknown> {
  try {
    fn();
  } catch (error) {
    return error as Error & Record<string, unknown>;
  }
  throw new Error('expected a throw');
}
