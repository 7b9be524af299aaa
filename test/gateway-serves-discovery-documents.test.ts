/**
 * The documents a client finds a gateway by, served beside its endpoints on one listener
 * (`gatewayHttp`): each endpoint's Protected Resource Metadata at the well-known path of its
 * resource (the root's and each virtual server's), where a 401 points; each endpoint's Server
 * Card (the root's under the card's name, a virtual server's under `NAME-VIRTUAL` with its own
 * description); the catalog with the root's entry; nothing else.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGateway, type Gateway } from '../src/gateway/index.js';
import { jwtBearer } from '../src/server/index.js';
import { kitModernUpstream, serveGateway } from './support/gateway-upstreams.js';

const ISSUER = 'https://login.example.com';
let kit: Awaited<ReturnType<typeof kitModernUpstream>>;
let gateway: Gateway;
let served: { url: string; close(): Promise<void> };

beforeAll(async () => {
  kit = await kitModernUpstream();
  gateway = createGateway({
    name: 'com.example/gateway',
    manager: { servers: [{ name: 'kit', url: kit.url }] },
    virtualServers: { adder: { tools: ['kit__add'], description: 'Adds numbers' } },
    logger: () => undefined,
  });
  await gateway.ready;
  served = await serveGateway(
    gateway,
    (url) => ({
      // Never asked to verify here: every request below comes without a token.
      auth: {
        resource: url,
        authorizationServers: [ISSUER],
        verifyToken: jwtBearer({ issuer: ISSUER, audience: url }),
      },
    }),
    { name: 'com.example/gateway', description: 'Every team server behind one endpoint' },
  );
}, 30_000);

afterAll(async () => {
  await served?.close();
  await gateway?.close();
  await kit?.close();
});

const json = async (url: string | URL) => {
  const response = await fetch(url);
  expect(response.status, String(url)).toBe(200);
  return (await response.json()) as Record<string, unknown>;
};

describe('a gateway with auth and a card', () => {
  it("serves each endpoint's Protected Resource Metadata where its 401 points", async () => {
    for (const endpoint of [served.url, `${served.url}/adder`]) {
      const refused = await fetch(endpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
      });
      expect(refused.status).toBe(401);
      const pointer = /resource_metadata="([^"]+)"/.exec(refused.headers.get('www-authenticate') ?? '')?.[1];
      expect(pointer, 'the 401 names its metadata').toBeDefined();
      expect(new URL(pointer!).pathname).toBe(`/.well-known/oauth-protected-resource${new URL(endpoint).pathname}`);
      expect(await json(pointer!)).toMatchObject({ resource: endpoint, authorization_servers: [ISSUER] });
    }
  });

  it("serves the root's and each virtual server's Server Card, and the catalog", async () => {
    expect(await json(`${served.url}/server-card`)).toMatchObject({
      name: 'com.example/gateway',
      description: 'Every team server behind one endpoint',
      remotes: [expect.objectContaining({ url: served.url })],
    });
    expect(await json(`${served.url}/adder/server-card`)).toMatchObject({
      name: 'com.example/gateway-adder',
      description: 'Adds numbers',
      remotes: [expect.objectContaining({ url: `${served.url}/adder` })],
    });
    const catalog = await json(new URL('/.well-known/mcp/catalog.json', served.url));
    expect(catalog.entries).toEqual([expect.objectContaining({ url: `${served.url}/server-card` })]);
  });

  it('answers 404 for a path that is none of its endpoints or documents', async () => {
    for (const path of [
      '/elsewhere',
      '/mcp/nobody',
      '/mcp/nobody/server-card',
      '/.well-known/oauth-protected-resource/x',
    ])
      expect((await fetch(new URL(path, served.url))).status, path).toBe(404);
  });
});
