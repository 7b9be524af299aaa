/**
 * The kit asks a client only for input it declared it can give (2025-11-25 client/elicitation:
 * "Servers MUST NOT send elicitation requests with modes that are not supported by the client";
 * `elicitation: {}` means form only; client/sampling: no `tools` without `sampling.tools`): a
 * URL-mode elicitation to a form-only client, a form one to a URL-only client and a sampling
 * request with tools to a client without `sampling.tools` reject in the handler with
 * `INPUT_UNSUPPORTED` (which it can catch; uncaught, the call ends in an `INPUT_UNSUPPORTED`
 * tool error) and nothing is sent — in both eras (a legacy server→client request, a 2026
 * `input_required` round). What the client declared still goes out.
 */
import { describe, expect, it } from 'vitest';
import { isMcpError } from '../src/protocol/errors.js';
import { McpServer } from '../src/server/index.js';
import { rawKitPeer, type RawKitPeer } from './support/kit-memory.js';
import { eventually } from './support/wait.js';

const ASKS = {
  url: (context: any) =>
    context.elicit({ mode: 'url', message: 'Sign in', url: 'https://example.com/login', elicitationId: 'e1' }),
  form: (context: any) =>
    context.elicit({ message: 'Name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } }),
  samplingTools: (context: any) =>
    context.sample({
      messages: [{ role: 'user', content: { type: 'text', text: 'Weather?' } }],
      maxTokens: 10,
      tools: [{ name: 'weather', inputSchema: { type: 'object' } }],
    }),
};
type Ask = keyof typeof ASKS;

function makeServer(): McpServer {
  const server = new McpServer({ name: 'asker', version: '1', logger: () => undefined });
  server.registerTool<{ ask: Ask }>({
    name: 'ask',
    inputSchema: { type: 'object', properties: { ask: { type: 'string' } }, required: ['ask'] },
    handler: async ({ ask }, context) => {
      try {
        return { structuredContent: { answer: await ASKS[ask](context) } };
      } catch (error) {
        if (isMcpError(error, 'INPUT_UNSUPPORTED')) return { content: [{ type: 'text', text: error.message }] };
        throw error;
      }
    },
  });
  server.registerTool({
    name: 'ask_uncaught',
    inputSchema: { type: 'object' },
    handler: async (_args, context) => ({ structuredContent: { answer: await ASKS.url(context) } }),
  });
  return server;
}

/** The first message answering `id` or asking the client something (a server→client request). */
function nextFor(peer: RawKitPeer, id: number): Promise<Record<string, unknown>> {
  return eventually(
    () => peer.received.find((m) => m.id === id || (typeof m.method === 'string' && m.id !== undefined)),
    { what: `the answer to ${id} or a request to the client` },
  );
}

async function legacyPeer(capabilities: Record<string, unknown>): Promise<RawKitPeer> {
  const peer = rawKitPeer(makeServer());
  const init = await peer.ask('initialize', {
    protocolVersion: '2025-11-25',
    capabilities,
    clientInfo: { name: 'raw', version: '1' },
  });
  expect(init.result).toBeDefined();
  await peer.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  return peer;
}

const REFUSED: Array<[Ask, Record<string, unknown>, string]> = [
  ['url', { elicitation: {} }, 'elicitation.url'],
  ['url', { elicitation: { form: {} } }, 'elicitation.url'],
  ['form', { elicitation: { url: {} } }, 'elicitation.form'],
  ['samplingTools', { sampling: {} }, 'sampling.tools'],
];

const SENT: Array<[Ask, Record<string, unknown>, string]> = [
  ['url', { elicitation: { url: {} } }, 'elicitation/create'],
  ['form', { elicitation: {} }, 'elicitation/create'],
  ['form', { elicitation: { form: {}, url: {} } }, 'elicitation/create'],
  ['samplingTools', { sampling: { tools: {} } }, 'sampling/createMessage'],
];

describe('legacy (a server→client request)', () => {
  it.each(REFUSED)(
    '%s to a client declaring %j: INPUT_UNSUPPORTED naming %s, nothing sent',
    async (ask, caps, missing) => {
      const peer = await legacyPeer(caps);
      await peer.send({ jsonrpc: '2.0', id: 100, method: 'tools/call', params: { name: 'ask', arguments: { ask } } });
      const next = await nextFor(peer, 100);
      expect(next.method).toBeUndefined();
      expect(next.result).toMatchObject({
        content: [{ type: 'text', text: expect.stringContaining(`did not declare the "${missing}" capability`) }],
      });
    },
  );

  it.each(SENT)('%s to a client declaring %j is sent (%s)', async (ask, caps, method) => {
    const peer = await legacyPeer(caps);
    await peer.send({ jsonrpc: '2.0', id: 100, method: 'tools/call', params: { name: 'ask', arguments: { ask } } });
    const request = await nextFor(peer, 100);
    expect(request.method).toBe(method);
    await peer.send({ jsonrpc: '2.0', id: request.id, result: { action: 'decline' } });
    const answer = await peer.answerTo(100);
    expect(answer.result).toMatchObject({ structuredContent: { answer: { action: 'decline' } } });
  });
});

describe('2026-07-28 (an input_required round)', () => {
  function call(peer: RawKitPeer, ask: Ask, caps: Record<string, unknown>) {
    return peer.ask('tools/call', {
      name: 'ask',
      arguments: { ask },
      _meta: {
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientCapabilities': caps,
      },
    });
  }

  it.each(REFUSED)(
    '%s to a request declaring %j: INPUT_UNSUPPORTED naming %s, nothing asked',
    async (ask, caps, missing) => {
      const answer = await call(rawKitPeer(makeServer()), ask, caps);
      expect(answer.result).toMatchObject({
        resultType: 'complete',
        content: [{ type: 'text', text: expect.stringContaining(`did not declare the "${missing}" capability`) }],
      });
    },
  );

  it.each(SENT)('%s to a request declaring %j is asked (%s)', async (ask, caps, method) => {
    const answer = await call(rawKitPeer(makeServer()), ask, caps);
    expect(answer.result).toMatchObject({ resultType: 'input_required', inputRequests: { 'input-1': { method } } });
  });
});

it('a refusal the handler does not catch is an INPUT_UNSUPPORTED tool error naming the capability, not an internal error', async () => {
  const peer = await legacyPeer({ elicitation: { form: {} } });
  const answer = await peer.ask('tools/call', { name: 'ask_uncaught', arguments: {} });
  expect(answer.result).toMatchObject({
    isError: true,
    content: [{ type: 'text', text: expect.stringContaining('"code":"INPUT_UNSUPPORTED"') }],
  });
  expect(JSON.stringify(answer.result)).toContain('elicitation.url');
  expect(peer.received.some((m) => m.method === 'elicitation/create')).toBe(false);
});
