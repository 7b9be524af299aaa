/**
 * A resource `read` says "not found" by throwing `ResourceNotFoundError` (from `mcpwire/server`):
 * the client gets the answer a URI no resource or template has gets — JSON-RPC error -32002
 * "Resource not found" up to 2025-11-25, -32602 in 2026-07-28, with `data: { uri }` — never
 * empty contents or an internal error. Seen on the wire by a raw peer in both eras.
 */
import { describe, expect, it } from 'vitest';
import { McpServer, ResourceNotFoundError } from '../src/server/index.js';
import { rawKitPeer, type RawKitPeer } from './support/kit-memory.js';

const USERS = new Set(['ada']);

function makeServer(): McpServer {
  const server = new McpServer({ name: 'content', version: '1', logger: () => undefined });
  server.registerResourceTemplate({
    uriTemplate: 'test://users/{id}',
    name: 'user',
    read: (uri, { id }) => {
      if (!USERS.has(id!)) throw new ResourceNotFoundError(uri);
      return [{ uri, text: id! }];
    },
  });
  server.registerResource({
    uri: 'test://gone',
    name: 'gone',
    read: async (uri) => {
      throw new ResourceNotFoundError(uri, { cause: new Error('ENOENT /srv/secret/path') });
    },
  });
  return server;
}

const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
};

async function reader(era: 'legacy' | 'modern'): Promise<(uri: string) => Promise<Record<string, unknown>>> {
  const peer: RawKitPeer = rawKitPeer(makeServer());
  if (era === 'legacy') {
    await peer.ask('initialize', {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 'r', version: '1' },
    });
    await peer.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    return (uri) => peer.ask('resources/read', { uri });
  }
  return (uri) => peer.ask('resources/read', { uri, _meta: MODERN_META });
}

describe.each([
  ['legacy', -32002],
  ['modern', -32602],
] as const)('resources/read in the %s era', (era, code) => {
  it.each([
    ['a template whose read throws ResourceNotFoundError', 'test://users/bob'],
    ['a resource whose read throws ResourceNotFoundError', 'test://gone'],
    ['a URI nothing matches', 'test://nothing/here'],
  ])(`%s is ${code} "Resource not found" with the uri in data`, async (_what, uri) => {
    const read = await reader(era);
    const answer = await read(uri);
    expect(answer.result).toBeUndefined();
    expect(answer.error).toEqual({ code, message: `Resource not found: ${uri}`, data: { uri } });
  });

  it('a template that finds the resource answers its contents', async () => {
    const read = await reader(era);
    expect((await read('test://users/ada')).result).toMatchObject({
      contents: [{ uri: 'test://users/ada', text: 'ada' }],
    });
  });
});

it('ResourceNotFoundError is an McpError with code RESOURCE_NOT_FOUND and the uri', () => {
  const error = new ResourceNotFoundError('test://x');
  expect(error).toMatchObject({ name: 'ResourceNotFoundError', code: 'RESOURCE_NOT_FOUND', uri: 'test://x' });
  expect(error.toJSON()).toMatchObject({ code: 'RESOURCE_NOT_FOUND', uri: 'test://x' });
});
