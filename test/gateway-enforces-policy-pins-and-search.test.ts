/**
 * The gateway as a platform team runs it: downstream JWT bearer auth (keys served as a JWKS by
 * this test), policies per principal and scope applied to lists and enforced on calls, gets and
 * reads, a virtual server, a rate limit per principal, rug-pull pinning (a tool whose
 * description changes upstream is withheld until approved from another process, as
 * `mcpwire gateway approve` does), and search mode. Upstreams: the official SDK v1 server and an
 * mcpwire kit server, real processes and listeners.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGateway, type Gateway } from '../src/gateway/index.js';
import { PinStore } from '../src/gateway/pins/pin-store.js';
import { jwtBearer } from '../src/server/index.js';
import type { TextContent } from '../src/protocol/types.js';
import { connectClient } from './support/client.js';
import { serveGateway, startGatewayScene, type GatewayScene } from './support/gateway-upstreams.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { startJwtIssuer, type JwtIssuer } from './support/jwt-issuer.js';
import { until, within } from './support/wait.js';

let dir: string;
let scene: GatewayScene;
let jwt: JwtIssuer;
let sign: (subject: string, scope: string) => Promise<string>;
let pinsFile: string;

beforeAll(async () => {
  jwt = await startJwtIssuer();
  const { issuer } = jwt;
  let audience = '';
  sign = (subject, scope) => jwt.sign(subject, audience, { scope });
  dir = mkdtempSync(path.join(tmpdir(), 'mcpwire-gateway-policy-'));
  pinsFile = path.join(dir, 'pins.json');
  scene = await startGatewayScene(
    [],
    {
      policies: [
        { name: 'everyone', allow: ['v1__echo', 'v1__described', 'kit'] },
        { name: 'admins', scope: 'admin', allow: ['v1'] },
      ],
      virtualServers: { readonly: { tools: ['v1__echo', 'kit__add'] } },
      rateLimit: { capacity: 5, refillPerSecond: 0.0001 },
      pins: { file: pinsFile },
    },
    (url) => {
      // Every endpoint's tokens name the gateway's root as their audience.
      if (!audience) audience = url;
      return {
        auth: {
          resource: url,
          authorizationServers: [issuer],
          verifyToken: jwtBearer({ issuer, jwksUrl: jwt.jwksUrl, audience }),
        },
      };
    },
  );
}, 60_000);

afterAll(async () => {
  await scene?.close();
  await jwt?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const text = (result: { content: unknown[] }) => (result.content[0] as TextContent).text;
const as = async (subject: string, scope: string, url = scene.url) =>
  connectClient({ url, headers: { authorization: `Bearer ${await sign(subject, scope)}` } }, { era: 'legacy' });

describe('policies per principal', () => {
  it('show a user only what everyone may reach, in lists and on calls, gets and reads', async () => {
    const alice = await as('alice', 'user');
    const tools = (await alice.listTools()).map((tool) => tool.name).sort();
    expect(tools).toEqual(['kit__add', 'kit__confirm', 'v1__described', 'v1__echo']);
    expect(text(await alice.callTool('v1__echo', { text: 'hi' }))).toBe('hi');
    await expect(alice.callTool('v1__steps', { count: 1 })).rejects.toMatchObject({ rpcCode: -32602 });
    const uris = (await alice.listResources()).map((resource) => resource.uri);
    expect(uris).toContain('mcpwire://kit/kit://readme');
    expect(uris.some((uri) => uri.startsWith('mcpwire://v1/'))).toBe(false);
    await expect(alice.readResource('mcpwire://v1/note://one')).rejects.toMatchObject({ rpcCode: -32002 });
    expect(await alice.listPrompts()).toEqual([]);
  });

  it('give a scope what its rule allows beyond that', async () => {
    const admin = await as('root', 'admin');
    const tools = (await admin.listTools()).map((tool) => tool.name);
    expect(tools).toEqual(expect.arrayContaining(['v1__steps', 'v1__ask_user', 'kit__add']));
    expect(text(await admin.callTool('v1__steps', { count: 2 }))).toBe('2 steps');
    expect((await admin.listPrompts()).map((prompt) => prompt.name)).toContain('v1__greet');
  });

  it('refuse a request without a token', async () => {
    await expect(connectClient({ url: scene.url }, { era: 'legacy' })).rejects.toMatchObject({ code: 'AUTH_REQUIRED' });
  });

  it('serve a virtual server with its own tool set, policies still applied', async () => {
    const admin = await as('root', 'admin', `${scene.url}/readonly`);
    expect((await admin.listTools()).map((tool) => tool.name).sort()).toEqual(['kit__add', 'v1__echo']);
    await expect(admin.callTool('v1__steps', { count: 1 })).rejects.toMatchObject({ rpcCode: -32602 });
  });

  it('limit each principal to its bucket of calls', async () => {
    const carol = await as('carol', 'user');
    for (let i = 0; i < 5; i++) expect((await carol.callTool('v1__echo', { text: String(i) })).isError).toBeFalsy();
    const refused = await carol.callTool('v1__echo', { text: 'one too many' });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toMatch(/RATE_LIMITED/);
    // Another principal's bucket is its own.
    const dave = await as('dave', 'user');
    expect((await dave.callTool('v1__echo', { text: 'mine' })).isError).toBeFalsy();
  });
});

describe('pinning', () => {
  it('withholds a tool whose definition changed upstream until it is approved', async () => {
    const admin = await as('root', 'admin');
    expect((await admin.listTools()).some((tool) => tool.name === 'v1__described')).toBe(true);
    let changed = new Promise<void>((resolve) => admin.on('toolsChanged', () => resolve()));
    await admin.callTool('v1__rewrite_description', { text: 'Sends your files elsewhere.' });
    await within(changed, { what: 'list_changed once the tool changed' });
    await until(async () => !(await admin.listTools({ refresh: true })).some((t) => t.name === 'v1__described'), {
      what: 'the changed tool to be withheld',
    });
    const refused = await admin.callTool('v1__described', {});
    expect(refused.isError).toBe(true);
    expect(text(refused)).toMatch(
      /changed since it was approved \(description\).*mcpwire gateway approve v1__described/,
    );

    changed = new Promise<void>((resolve) => admin.on('toolsChanged', () => resolve()));
    const other = await PinStore.open(pinsFile);
    expect(await other.approve(['v1__described'])).toEqual(['v1__described']);
    await within(changed, { what: 'list_changed once the change was approved' });
    const listed = (await admin.listTools({ refresh: true })).find((tool) => tool.name === 'v1__described');
    expect(listed?.description).toBe('Sends your files elsewhere.');
    expect(text(await admin.callTool('v1__described', {}))).toBe('described ran');
  });
});

describe('search mode', () => {
  let gateway: Gateway;
  let served: { url: string; close(): Promise<void> };
  beforeAll(async () => {
    gateway = createGateway({
      manager: {
        servers: [
          { name: 'v1', url: scene.v1.url },
          { name: 'kit', url: scene.kit.url },
        ],
      },
      mode: 'search',
      policies: [{ deny: ['kit'] }],
      logger: () => undefined,
    });
    await gateway.ready;
    served = await serveGateway(gateway);
  }, 30_000);
  afterAll(async () => {
    await served?.close();
    await gateway?.close();
  });

  it('serves two tools; search ranks what the caller may reach, and call_tool calls it', async () => {
    const client = await connectClient({ url: served.url }, { era: 'modern' });
    expect((await client.listTools()).map((tool) => tool.name).sort()).toEqual(['call_tool', 'search_tools']);
    const found = await client.callTool('search_tools', { query: 'report progress for each step' });
    const hits = (found.structuredContent as { tools: Array<{ name: string; inputSchema: unknown }> }).tools;
    expect(hits[0]?.name).toBe('v1__steps');
    expect(hits[0]?.inputSchema).toMatchObject({ type: 'object' });
    const adds = await client.callTool('search_tools', { query: 'adds two numbers' });
    expect((adds.structuredContent as { tools: Array<{ name: string }> }).tools.map((t) => t.name)).not.toContain(
      'kit__add',
    );
    expect(text(await client.callTool('call_tool', { name: 'v1__echo', arguments: { text: 'found' } }))).toBe('found');
    const denied = await client.callTool('call_tool', { name: 'kit__add', arguments: { a: 1, b: 2 } });
    expect(denied.isError).toBe(true);
    expect(text(denied)).toMatch(/UNKNOWN_TOOL/);
  });
});
