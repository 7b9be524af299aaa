import { describe, expect, it } from 'vitest';
import { connectTo, legacyPeer, modernPeer } from './support/fake-servers.js';
import { invalidClientTraffic } from './support/fake-servers.js';

const STATE = 'opaque \u2028 "state" \\ with ünïcode';

describe('2026 multi-round-trip requests', () => {
  it('fulfils input requests through the handlers and retries with a new id, the same params, inputResponses and the untouched requestState', async () => {
    let rounds = 0;
    const { client, peer } = await connectTo(
      (p) =>
        modernPeer(p).on('tools/call', (m) => {
          rounds++;
          if (rounds === 1) {
            return {
              resultType: 'input_required',
              requestState: STATE,
              inputRequests: {
                who: {
                  method: 'elicitation/create',
                  params: {
                    mode: 'form',
                    message: 'Name?',
                    requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
                  },
                },
                where: { method: 'roots/list', params: {} },
              },
            };
          }
          const params = m.params as Record<string, unknown>;
          return { resultType: 'complete', content: [{ type: 'text', text: JSON.stringify(params.inputResponses) }] };
        }),
      {
        handlers: {
          elicitation: (params) => ({ action: 'accept', content: { name: `answer to ${params.message}` } }),
          roots: () => [{ uri: 'file:///work', name: 'work' }],
        },
      },
    );
    const result = await client.callTool('book', { seats: 2 });
    expect(result.content[0]).toEqual({
      type: 'text',
      text: JSON.stringify({
        who: { action: 'accept', content: { name: 'answer to Name?' } },
        where: { roots: [{ uri: 'file:///work', name: 'work' }] },
      }),
    });
    const calls = peer.received.filter((m) => m.method === 'tools/call');
    expect(calls).toHaveLength(2);
    expect(calls[1]!.id).not.toBe(calls[0]!.id);
    const retry = calls[1]!.params as Record<string, unknown>;
    expect(retry.name).toBe('book');
    expect(retry.arguments).toEqual({ seats: 2 });
    expect(retry.requestState).toBe(STATE);
    expect(Object.keys(retry.inputResponses as object).sort()).toEqual(['where', 'who']);
    expect((calls[0]!.params as Record<string, unknown>).inputResponses).toBeUndefined();
    expect(invalidClientTraffic(peer, client.protocolVersion)).toEqual([]);
    await client.close();
  });

  it('retries at once with only the requestState when no input is requested', async () => {
    let rounds = 0;
    const { client, peer } = await connectTo((p) =>
      modernPeer(p).on('prompts/get', () =>
        ++rounds === 1
          ? { resultType: 'input_required', requestState: 's1' }
          : { resultType: 'complete', messages: [] },
      ),
    );
    await expect(client.getPrompt('p')).resolves.toMatchObject({ messages: [] });
    const retry = peer.received.filter((m) => m.method === 'prompts/get')[1]!.params as Record<string, unknown>;
    expect(retry.requestState).toBe('s1');
    expect(retry).not.toHaveProperty('inputResponses');
    await client.close();
  });

  it('gives up after the round cap with INPUT_ROUNDS_EXCEEDED', async () => {
    const { client, peer } = await connectTo(
      (p) => modernPeer(p).on('resources/read', () => ({ resultType: 'input_required', requestState: 'again' })),
      { maxInputRounds: 3 },
    );
    await expect(client.readResource('x://y')).rejects.toMatchObject({
      code: 'INPUT_ROUNDS_EXCEEDED',
      method: 'resources/read',
    });
    expect(peer.methods().filter((m) => m === 'resources/read')).toHaveLength(4);
    await client.close();
  });

  it('rejects an unknown resultType as a protocol error', async () => {
    const { client } = await connectTo((p) =>
      modernPeer(p).on('tools/call', () => ({ resultType: 'mystery', content: [] })),
    );
    await expect(client.callTool('t')).rejects.toMatchObject({ code: 'PROTOCOL' });
    await client.close();
  });

  it('refuses input the client never declared with INPUT_UNSUPPORTED', async () => {
    const { client } = await connectTo((p) =>
      modernPeer(p).on('tools/call', () => ({
        resultType: 'input_required',
        inputRequests: { s: { method: 'sampling/createMessage', params: { messages: [], maxTokens: 5 } } },
      })),
    );
    await expect(client.callTool('t')).rejects.toMatchObject({ code: 'INPUT_UNSUPPORTED' });
    await client.close();
  });
});

describe('legacy server requests through the same handlers', () => {
  it('answers sampling, elicitation and roots requests from a legacy server', async () => {
    const { client, peer } = await connectTo((p) => legacyPeer(p), {
      handlers: {
        sampling: (params) => ({
          role: 'assistant',
          content: { type: 'text', text: `max ${params.maxTokens}` },
          model: 'test-model',
        }),
        elicitation: () => ({ action: 'cancel' }),
        roots: () => [{ uri: 'file:///r' }],
      },
    });
    const init = peer.received.find((m) => m.method === 'initialize')!.params as Record<string, unknown>;
    expect(init.capabilities).toEqual({
      roots: { listChanged: true },
      sampling: {},
      elicitation: { form: {}, url: {} },
    });
    await peer.send({
      jsonrpc: '2.0',
      id: 's',
      method: 'sampling/createMessage',
      params: { messages: [], maxTokens: 9 },
    });
    await peer.send({
      jsonrpc: '2.0',
      id: 'e',
      method: 'elicitation/create',
      params: { message: 'x', requestedSchema: { type: 'object', properties: {} } },
    });
    await peer.send({ jsonrpc: '2.0', id: 'r', method: 'roots/list' });
    expect((await peer.waitFor((m) => m.id === 's')).result).toEqual({
      role: 'assistant',
      content: { type: 'text', text: 'max 9' },
      model: 'test-model',
    });
    expect((await peer.waitFor((m) => m.id === 'e')).result).toEqual({ action: 'cancel' });
    expect((await peer.waitFor((m) => m.id === 'r')).result).toEqual({ roots: [{ uri: 'file:///r' }] });
    expect(invalidClientTraffic(peer, client.protocolVersion)).toEqual([]);
    await client.close();
  });

  it('declares no capability without a handler and answers such requests with -32601', async () => {
    const { client, peer } = await connectTo((p) => legacyPeer(p));
    const init = peer.received.find((m) => m.method === 'initialize')!.params as Record<string, unknown>;
    expect(init.capabilities).toEqual({});
    await peer.send({
      jsonrpc: '2.0',
      id: 'srv-1',
      method: 'sampling/createMessage',
      params: { messages: [], maxTokens: 1 },
    });
    expect(await peer.waitFor((m) => m.id === 'srv-1')).toMatchObject({ error: { code: -32601 } });
    await client.close();
  });
});
