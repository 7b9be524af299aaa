/**
 * A tool asking its client for input through the kit's one API (`elicit`, `sample`,
 * `listRoots`): on a legacy connection the kit sends server→client requests — over an
 * in-memory pair and over HTTP with a session (the request on the POST's SSE stream, the answer
 * POSTed back) — and the answers reach the tool. A client without the capability gets
 * `INPUT_UNSUPPORTED`, which the tool can catch. A 2026-07-28 request gets the same answers through `input_required`
 * rounds.
 */
import { describe, expect, it, onTestFinished } from 'vitest';
import { McpClient } from '../src/client/mcp-client.js';
import { isMcpError } from '../src/protocol/errors.js';
import { McpServer } from '../src/server/index.js';
import { startKitHttp } from './support/kit-http.js';
import { connectKitClient, rawKitPeer } from './support/kit-memory.js';

function makeServer(): McpServer {
  const server = new McpServer({ name: 'asker', version: '1', logger: () => undefined });
  server.registerTool({
    name: 'ask_all',
    inputSchema: { type: 'object' },
    handler: async (_args, context) => {
      try {
        const answer = await context.elicit({
          message: 'Your name?',
          requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
        });
        const sampled = await context.sample({
          messages: [{ role: 'user', content: { type: 'text', text: 'Say hi' } }],
          maxTokens: 10,
        } as never);
        const roots = await context.listRoots();
        return { structuredContent: { answer, sampled, roots } };
      } catch (error) {
        if (isMcpError(error, 'INPUT_UNSUPPORTED'))
          return { content: [{ type: 'text', text: `unsupported: ${error.message}` }], isError: true };
        throw error;
      }
    },
  });
  server.registerPrompt({
    name: 'personal',
    get: async (_args, context) => {
      const answer = await context.elicit(
        {
          message: 'Your name?',
          requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
        },
        { key: 'who' },
      );
      return {
        messages: [
          {
            role: 'user',
            content: {
              type: 'text',
              text: `Write to ${String((answer.content as { name?: string } | undefined)?.name)}`,
            },
          },
        ],
      };
    },
  });
  return server;
}

const HANDLERS = {
  elicitation: () => ({ action: 'accept' as const, content: { name: 'Ada' } }),
  sampling: () => ({
    role: 'assistant' as const,
    content: { type: 'text' as const, text: 'hi!' },
    model: 'test-model',
  }),
  roots: () => [{ uri: 'file:///work', name: 'work' }],
};

const EXPECTED = {
  answer: { action: 'accept', content: { name: 'Ada' } },
  sampled: { role: 'assistant', content: { type: 'text', text: 'hi!' }, model: 'test-model' },
  roots: { roots: [{ uri: 'file:///work', name: 'work' }] },
};

function overMemory(era: 'legacy' | 'modern', handlers: Record<string, unknown>): Promise<McpClient> {
  return connectKitClient(makeServer(), { era, handlers });
}

describe('server→client input', () => {
  it('reaches a legacy client over a message pipe, and its answers reach the tool', async () => {
    const client = await overMemory('legacy', HANDLERS);
    const result = await client.callTool('ask_all', {});
    expect(result.structuredContent).toEqual(EXPECTED);
  });

  it('reaches a legacy client over HTTP with a session', async () => {
    const kit = await startKitHttp(makeServer());
    const client = await McpClient.connect({ url: kit.url }, { era: 'legacy', handlers: HANDLERS });
    onTestFinished(() => client.close());
    expect((await client.callTool('ask_all', {})).structuredContent).toEqual(EXPECTED);
  });

  it('is INPUT_UNSUPPORTED for a client without the capability', async () => {
    const client = await overMemory('legacy', {});
    const result = await client.callTool('ask_all', {});
    expect(result.isError).toBe(true);
    expect(result.content).toEqual([
      { type: 'text', text: expect.stringContaining('did not declare the "elicitation" capability') },
    ]);
  });

  it('reaches a 2026-07-28 client through input_required rounds (the handler runs again with the answers)', async () => {
    const client = await overMemory('modern', HANDLERS);
    const result = await client.callTool('ask_all', {});
    expect(result.structuredContent).toEqual(EXPECTED);
  });
});

describe('prompts', () => {
  it.each(['legacy', 'modern'] as const)('ask for input too (%s)', async (era) => {
    const client = await overMemory(era, HANDLERS);
    expect((await client.getPrompt('personal', {})).messages).toEqual([
      { role: 'user', content: { type: 'text', text: 'Write to Ada' } },
    ]);
  });
});

describe('2026-07-28 request state', () => {
  const META = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientCapabilities': { elicitation: {}, sampling: {}, roots: {} },
  };

  function raw(): (params: Record<string, unknown>) => Promise<any> {
    const peer = rawKitPeer(makeServer());
    return async (params) =>
      (await peer.ask('tools/call', { name: 'ask_all', arguments: {}, _meta: META, ...params })) as any;
  }

  it('asks one round at a time and carries earlier answers in a signed requestState; an altered one is -32602', async () => {
    const call = raw();
    const first = (await call({})).result;
    expect(first).toMatchObject({
      resultType: 'input_required',
      inputRequests: { 'input-1': { method: 'elicitation/create' } },
      requestState: expect.any(String),
    });
    const second = (await call({ inputResponses: { 'input-1': EXPECTED.answer }, requestState: first.requestState }))
      .result;
    expect(second).toMatchObject({
      resultType: 'input_required',
      inputRequests: { 'input-2': { method: 'sampling/createMessage' } },
    });
    expect(Object.keys(second.inputRequests)).toEqual(['input-2']);
    // The third round sends only its own answer: the first comes back from the state.
    const third = (await call({ inputResponses: { 'input-2': EXPECTED.sampled }, requestState: second.requestState }))
      .result;
    expect(Object.keys(third.inputRequests)).toEqual(['input-3']);
    const done = (await call({ inputResponses: { 'input-3': EXPECTED.roots }, requestState: third.requestState }))
      .result;
    expect(done).toMatchObject({ resultType: 'complete', structuredContent: EXPECTED });

    const [body, mac] = (third.requestState as string).split('.');
    const forged = Buffer.from(
      JSON.stringify({
        ...JSON.parse(Buffer.from(body!, 'base64url').toString()),
        responses: { 'input-1': { action: 'decline' } },
      }),
    ).toString('base64url');
    const refused = await call({ inputResponses: { 'input-3': EXPECTED.roots }, requestState: `${forged}.${mac}` });
    expect(refused.error).toMatchObject({ code: -32602, message: expect.stringContaining('requestState') });
  });
});
