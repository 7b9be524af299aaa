import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpClient } from '../../src/client/mcp-client.js';
import type { ClientOptions } from '../../src/client/options.js';
import { StdioTransport } from '../../src/transport/stdio/stdio.js';
import { RecordingTransport } from '../kit/recording-transport.js';
import { hasSchema, missingSchemaMessage } from '../kit/spec-schemas.js';
import { eventually, FIXTURES } from '../support/processes.js';

const server = path.join(FIXTURES, 'modern', 'v2-server.mjs');
const spec = (...extra: string[]) => ({ command: process.execPath, args: [server, ...extra] });

const handlers: ClientOptions['handlers'] = {
  elicitation: (params) => ({ action: 'accept', content: { sure: params.message.startsWith('Really') } }),
  sampling: (params) => ({
    role: 'assistant',
    content: { type: 'text', text: `answer to ${JSON.stringify(params.messages[0]?.content)}` },
    model: 'fixture-model',
  }),
  roots: () => [{ uri: 'file:///workspace', name: 'ws' }],
};

describe('a real 2026-07-28 server (official v2 server package) over stdio', () => {
  let recording: RecordingTransport;
  let client: McpClient;

  beforeAll(async () => {
    recording = new RecordingTransport(await StdioTransport.spawn(spec(), { name: 'modern' }));
    client = await McpClient.connect(recording, { name: 'modern', handlers });
  });
  afterAll(async () => {
    await client?.close();
  });

  it('is detected as modern by the discover probe', () => {
    expect(client.era).toBe('modern');
    expect(client.protocolVersion).toBe('2026-07-28');
    expect(client.serverInfo).toEqual({ name: 'modern-fixture', version: '2.0.0' });
    expect(client.instructions).toBe('A modern fixture.');
    expect(client.capabilities.tools).toEqual({ listChanged: true });
  });

  it('lists and calls tools, validating structured output', async () => {
    const tools = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['echo', 'add', 'confirm', 'ask-model', 'where']));
    await expect(client.callTool('echo', { text: 'hi' })).resolves.toMatchObject({
      content: [{ type: 'text', text: 'hi' }],
    });
    await expect(client.callTool('add', { a: 2, b: 40 })).resolves.toMatchObject({ structuredContent: { sum: 42 } });
  });

  it('fulfils an elicitation through the multi-round-trip flow', async () => {
    const result = await client.callTool('confirm', { what: 'deploy' });
    expect((result.content[0] as { text: string }).text).toMatch(/^accept:\{"sure":true\}/);
  });

  it('fulfils sampling and roots through the same flow', async () => {
    const sampled = await client.callTool('ask-model', { question: 'why?' });
    expect((sampled.content[0] as { text: string }).text).toContain('answer to');
    const roots = await client.callTool('where', {});
    expect(roots.content[0]).toMatchObject({ text: 'file:///workspace' });
  });

  it('reads resources and templates and renders prompts', async () => {
    const read = await client.readResource('test://static/hello');
    expect(read.contents[0]).toMatchObject({ text: 'hello world' });
    const item = await client.readResource('test://items/7');
    expect(item.contents[0]).toMatchObject({ text: 'item 7' });
    const prompt = await client.getPrompt('greet', { name: 'Ada' });
    expect(prompt.messages[0]?.content).toMatchObject({ text: 'Say hello to Ada' });
  });

  it('hears tool list changes on its subscriptions/listen stream', async () => {
    let changed = 0;
    const off = client.on('toolsChanged', () => changed++);
    await client.callTool('add-tool', {});
    await eventually(() => (changed > 0 ? true : undefined));
    off();
    expect((await client.listTools()).map((t) => t.name)).toContain('extra');
  });

  it.skipIf(!hasSchema('2026-07-28'))(
    hasSchema('2026-07-28')
      ? 'sent only messages valid under the 2026-07-28 schema'
      : missingSchemaMessage('2026-07-28'),
    () => {
      expect(recording.sent.length).toBeGreaterThan(10);
      recording.assertAllSentValid('2026-07-28');
    },
  );
});

describe('the same server in its other modes', () => {
  it('serves a client pinned to the legacy era over the initialize handshake', async () => {
    const client = await McpClient.connect(spec(), { era: 'legacy' });
    try {
      expect(client.era).toBe('legacy');
      expect(client.protocolVersion).toBe('2025-11-25');
      await expect(client.callTool('echo', { text: 'old' })).resolves.toMatchObject({ content: [{ text: 'old' }] });
    } finally {
      await client.close();
    }
  });

  it('modern-only: auto detection still connects; a legacy pin is refused', async () => {
    const client = await McpClient.connect(spec('--legacy', 'reject'));
    expect(client.era).toBe('modern');
    await client.close();
    await expect(McpClient.connect(spec('--legacy', 'reject'), { era: 'legacy' })).rejects.toMatchObject({
      code: 'SERVER_ERROR',
      method: 'initialize',
    });
  });
});
