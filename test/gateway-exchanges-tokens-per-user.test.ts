/**
 * Upstream credentials by RFC 8693 token exchange: a gateway whose downstream callers present
 * JWTs of a real authorization server (panva's `oidc-provider`, with a token-exchange grant
 * registered by this test that checks the subject token and issues a JWT for the requested
 * resource with the subject's `sub`), and an upstream kit server that takes only tokens of its
 * own audience and says whom it sees. Each user reaches the upstream as themselves, through a
 * connection of their own; the caller's token never reaches the upstream; one exchange serves a
 * user's calls, and a token the upstream stops taking is exchanged again; a refused exchange is
 * an error naming the server. The gateway lists the
 * upstream with its own credentials (a machine token in the server's headers).
 */
import * as jose from 'jose';
import { errors } from 'oidc-provider';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGateway, keepSubjectTokens, type Gateway } from '../src/gateway/index.js';
import { PerPrincipalUpstreams } from '../src/gateway/credentials/per-principal-upstreams.js';
import { TOKEN_EXCHANGE_GRANT, ACCESS_TOKEN_TYPE } from '../src/gateway/credentials/token-exchange.js';
import { BearerTokenError, jwtBearer, McpServer } from '../src/server/index.js';
import type { McpClient } from '../src/client/mcp-client.js';
import type { TextContent } from '../src/protocol/types.js';
import { connectClient } from './support/client.js';
import { serveGateway } from './support/gateway-upstreams.js';
import { listenKitAt, type KitHttp } from './support/kit-http.js';
import { freshSigningKey, startAuthorizationServer, type AuthorizationServer } from './support/oauth-servers.js';
import { machineToken, registerMachineClient } from './support/protected-kit.js';

/** What the test's token-exchange grant reads of oidc-provider's request context. */
interface ExchangeContext {
  oidc: { params: Record<string, unknown>; client: { clientId: string } };
  body: unknown;
}

let as: AuthorizationServer;
let upstream: KitHttp & { server: McpServer };
let gateway: Gateway;
let served: { url: string; close(): Promise<void> };
let sign: (subject: string) => Promise<string>;
/** The subject of every exchange the authorization server granted. */
const exchanged: string[] = [];
/** The `authorization` header of every request the upstream received. */
const seenUpstream: string[] = [];
const clients: McpClient[] = [];
/** Tokens the upstream has stopped taking. */
const revoked = new Set<string>();

beforeAll(async () => {
  const signingKey = await freshSigningKey();
  const key = await jose.importJWK(signingKey, 'RS256');
  const publicKeys = jose.createLocalJWKSet({
    keys: [{ kty: signingKey.kty, n: signingKey.n, e: signingKey.e, kid: signingKey.kid, alg: 'RS256' }],
  });
  let issuer = '';
  let gatewayUrl = '';
  const jwt = (claims: jose.JWTPayload, subject: string, audience: string) =>
    new jose.SignJWT(claims)
      .setProtectedHeader({ alg: 'RS256', kid: signingKey.kid!, typ: 'at+jwt' })
      .setIssuer(issuer)
      .setSubject(subject)
      .setAudience(audience)
      .setIssuedAt()
      .setJti(crypto.randomUUID())
      .setExpirationTime('10m')
      .sign(key);
  as = await startAuthorizationServer({
    signingKey,
    configure: (provider) =>
      provider.registerGrantType(
        TOKEN_EXCHANGE_GRANT,
        async (ctx: ExchangeContext) => {
          const { subject_token, subject_token_type, resource } = ctx.oidc.params;
          if (subject_token_type !== ACCESS_TOKEN_TYPE || typeof resource !== 'string')
            throw new errors.InvalidRequest('an access token subject and one resource are needed');
          let sub: string;
          try {
            const { payload } = await jose.jwtVerify(String(subject_token), publicKeys, {
              issuer,
              audience: gatewayUrl,
            });
            sub = payload.sub!;
          } catch {
            throw new errors.InvalidGrant('the subject token is not valid');
          }
          if (sub === 'mallory') throw new errors.InvalidGrant('mallory may not act on other servers');
          exchanged.push(sub);
          ctx.body = {
            access_token: await jwt({ client_id: ctx.oidc.client.clientId, scope: 'mcp:tools' }, sub, resource),
            issued_token_type: ACCESS_TOKEN_TYPE,
            token_type: 'Bearer',
            expires_in: 600,
          };
        },
        ['subject_token', 'subject_token_type', 'requested_token_type', 'audience', 'resource', 'scope'],
      ),
  });
  issuer = as.issuer;
  sign = (subject) => jwt({ scope: 'mcp:tools' }, subject, gatewayUrl);

  const kit = new McpServer({ name: 'crm', version: '1.0.0' });
  kit.registerTool({
    name: 'whoami',
    description: 'Says whom the request comes from.',
    inputSchema: { type: 'object' },
    handler: (_args, context) => ({ content: [{ type: 'text', text: context.auth?.subject ?? 'nobody' }] }),
  });
  const http = await listenKitAt(kit, (url) => {
    const verify = jwtBearer({ issuer, jwksUrl: `${issuer}/jwks`, audience: url });
    return {
      auth: {
        resource: url,
        authorizationServers: [issuer],
        verifyToken: async (token, context) => {
          if (revoked.has(token)) throw new BearerTokenError('invalid_token', 'the token was revoked');
          return verify(token, context);
        },
      },
    };
  });
  http.listener.prependListener('request', (req) => seenUpstream.push(req.headers.authorization ?? ''));
  upstream = { ...http, server: kit };

  const client = await registerMachineClient(issuer, ['mcp:tools'], ['client_credentials', TOKEN_EXCHANGE_GRANT]);
  const serviceToken = await machineToken(issuer, client, upstream.url, ['mcp:tools']);
  gateway = createGateway({
    manager: { servers: [{ name: 'crm', url: upstream.url, headers: { authorization: `Bearer ${serviceToken}` } }] },
    logger: () => undefined,
    tokenExchange: { servers: { crm: { issuer, clientId: client.clientId, clientSecret: client.clientSecret } } },
  });
  await gateway.ready;
  served = await serveGateway(gateway, (url) => {
    gatewayUrl ||= url;
    return {
      auth: {
        resource: url,
        authorizationServers: [issuer],
        verifyToken: keepSubjectTokens(jwtBearer({ issuer, jwksUrl: `${issuer}/jwks`, audience: gatewayUrl })),
      },
    };
  });
}, 30_000);

afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()));
  await served?.close();
  await gateway?.close();
  await upstream?.close();
  await upstream?.server.close();
  await as?.close();
});

const text = (result: { content?: unknown[] }) => (result.content?.[0] as TextContent).text;

/** A downstream client of `subject`, with the token it presents. */
async function as_(subject: string): Promise<{ client: McpClient; token: string }> {
  const token = await sign(subject);
  const client = await connectClient({ url: served.url, headers: { authorization: `Bearer ${token}` } });
  clients.push(client);
  return { client, token };
}

describe('token exchange for an upstream', () => {
  it('lets each user reach the upstream as themselves', async () => {
    const [alice, bob] = await Promise.all([as_('alice'), as_('bob')]);
    expect((await alice.client.listTools()).map((tool) => tool.name)).toEqual(['crm__whoami']);
    expect(text(await alice.client.callTool('crm__whoami', {}))).toBe('alice');
    expect(text(await bob.client.callTool('crm__whoami', {}))).toBe('bob');
  });

  it('never sends the caller’s token upstream: only tokens of the upstream’s audience arrive', async () => {
    const dave = await as_('dave');
    expect(text(await dave.client.callTool('crm__whoami', {}))).toBe('dave');
    expect(seenUpstream.length).toBeGreaterThan(0);
    for (const header of seenUpstream) {
      expect(header).not.toContain(dave.token);
      const claims = jose.decodeJwt(header.replace(/^Bearer /, ''));
      expect(claims.aud).toBe(upstream.url);
    }
    const subjects = new Set(seenUpstream.map((header) => jose.decodeJwt(header.replace(/^Bearer /, '')).sub));
    expect(subjects).toContain('dave');
  });

  it('exchanges once per user, however many calls', async () => {
    const carol = await as_('carol');
    expect(text(await carol.client.callTool('crm__whoami', {}))).toBe('carol');
    expect(text(await carol.client.callTool('crm__whoami', {}))).toBe('carol');
    expect(exchanged.filter((sub) => sub === 'carol')).toEqual(['carol']);
  });

  it('exchanges again when the upstream stops taking the exchanged token', async () => {
    const erin = await as_('erin');
    expect(text(await erin.client.callTool('crm__whoami', {}))).toBe('erin');
    for (const header of seenUpstream)
      if (jose.decodeJwt(header.replace(/^Bearer /, '')).sub === 'erin') revoked.add(header.replace(/^Bearer /, ''));
    expect(text(await erin.client.callTool('crm__whoami', {}))).toBe('erin');
    expect(exchanged.filter((sub) => sub === 'erin')).toEqual(['erin', 'erin']);
  });

  it('answers a refused exchange with an error naming the server, and no token', async () => {
    const mallory = await as_('mallory');
    const result = await mallory.client.callTool('crm__whoami', {});
    expect(result.isError).toBe(true);
    const error = (result.structuredContent as { error: { code: string; message: string } }).error;
    expect(error.code).toBe('UPSTREAM_AUTH');
    expect(error.message).toContain('"crm"');
    expect(error.message).toContain('invalid_grant');
    expect(text(result)).not.toContain(mallory.token);
    expect(seenUpstream.some((header) => jose.decodeJwt(header.replace(/^Bearer /, '')).sub === 'mallory')).toBe(false);
  });
});

describe('a call without a token to exchange', () => {
  it('is refused with an error naming the server', async () => {
    const upstreams = new PerPrincipalUpstreams(
      { servers: { crm: { tokenEndpoint: 'http://127.0.0.1:1/token', clientId: 'x' } } },
      { spec: () => undefined, clientOptions: {} },
    );
    await expect(upstreams.lease('crm', undefined)).rejects.toMatchObject({
      toolCode: 'UPSTREAM_AUTH',
      message: expect.stringContaining('"crm"'),
    });
    await expect(upstreams.lease('crm', { subject: 'alice', scopes: [] })).rejects.toMatchObject({
      toolCode: 'UPSTREAM_AUTH',
    });
    await upstreams.close();
  });
});

describe('token exchange options', () => {
  it('are checked before anything starts', () => {
    const manager = { servers: [] };
    expect(() => createGateway({ manager, tokenExchange: { servers: { crm: { clientId: 'x' } } } })).toThrow(
      /needs one of "tokenEndpoint" or "issuer"/,
    );
    expect(() =>
      createGateway({
        manager,
        tokenExchange: { servers: { crm: { issuer: 'http://127.0.0.1:1', clientId: 'x', secret: 'y' } } } as never,
      }),
    ).toThrow(/unknown key "secret"/);
    expect(() =>
      createGateway({ manager, tokenExchange: { servers: { crm: { issuer: 'http://example.com', clientId: 'x' } } } }),
    ).toThrow(/HTTPS/);
  });
});
