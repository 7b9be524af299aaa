/**
 * Resources, resource templates, prompts and completion on the kit, seen by mcpwire's client in
 * both eras over an in-memory pair: listing, reading (a template's variables), not found in each
 * era's code, prompts with required arguments, completion, and the legacy notices (list_changed
 * from disposers, resources/updated after a subscribe and not after the unsubscribe).
 */
import { describe, expect, it } from 'vitest';
import { McpServer } from '../src/server/index.js';
import { connectKitClient } from './support/kit-memory.js';
import { eventually } from './support/wait.js';

function makeServer(): McpServer {
  const server = new McpServer({ name: 'content', version: '1', logger: () => undefined });
  server.registerResource({
    uri: 'test://readme',
    name: 'readme',
    description: 'The readme',
    mimeType: 'text/plain',
    read: (uri) => [{ uri, mimeType: 'text/plain', text: 'hello' }],
  });
  server.registerResourceTemplate({
    uriTemplate: 'test://users/{id}/profile',
    name: 'profile',
    mimeType: 'application/json',
    read: (uri, { id }) => [{ uri, mimeType: 'application/json', text: JSON.stringify({ id }) }],
    complete: { id: (value) => ['alice', 'albert', 'bob'].filter((v) => v.startsWith(value)) },
  });
  server.registerPrompt({
    name: 'greet',
    description: 'Greets someone',
    arguments: [{ name: 'name', required: true }, { name: 'tone' }],
    get: ({ name, tone }) => ({
      messages: [{ role: 'user', content: { type: 'text', text: `Say hello to ${name}${tone ? ` (${tone})` : ''}` } }],
    }),
    complete: {
      tone: (value, { arguments: given }) =>
        ['warm', 'formal'].filter((v) => v.startsWith(value)).map((v) => (given.name ? `${v} for ${given.name}` : v)),
    },
  });
  return server;
}

describe.each(['legacy', 'modern'] as const)('content in the %s era', (era) => {
  it('lists and reads resources, a template with its variables, and says not found', async () => {
    const client = await connectKitClient(makeServer(), { era });
    expect(client.capabilities).toMatchObject({ resources: {}, prompts: {}, completions: {} });
    expect(await client.listResources()).toEqual([
      { uri: 'test://readme', name: 'readme', description: 'The readme', mimeType: 'text/plain' },
    ]);
    expect(await client.listResourceTemplates()).toEqual([
      { uriTemplate: 'test://users/{id}/profile', name: 'profile', mimeType: 'application/json' },
    ]);
    expect((await client.readResource('test://readme')).contents).toEqual([
      { uri: 'test://readme', mimeType: 'text/plain', text: 'hello' },
    ]);
    expect((await client.readResource('test://users/a%20b/profile')).contents).toEqual([
      { uri: 'test://users/a%20b/profile', mimeType: 'application/json', text: '{"id":"a b"}' },
    ]);
    await expect(client.readResource('test://nothing')).rejects.toMatchObject({
      rpcCode: era === 'modern' ? -32602 : -32002,
    });
  });

  it('gets prompts, refusing one without its required argument, and completes arguments', async () => {
    const client = await connectKitClient(makeServer(), { era });
    expect((await client.listPrompts()).map((p) => p.name)).toEqual(['greet']);
    expect((await client.getPrompt('greet', { name: 'Ada', tone: 'warm' })).messages).toEqual([
      { role: 'user', content: { type: 'text', text: 'Say hello to Ada (warm)' } },
    ]);
    await expect(client.getPrompt('greet', {})).rejects.toMatchObject({
      rpcCode: -32602,
      message: expect.stringContaining('name'),
    });
    await expect(client.getPrompt('nope', {})).rejects.toMatchObject({ rpcCode: -32602 });
    expect(
      await client.complete({ type: 'ref/resource', uri: 'test://users/{id}/profile' }, { name: 'id', value: 'al' }),
    ).toEqual({ values: ['alice', 'albert'], total: 2, hasMore: false });
    expect(
      (
        await client.complete(
          { type: 'ref/prompt', name: 'greet' },
          { name: 'tone', value: 'f' },
          { context: { arguments: { name: 'Ada' } } },
        )
      ).values,
    ).toEqual(['formal for Ada']);
    expect((await client.complete({ type: 'ref/prompt', name: 'greet' }, { name: 'name', value: 'x' })).values).toEqual(
      [],
    );
  });
});

describe('legacy notices', () => {
  it('list_changed for resources and prompts, resources/updated only while subscribed', async () => {
    const server = makeServer();
    const client = await connectKitClient(server, { era: 'legacy' });
    const seen: string[] = [];
    client.on('resourcesChanged', () => seen.push('resources'));
    client.on('promptsChanged', () => seen.push('prompts'));
    const updates: string[] = [];
    client.on('resourceUpdated', (params) => updates.push(params.uri));

    const disposeResource = server.registerResource({
      uri: 'test://late',
      name: 'late',
      read: (uri) => [{ uri, text: '' }],
    });
    const disposePrompt = server.registerPrompt({ name: 'late', get: () => ({ messages: [] }) });
    await eventually(() => (seen.includes('resources') && seen.includes('prompts') ? true : undefined), {
      what: 'both list_changed notices',
    });
    disposeResource();
    disposePrompt();

    const unsubscribe = await client.subscribeResource('test://readme');
    server.notifyResourceUpdated('test://readme');
    server.notifyResourceUpdated('test://other');
    await eventually(() => (updates.length === 1 ? true : undefined), { what: 'the update notice' });
    await unsubscribe();
    server.notifyResourceUpdated('test://readme');
    // A ping after the unsubscribe: any notice sent before its answer would have arrived first.
    await client.ping();
    expect(updates).toEqual(['test://readme']);
  });
});
