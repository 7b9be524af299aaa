/**
 * What travels through the gateway besides calls and answers: progress, cancellation, and the
 * upstream's own requests — elicitation, sampling, roots — routed back to the downstream client
 * whose call caused them, in both downstream eras. Upstreams: the official SDK v1 server (legacy,
 * Streamable HTTP with sessions) and an mcpwire kit server on 2026-07-28 (an input round).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Era } from '../src/protocol/revisions.js';
import type { ProgressParams, TextContent } from '../src/protocol/types.js';
import { startGatewayScene, type GatewayScene } from './support/gateway-upstreams.js';
import { connectClient } from './support/client.js';
import { eventually } from './support/wait.js';

let scene: GatewayScene;
beforeAll(async () => void (scene = await startGatewayScene()), 60_000);
afterAll(() => scene?.close());

const text = (result: { content: unknown[] }) => (result.content[0] as TextContent).text;

const handlers = {
  elicitation: (params: { message: string }) => ({
    action: 'accept' as const,
    content: { answer: `yes to ${params.message}`, ok: true },
  }),
  sampling: () => ({
    role: 'assistant' as const,
    content: { type: 'text' as const, text: 'forty-two' },
    model: 'test-model',
  }),
  roots: () => [{ uri: 'file:///work/project', name: 'project' }],
};

describe.each<Era>(['legacy', 'modern'])('through the gateway, a %s client', (era) => {
  it('hears the upstream progress of its own call', async () => {
    const client = await connectClient({ url: scene.url }, { era });
    const heard: ProgressParams[] = [];
    const result = await client.callTool('v1__steps', { count: 3 }, { onProgress: (p) => heard.push(p) });
    expect(text(result)).toBe('3 steps');
    expect(heard.map((p) => [p.progress, p.total, p.message])).toEqual([
      [1, 3, 'step 1'],
      [2, 3, 'step 2'],
      [3, 3, 'step 3'],
    ]);
    const kitHeard: number[] = [];
    await client.callTool('kit__add', { a: 1, b: 1 }, { onProgress: (p) => kitHeard.push(p.progress) });
    expect(kitHeard).toEqual([1, 2]);
  });

  it('cancels the upstream call when it cancels its own', async () => {
    const client = await connectClient({ url: scene.url }, { era });
    const before = Number(text(await client.callTool('v1__cancelled_count', {})));
    const abort = new AbortController();
    const call = client.callTool('v1__wait_for_cancel', {}, { signal: abort.signal });
    // The upstream is running the call once the gateway has it in flight.
    await eventually(() => scene.gateway.inFlight('v1') === 1 || undefined, { what: 'the call to reach the upstream' });
    abort.abort();
    await expect(call).rejects.toMatchObject({ code: 'CANCELLED' });
    await eventually(
      async () => Number(text(await client.callTool('v1__cancelled_count', {}))) === before + 1 || undefined,
      { what: 'the upstream to see the cancel' },
    );
  });

  it("answers the upstream's elicitation, sampling and roots requests", async () => {
    const client = await connectClient({ url: scene.url }, { era, handlers });
    expect(text(await client.callTool('v1__ask_user', { question: 'Ship it?' }))).toBe('accept:yes to Ship it?');
    expect(text(await client.callTool('v1__ask_model', { prompt: 'meaning?' }))).toBe('model said: forty-two');
    expect(text(await client.callTool('v1__client_roots', {}))).toBe('file:///work/project');
  });

  it("answers a 2026 upstream's input round", async () => {
    const client = await connectClient({ url: scene.url }, { era, handlers });
    expect(text(await client.callTool('kit__confirm', {}))).toBe('confirmed:accept:true');
  });

  it('gets a readable error, naming the server, when it cannot answer what the upstream asks', async () => {
    const client = await connectClient({ url: scene.url }, { era });
    const result = await client.callTool('v1__ask_user', { question: 'Anyone there?' });
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/elicitation/);
  });
});
