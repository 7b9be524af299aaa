/**
 * One gateway in front of three real upstreams — server-everything over stdio, the official SDK
 * v1 server over Streamable HTTP with sessions, and an mcpwire kit server a client reaches on
 * 2026-07-28 — and one configured server that cannot start. Downstream: mcpwire's client in both
 * eras and the official SDK v1 client, over HTTP. Tools, prompts, resources, templates and
 * completion of every upstream are served under `SERVER__NAME` and rewritten URIs; the server
 * that is down is reported, not dropped.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { GATEWAY_STATUS_URI, type Gateway } from '../src/gateway/index.js';
import type { Era } from '../src/protocol/revisions.js';
import type { TextContent } from '../src/protocol/types.js';
import { everythingDefinition, startGatewayScene, type GatewayScene } from './support/gateway-upstreams.js';
import { connectClient } from './support/client.js';
import { within } from './support/wait.js';

let scene: GatewayScene;
let gateway: Gateway;
let url: string;

beforeAll(async () => {
  scene = await startGatewayScene(
    [everythingDefinition('everything'), { name: 'broken', command: '/nonexistent/mcp-server-that-is-not-there' }],
    { pageSize: 7 },
  );
  ({ gateway, url } = scene);
}, 60_000);

afterAll(() => scene?.close());

const text = (result: { content: unknown[] }) => (result.content[0] as TextContent).text;

describe.each<Era>(['legacy', 'modern'])('the gateway to a %s client', (era) => {
  it('lists every upstream tool as SERVER__TOOL across pages, the separator inside a name included', async () => {
    const client = await connectClient({ url }, { era });
    const names = (await client.listTools()).map((tool) => tool.name);
    expect(names).toEqual(
      expect.arrayContaining(['v1__echo', 'v1__a__b', 'kit__add', 'kit__confirm', 'everything__echo']),
    );
    expect(names.length).toBeGreaterThan(7 * 2);
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) expect(name).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
    expect(names.some((name) => name.startsWith('broken__'))).toBe(false);
    expect(gateway.resolveTool('v1__a__b')).toEqual({ server: 'v1', tool: 'a__b' });
  });

  it('forwards calls to each upstream and brings results back as they were', async () => {
    const client = await connectClient({ url }, { era });
    expect(text(await client.callTool('v1__echo', { text: 'hi' }))).toBe('hi');
    expect(text(await client.callTool('v1__a__b', {}))).toBe('a__b ran');
    const sum = await client.callTool('kit__add', { a: 2, b: 3 });
    expect(sum.structuredContent).toEqual({ sum: 5 });
    expect(text(await client.callTool('everything__echo', { message: 'there' }))).toContain('there');
  });

  it('lists and reads resources under rewritten URIs, links included', async () => {
    const client = await connectClient({ url }, { era });
    const uris = (await client.listResources()).map((resource) => resource.uri);
    expect(uris).toEqual(
      expect.arrayContaining(['mcpwire://v1/note://one', 'mcpwire://kit/kit://readme', GATEWAY_STATUS_URI]),
    );
    expect(uris.some((uri) => uri.startsWith('mcpwire://everything/'))).toBe(true);
    const note = await client.readResource('mcpwire://v1/note://one');
    expect(note.contents).toEqual([expect.objectContaining({ uri: 'mcpwire://v1/note://one', text: 'note one' })]);
    const readme = await client.readResource('mcpwire://kit/kit://readme');
    expect(readme.contents[0]).toMatchObject({ uri: 'mcpwire://kit/kit://readme', text: 'the kit readme' });
    const linked = await client.callTool('v1__link_note', {});
    expect(linked.content[0]).toMatchObject({ type: 'resource_link', uri: 'mcpwire://v1/note://two' });
    expect((await client.readResource('mcpwire://v1/note://two')).contents[0]).toMatchObject({ text: 'note two' });
    await expect(client.readResource('mcpwire://v1/nothing://here')).rejects.toMatchObject({
      rpcCode: era === 'modern' ? -32602 : -32002,
    });
  });

  it('lists templates in their gateway form, reads what they expand to and completes their variables', async () => {
    const client = await connectClient({ url }, { era });
    const templates = (await client.listResourceTemplates()).map((template) => template.uriTemplate);
    expect(templates).toContain('mcpwire://v1/note://{id}');
    expect((await client.readResource('mcpwire://v1/note://three')).contents[0]).toMatchObject({
      uri: 'mcpwire://v1/note://three',
      text: 'note three',
    });
    const completion = await client.complete(
      { type: 'ref/resource', uri: 'mcpwire://v1/note://{id}' },
      { name: 'id', value: 't' },
    );
    expect(completion.values).toEqual(['two', 'three']);
  });

  it('serves prompts as SERVER__PROMPT, with completion of their arguments', async () => {
    const client = await connectClient({ url }, { era });
    const prompts = (await client.listPrompts()).map((prompt) => prompt.name);
    expect(prompts).toContain('v1__greet');
    const got = await client.getPrompt('v1__greet', { name: 'Ada' });
    expect(got.messages[0]!.content).toEqual({ type: 'text', text: 'Hello, Ada!' });
    const completion = await client.complete({ type: 'ref/prompt', name: 'v1__greet' }, { name: 'name', value: 'al' });
    expect(completion.values).toEqual(['alice', 'albert']);
  });

  it('reports the server that could not start in its status resource instead of dropping it', async () => {
    const client = await connectClient({ url }, { era });
    const read = await client.readResource(GATEWAY_STATUS_URI);
    const status = JSON.parse((read.contents[0] as { text: string }).text) as {
      servers: Array<{ name: string; serving: boolean; status: string; error?: string; tools: number }>;
    };
    const byName = Object.fromEntries(status.servers.map((line) => [line.name, line]));
    expect(byName.broken).toMatchObject({ serving: false, status: 'error' });
    expect(byName.broken!.error).toMatch(/nonexistent|ENOENT|not found/i);
    expect(byName.v1).toMatchObject({ serving: true, status: 'connected' });
    expect(byName.v1!.tools).toBeGreaterThan(5);
  });
});

describe('the gateway to the official SDK v1 client', () => {
  it('lists, calls and reads through Streamable HTTP', async () => {
    const client = new ClientV1({ name: 'sdk-v1-downstream', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    try {
      // The gateway pages by 7: the SDK client walks the cursors itself.
      const names: string[] = [];
      let cursor: string | undefined;
      for (let page = 0; page < 50; page++) {
        const listed = await client.listTools(cursor === undefined ? {} : { cursor });
        names.push(...listed.tools.map((tool) => tool.name));
        cursor = listed.nextCursor;
        if (cursor === undefined) break;
      }
      expect(cursor).toBeUndefined();
      expect(names).toContain('kit__add');
      const result = await client.callTool({ name: 'v1__echo', arguments: { text: 'from v1' } });
      expect((result.content as TextContent[])[0]!.text).toBe('from v1');
      const read = await client.readResource({ uri: 'mcpwire://kit/kit://readme' });
      expect(read.contents[0]).toMatchObject({ text: 'the kit readme' });
    } finally {
      await client.close();
    }
  });
});

describe('an upstream that changes', () => {
  it('reaches downstream clients as list_changed with the new definition', async () => {
    const client = await connectClient({ url }, { era: 'legacy' });
    const before = (await client.listTools()).find((tool) => tool.name === 'v1__described');
    expect(before?.description).toBe('Says the text back.');
    const changed = new Promise<void>((resolve) => client.on('toolsChanged', () => resolve()));
    await client.callTool('v1__rewrite_description', { text: 'Now says something else.' });
    await within(changed, { what: 'tools/list_changed from the gateway' });
    const after = await client.listTools({ refresh: true });
    expect(after.find((tool) => tool.name === 'v1__described')?.description).toBe('Now says something else.');
  });
});
