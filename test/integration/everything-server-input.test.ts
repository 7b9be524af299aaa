/**
 * server-everything over stdio: server→client requests of the legacy era reach the client's
 * handlers and their answers reach the server — sampling, form and URL elicitation (accept,
 * decline, cancel), roots (the startup sync and a roots/list_changed re-sync) — and a client
 * without handlers declares nothing, so the server offers none of those tools.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpClient } from '../../src/client/mcp-client.js';
import type { LoggingMessageParams } from '../../src/protocol/types.js';
import { waitUntilGone } from '../support/processes.js';
import { type EverythingHarness, formAnswer, startEverything } from './support/everything-harness.js';
import { everything, textOf } from './support/reference-servers.js';
import { schemaProblems } from './support/schema-args.js';

describe('server-everything: sampling, elicitation and roots round trips', () => {
  let harness: EverythingHarness;
  const logs: LoggingMessageParams[] = [];

  beforeAll(async () => {
    harness = await startEverything();
    harness.client.on('log', (p) => logs.push(p));
  });
  afterAll(async () => {
    await harness?.stop();
  });

  it('syncs roots right after initialization through the roots handler', async () => {
    // The server asks for roots/list 350 ms after `initialized`, then logs what it got.
    await expect.poll(() => harness.seen.roots.length, { timeout: 5_000 }).toBeGreaterThanOrEqual(1);
    await expect
      .poll(() => logs.some((l) => String(l.data).includes('1 root(s) received')), { timeout: 5_000 })
      .toBe(true);
    expect(harness.seen.roots[0]).toMatchObject({ server: 'everything', era: 'legacy' });
  });

  it('round-trips sampling: the handler sees the server params, the tool result carries its answer', async () => {
    const result = await harness.client.callTool('trigger-sampling-request', {
      prompt: 'What is 6 times 7?',
      maxTokens: 33,
    });
    const { params, context } = harness.seen.sampling.at(-1)!;
    expect(params).toMatchObject({ maxTokens: 33, systemPrompt: 'You are a helpful test server.', temperature: 0.7 });
    expect(params.messages).toEqual([
      {
        role: 'user',
        content: { type: 'text', text: 'Resource trigger-sampling-request context: What is 6 times 7?' },
      },
    ]);
    expect(context).toMatchObject({ server: 'everything', era: 'legacy' });
    expect(context.signal.aborted).toBe(false);
    const echoed = JSON.parse(textOf(result).replace(/^LLM sampling result: \n/, '')) as Record<string, unknown>;
    expect(echoed).toEqual({
      role: 'assistant',
      content: { type: 'text', text: 'sampled by the mcpwire test' },
      model: 'mcpwire-test-model',
      stopReason: 'endTurn',
    });
  });

  it('answers a failing sampling handler with a JSON-RPC error the server turns into a tool error', async () => {
    harness.answers.samplingFailure = 'no model configured';
    try {
      const result = await harness.client.callTool('trigger-sampling-request', { prompt: 'fail please' });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toContain('no model configured');
    } finally {
      delete harness.answers.samplingFailure;
    }
    // The connection is unharmed.
    expect((await harness.client.callTool('trigger-sampling-request', { prompt: 'again' })).isError ?? false).toBe(
      false,
    );
  });

  it('accepts a form elicitation with content valid for the requested schema', async () => {
    harness.answers.elicitation = 'accept';
    const result = await harness.client.callTool('trigger-elicitation-request', {});
    const { params, context } = harness.seen.elicitation.at(-1)!;
    expect(params).toMatchObject({
      message: 'Please provide inputs for the following fields:',
      requestedSchema: { type: 'object', required: ['name'] },
    });
    expect(context.era).toBe('legacy');
    const requested = (params as { requestedSchema: Record<string, unknown> }).requestedSchema;
    const content = formAnswer(params);
    expect(schemaProblems(requested, content)).toEqual([]);
    const text = textOf(result);
    expect(text).toContain('User provided the requested information');
    expect(text).toContain('- Email: ada@example.com');
    expect(text).toContain('- Favorite Integer: 42');
    expect(JSON.parse(text.slice(text.indexOf('Raw result: ') + 'Raw result: '.length))).toEqual({
      action: 'accept',
      content,
    });
  });

  it('declines and cancels a form elicitation', async () => {
    harness.answers.elicitation = 'decline';
    expect(textOf(await harness.client.callTool('trigger-elicitation-request', {}))).toContain('User declined');
    harness.answers.elicitation = 'cancel';
    expect(textOf(await harness.client.callTool('trigger-elicitation-request', {}))).toContain('User cancelled');
    harness.answers.elicitation = 'accept';
  });

  it('round-trips a URL-mode elicitation request', async () => {
    const result = await harness.client.callTool('trigger-url-elicitation', {
      url: 'https://example.com/consent',
      elicitationId: 'mcpwire-1',
    });
    expect(harness.seen.elicitation.at(-1)!.params).toEqual({
      mode: 'url',
      url: 'https://example.com/consent',
      message: 'Please open the link to complete this action.',
      elicitationId: 'mcpwire-1',
    });
    expect(textOf(result)).toContain('User completed the URL elicitation flow.\nElicitation ID: mcpwire-1');
  });

  it('surfaces the URL-elicitation-required error (-32042) with its elicitations, and the retry succeeds', async () => {
    const args = { url: 'https://example.com/authorize', errorPath: true };
    const error = await harness.client.callTool('trigger-url-elicitation', args).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ code: 'SERVER_ERROR', method: 'tools/call', rpcCode: -32042 });
    expect((error as { data: { elicitations: unknown[] } }).data.elicitations).toEqual([
      expect.objectContaining({
        mode: 'url',
        url: 'https://modelcontextprotocol.io',
        elicitationId: expect.any(String),
      }),
    ]);
    const retry = await harness.client.callTool('trigger-url-elicitation', args);
    expect(textOf(retry)).toContain('User completed the URL elicitation flow.');
  });

  it('lists the handler roots, and re-syncs them after notifyRootsChanged', async () => {
    expect(textOf(await harness.client.callTool('get-roots-list', {}))).toContain(
      'URI: file:///tmp/mcpwire-everything-root',
    );
    const before = harness.seen.roots.length;
    harness.answers.roots = [
      { uri: 'file:///tmp/mcpwire-a', name: 'a' },
      { uri: 'file:///tmp/mcpwire-b', name: 'b' },
    ];
    await harness.client.notifyRootsChanged();
    await expect.poll(() => harness.seen.roots.length, { timeout: 5_000 }).toBe(before + 1);
    await expect
      .poll(() => logs.some((l) => String(l.data).includes('2 root(s) received')), { timeout: 5_000 })
      .toBe(true);
    const listed = textOf(await harness.client.callTool('get-roots-list', {}));
    expect(listed).toContain('Current MCP Roots (2 total)');
    expect(listed).toContain('URI: file:///tmp/mcpwire-b');
  });
});

describe('server-everything: aborting the call that caused a server request', () => {
  let harness: EverythingHarness;

  beforeAll(async () => {
    harness = await startEverything();
  });
  afterAll(async () => {
    await harness?.stop();
  });

  // ServerInputContext.signal promises: "Aborted when the server cancels, the originating call is
  // aborted, or the connection closes." server-everything never cancels its elicitation/create
  // (it waits 10 minutes), so only the client can release a handler whose call was abandoned.
  it('legacy era: aborting the originating call does not reach the handler (nothing links them); only a server cancel or close does', async () => {
    harness.answers.elicitation = 'hang';
    const controller = new AbortController();
    const call = harness.client.callTool('trigger-elicitation-request', {}, { signal: controller.signal });
    await expect.poll(() => harness.seen.elicitation.length, { timeout: 5_000 }).toBe(1);
    controller.abort(new Error('the user walked away'));
    await expect(call).rejects.toMatchObject({ code: 'CANCELLED' });
    const handlerSignal = harness.seen.elicitation[0]!.context.signal;
    // After a ping round trip the client has done all it was going to do about the abort.
    await harness.client.ping();
    expect(handlerSignal.aborted).toBe(false);
    await harness.client.close();
    expect(handlerSignal.aborted).toBe(true);
  });
});

describe('server-everything: a client without handlers', () => {
  it('declares no client capabilities, so the server offers no sampling, elicitation or roots tools', async () => {
    const client = await McpClient.connect(everything(), { name: 'bare' });
    const pid = client.pid!;
    try {
      expect(client.clientCapabilities).toEqual({});
      const names = (await client.listTools()).map((t) => t.name);
      expect(names).toContain('echo');
      expect(names.filter((n) => /sampling|elicitation|roots/.test(n))).toEqual([]);
    } finally {
      await client.close();
    }
    expect(await waitUntilGone(pid)).toBe(true);
  });
});
