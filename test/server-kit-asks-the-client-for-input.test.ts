/**
 * A tool asking its client for input through the kit's one API (`elicit`, `sample`,
 * `listRoots`): on a legacy connection the kit sends server→client requests — over an
 * in-memory pair and over HTTP with a session (the request on the POST's SSE stream, the answer
 * POSTed back) — and the answers reach the tool. A client without the capability, and a 2026-07-28
 * request (multi-round-trip input is not served yet), get `INPUT_UNSUPPORTED`, which the tool
 * can catch.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { McpClient } from '../src/client/mcp-client.js';
import { isMcpError } from '../src/protocol/errors.js';
import { McpServer } from '../src/server/index.js';
import { createLinkedPair } from '../src/transport/memory.js';
import { listenKit } from './support/kit-http.js';

function makeServer(): McpServer {
  const server = new McpServer({ name: 'asker', version: '1', logger: () => undefined });
  server.registerTool({
    name: 'ask_all',
    inputSchema: { type: 'object' },
    handler: async (_args, context) => {
      try {
        const answer = await context.elicit({ message: 'Your name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } } as never);
        const sampled = await context.sample({ messages: [{ role: 'user', content: { type: 'text', text: 'Say hi' } }], maxTokens: 10 } as never);
        const roots = await context.listRoots();
        return { structuredContent: { answer, sampled, roots } };
      } catch (error) {
        if (isMcpError(error, 'INPUT_UNSUPPORTED')) return { content: [{ type: 'text', text: `unsupported: ${error.message}` }], isError: true };
        throw error;
      }
    },
  });
  return server;
}

const HANDLERS = {
  elicitation: () => ({ action: 'accept' as const, content: { name: 'Ada' } }),
  sampling: () => ({ role: 'assistant' as const, content: { type: 'text' as const, text: 'hi!' }, model: 'test-model' }),
  roots: () => [{ uri: 'file:///work', name: 'work' }],
};

const EXPECTED = {
  answer: { action: 'accept', content: { name: 'Ada' } },
  sampled: { role: 'assistant', content: { type: 'text', text: 'hi!' }, model: 'test-model' },
  roots: { roots: [{ uri: 'file:///work', name: 'work' }] },
};

const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const item of open.splice(0).reverse()) await item.close();
});

async function overMemory(era: 'legacy' | 'modern', handlers: Record<string, unknown>): Promise<McpClient> {
  const server = makeServer();
  const [clientEnd, serverEnd] = createLinkedPair();
  open.push(server);
  server.connect(serverEnd);
  const client = await McpClient.connect(clientEnd, { era, handlers });
  open.push(client);
  return client;
}

describe('server→client input', () => {
  it('reaches a legacy client over a message pipe, and its answers reach the tool', async () => {
    const client = await overMemory('legacy', HANDLERS);
    const result = await client.callTool('ask_all', {});
    expect(result.structuredContent).toEqual(EXPECTED);
  });

  it('reaches a legacy client over HTTP with a session', async () => {
    const kit = await listenKit(makeServer());
    open.push(kit);
    const client = await McpClient.connect({ url: kit.url }, { era: 'legacy', handlers: HANDLERS });
    open.push(client);
    expect((await client.callTool('ask_all', {})).structuredContent).toEqual(EXPECTED);
  });

  it('is INPUT_UNSUPPORTED for a client without the capability', async () => {
    const client = await overMemory('legacy', {});
    const result = await client.callTool('ask_all', {});
    expect(result.isError).toBe(true);
    expect(result.content).toEqual([{ type: 'text', text: expect.stringContaining('did not declare the "elicitation" capability') }]);
  });

  it('is INPUT_UNSUPPORTED for a 2026-07-28 request (multi-round-trip input is not served yet)', async () => {
    const client = await overMemory('modern', HANDLERS);
    const result = await client.callTool('ask_all', {});
    expect(result.content).toEqual([{ type: 'text', text: expect.stringContaining('not available to 2026-07-28 requests') }]);
  });
});
