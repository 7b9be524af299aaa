import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpClient } from '../../src/client/mcp-client.js';
import type { CreateMessageParams, ElicitParams, LoggingMessageParams, Tool } from '../../src/protocol/types.js';
import { StdioTransport } from '../../src/transport/stdio.js';
import { RecordingTransport } from '../kit/recording-transport.js';
import { hasSchema, missingSchemaMessage } from '../kit/spec-schemas.js';
import { invalidRecordedTraffic } from '../support/fake-servers.js';
import { eventually, isAlive, waitUntilGone } from '../support/processes.js';
import { everything } from './support/reference-servers.js';

const seen = { sampling: [] as CreateMessageParams[], elicitation: [] as ElicitParams[], roots: 0 };
let elicitAnswer: 'accept' | 'decline' = 'accept';

describe('@modelcontextprotocol/server-everything over stdio', () => {
  let recording: RecordingTransport;
  let client: McpClient;
  let tools: Tool[];

  beforeAll(async () => {
    recording = new RecordingTransport(await StdioTransport.spawn(everything(), { name: 'everything' }));
    client = await McpClient.connect(recording, {
      name: 'everything',
      handlers: {
        sampling: (params) => {
          seen.sampling.push(params);
          return { role: 'assistant', content: { type: 'text', text: 'sampled by the test' }, model: 'test-model', stopReason: 'endTurn' };
        },
        elicitation: (params) => {
          seen.elicitation.push(params);
          if (elicitAnswer === 'decline') return { action: 'decline' };
          const props = ((params as { requestedSchema?: { properties?: Record<string, { type?: string; enum?: string[] }> } }).requestedSchema?.properties ?? {}) as Record<string, { type?: string; enum?: string[]; items?: { enum?: string[] } }>;
          const content: Record<string, string | number | boolean | string[]> = {};
          for (const [key, schema] of Object.entries(props)) {
            if (schema.enum) content[key] = schema.enum[0]!;
            else if (schema.type === 'boolean') content[key] = true;
            else if (schema.type === 'number' || schema.type === 'integer') content[key] = 3;
            else if (schema.type === 'array') content[key] = schema.items?.enum ? [schema.items.enum[0]!] : [];
            else content[key] = 'answer';
          }
          return { action: 'accept', content };
        },
        roots: () => {
          seen.roots++;
          return [{ uri: 'file:///tmp/everything-root', name: 'test root' }];
        },
      },
    });
    tools = await client.listTools();
  });
  afterAll(async () => {
    const pid = (recording?.inner as StdioTransport | undefined)?.pid;
    await client?.close();
    if (pid) expect(await waitUntilGone(pid)).toBe(true);
  });

  it('connects in the legacy era with the server identity and capabilities', () => {
    expect(client.era).toBe('legacy');
    expect(client.protocolVersion).toBe('2025-11-25');
    expect(client.serverInfo?.name).toBe('mcp-servers/everything');
    expect(client.instructions).toContain('Everything Server');
    expect(Object.keys(client.capabilities)).toEqual(expect.arrayContaining(['tools', 'resources', 'prompts', 'logging', 'completions']));
    expect(isAlive((recording.inner as StdioTransport).pid)).toBe(true);
  });

  it('lists the tools that need declared capabilities only when they are declared', () => {
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['trigger-sampling-request', 'trigger-elicitation-request', 'get-roots-list']));
  });

  it('calls the plain tools with arguments from their schemas', async () => {
    expect((await client.callTool('echo', { message: 'hi' })).content[0]).toEqual({ type: 'text', text: 'Echo: hi' });
    expect((await client.callTool('get-sum', { a: 19, b: 23 })).content[0]).toMatchObject({ text: expect.stringContaining('42') });
    const annotated = await client.callTool('get-annotated-message', { messageType: 'error', includeImage: true });
    expect(annotated.content.map((c) => c.type)).toEqual(['text', 'image']);
    expect(annotated.content[0]!.annotations).toBeDefined();
    const env = await client.callTool('get-env', {});
    expect((env.content[0] as { text: string }).text).toContain('PATH');
    const links = await client.callTool('get-resource-links', { count: 4 });
    expect(links.content.filter((c) => c.type === 'resource_link')).toHaveLength(4);
    const reference = await client.callTool('get-resource-reference', { resourceType: 'Blob', resourceId: 2 });
    expect(reference.content.some((c) => c.type === 'resource')).toBe(true);
    const image = await client.callTool('get-tiny-image', {});
    expect(image.content.some((c) => c.type === 'image' && c.mimeType === 'image/png')).toBe(true);
  });

  it('validates structured content against the output schema and passes a conforming result', async () => {
    const result = await client.callTool('get-structured-content', { location: 'Chicago' });
    expect(result.structuredContent).toMatchObject({ temperature: expect.any(Number) });
  });

  it('turns a data: URI into a gzip resource without touching the network', async () => {
    const data = `data:text/plain;base64,${Buffer.from('hello mcpwire '.repeat(20)).toString('base64')}`;
    const result = await client.callTool('gzip-file-as-resource', { name: 'hello.txt.gz', data, outputType: 'resourceLink' });
    expect(result.isError ?? false).toBe(false);
    expect(JSON.stringify(result.content)).toContain('hello.txt.gz');
  });

  it('returns, not throws, the tool error of the task-only research tool (this client runs no tasks)', async () => {
    const result = await client.callTool('simulate-research-query', { topic: 'mcp' });
    expect(result.isError).toBe(true);
  });

  it('answers a sampling request through the sampling handler', async () => {
    const result = await client.callTool('trigger-sampling-request', { prompt: 'What is 2+2?', maxTokens: 20 });
    expect(seen.sampling.at(-1)).toMatchObject({ maxTokens: 20 });
    expect(JSON.stringify(seen.sampling.at(-1)!.messages)).toContain('What is 2+2?');
    expect(JSON.stringify(result.content)).toContain('sampled by the test');
  });

  it('answers elicitation requests, accepted and declined', async () => {
    elicitAnswer = 'accept';
    const accepted = await client.callTool('trigger-elicitation-request', {});
    expect(seen.elicitation.length).toBeGreaterThan(0);
    expect(JSON.stringify(accepted.content)).toMatch(/accept/i);
    elicitAnswer = 'decline';
    const declined = await client.callTool('trigger-elicitation-request', {});
    expect(JSON.stringify(declined.content)).toMatch(/decline/i);
  });

  it('answers roots requests', async () => {
    const result = await client.callTool('get-roots-list', {});
    expect(JSON.stringify(result.content)).toContain('file:///tmp/everything-root');
    expect(seen.roots).toBeGreaterThan(0);
  });

  it('reports progress and keeps a call alive past its idle timeout while progress flows', async () => {
    const progress: number[] = [];
    const result = await client.callTool('trigger-long-running-operation', { duration: 2, steps: 4 }, { timeoutMs: 900, onProgress: (p) => progress.push(p.progress) });
    expect(progress).toEqual([1, 2, 3, 4]);
    expect(JSON.stringify(result.content)).toContain('completed');
  });

  it('cancels a long call through its AbortSignal and keeps serving', async () => {
    const controller = new AbortController();
    const call = client.callTool('trigger-long-running-operation', { duration: 10, steps: 10 }, { signal: controller.signal });
    setTimeout(() => controller.abort(), 200);
    await expect(call).rejects.toMatchObject({ code: 'CANCELLED' });
    await client.ping();
    const cancel = recording.sent.find((r) => (r.message as { method?: string }).method === 'notifications/cancelled');
    expect(cancel).toBeDefined();
  });

  it('reads every resource, text and blob, and both templates', async () => {
    const resources = await client.listResources();
    expect(resources.length).toBeGreaterThan(0);
    for (const resource of resources) {
      const read = await client.readResource(resource.uri);
      expect(read.contents[0]!.uri).toBe(resource.uri);
    }
    const templates = await client.listResourceTemplates();
    expect(templates.map((t) => t.uriTemplate).sort()).toEqual(['demo://resource/dynamic/blob/{resourceId}', 'demo://resource/dynamic/text/{resourceId}']);
    const text = await client.readResource('demo://resource/dynamic/text/3');
    expect(text.contents[0]).toHaveProperty('text');
    const blob = await client.readResource('demo://resource/dynamic/blob/3');
    expect(blob.contents[0]).toHaveProperty('blob');
  });

  it('renders every prompt and completes the completable one', async () => {
    const prompts = await client.listPrompts();
    const args: Record<string, Record<string, string>> = {
      'args-prompt': { city: 'Paris', state: 'TX' },
      'completable-prompt': { department: 'Engineering', name: 'Alice' },
      'resource-prompt': { resourceType: 'Text', resourceId: '1' },
    };
    for (const prompt of prompts) {
      const rendered = await client.getPrompt(prompt.name, args[prompt.name]);
      expect(rendered.messages.length).toBeGreaterThan(0);
    }
    const completion = await client.complete({ type: 'ref/prompt', name: 'completable-prompt' }, { name: 'department', value: 'E' });
    expect(completion.values).toContain('Engineering');
  });

  it('delivers log messages after setLoggingLevel', async () => {
    const logs: LoggingMessageParams[] = [];
    const off = client.on('log', (p) => logs.push(p));
    await client.setLoggingLevel('debug');
    await client.callTool('toggle-simulated-logging', {});
    await eventually(() => (logs.length > 0 ? true : undefined), 15_000);
    await client.callTool('toggle-simulated-logging', {});
    off();
    expect(logs[0]).toMatchObject({ level: expect.any(String) });
  });

  it('delivers resource updates after subscribing, and stops after unsubscribing', async () => {
    const updates: string[] = [];
    const off = client.on('resourceUpdated', (p) => updates.push(p.uri));
    const uri = 'demo://resource/static/document/features.md';
    const unsubscribe = await client.subscribeResource(uri);
    await client.callTool('toggle-subscriber-updates', {});
    await eventually(() => (updates.includes(uri) ? true : undefined), 15_000);
    await client.callTool('toggle-subscriber-updates', {});
    await unsubscribe();
    off();
  });

  it.skipIf(!hasSchema('2025-11-25'))(hasSchema('2025-11-25') ? 'sent only messages valid under the 2025-11-25 schema' : missingSchemaMessage('2025-11-25'), () => {
    expect(recording.sent.length).toBeGreaterThan(30);
    expect(invalidRecordedTraffic(recording, '2025-11-25')).toEqual([]);
  });
});
