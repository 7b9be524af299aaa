/**
 * server-everything over stdio: every listed resource is read, both resource templates are read
 * with an id (text and blob), every prompt renders with valid arguments, and completion/complete
 * answers for prompt arguments (with context) and template variables.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Prompt } from '../../src/protocol/types.js';
import { type EverythingHarness, startEverything } from './support/everything-harness.js';

/** Valid arguments for each prompt the server lists. A prompt missing here fails the suite. */
const PROMPT_ARGS: Record<string, Record<string, string> | undefined> = {
  'simple-prompt': undefined,
  'args-prompt': { city: 'Paris', state: 'Texas' },
  'completable-prompt': { department: 'Engineering', name: 'Alice' },
  'resource-prompt': { resourceType: 'Text', resourceId: '5' },
};

describe('server-everything: resources, templates, prompts and completion', () => {
  let harness: EverythingHarness;

  beforeAll(async () => {
    harness = await startEverything();
  });
  afterAll(async () => {
    await harness?.stop();
  });

  it('reads every listed resource, each answering with its own uri and mime type', async () => {
    const resources = await harness.client.listResources();
    expect(resources.length).toBeGreaterThanOrEqual(5);
    for (const resource of resources) {
      const read = await harness.client.readResource(resource.uri);
      expect(read.contents).toHaveLength(1);
      expect(read.contents[0]).toMatchObject({ uri: resource.uri, mimeType: resource.mimeType });
      expect((read.contents[0] as { text?: string }).text?.length).toBeGreaterThan(0);
    }
  });

  it('lists both templates and reads each with an id: text as text, blob as base64', async () => {
    const templates = await harness.client.listResourceTemplates();
    expect(templates.map((t) => t.uriTemplate).sort()).toEqual([
      'demo://resource/dynamic/blob/{resourceId}',
      'demo://resource/dynamic/text/{resourceId}',
    ]);

    const text = await harness.client.readResource('demo://resource/dynamic/text/42');
    expect(text.contents[0]).toMatchObject({
      uri: 'demo://resource/dynamic/text/42',
      mimeType: 'text/plain',
      text: expect.stringMatching(/^Resource 42: This is a plaintext resource/),
    });

    const blob = await harness.client.readResource('demo://resource/dynamic/blob/7');
    const contents = blob.contents[0] as { uri: string; blob: string; text?: string };
    expect(contents.uri).toBe('demo://resource/dynamic/blob/7');
    expect(contents.text).toBeUndefined();
    expect(Buffer.from(contents.blob, 'base64').toString()).toMatch(/^Resource 7: This is a base64 blob/);
  });

  it('rejects an unknown resource and a bad template id with SERVER_ERROR carrying the peer code', async () => {
    await expect(harness.client.readResource('demo://resource/none')).rejects.toMatchObject({
      code: 'SERVER_ERROR',
      method: 'resources/read',
      rpcCode: -32602,
    });
    await expect(harness.client.readResource('demo://resource/dynamic/text/0')).rejects.toMatchObject({
      code: 'SERVER_ERROR',
      rpcCode: -32603,
    });
  });

  it('renders every listed prompt with valid arguments', async () => {
    const prompts: Prompt[] = await harness.client.listPrompts();
    expect(prompts.map((p) => p.name).filter((name) => !(name in PROMPT_ARGS))).toEqual([]);
    for (const prompt of prompts) {
      const args = PROMPT_ARGS[prompt.name];
      const required = (prompt.arguments ?? []).filter((a) => a.required).map((a) => a.name);
      expect(Object.keys(args ?? {})).toEqual(expect.arrayContaining(required));
      const rendered = await harness.client.getPrompt(prompt.name, args);
      expect(rendered.messages.length, prompt.name).toBeGreaterThan(0);
    }
    const weather = await harness.client.getPrompt('args-prompt', { city: 'Paris', state: 'Texas' });
    expect(weather.messages[0]!.content).toEqual({ type: 'text', text: "What's weather in Paris, Texas?" });
    const promote = await harness.client.getPrompt('completable-prompt', { department: 'Engineering', name: 'Alice' });
    expect(promote.messages[0]!.content).toMatchObject({
      text: 'Please promote Alice to the head of the Engineering team.',
    });
  });

  it('embeds the requested resource in resource-prompt, text and blob', async () => {
    const text = await harness.client.getPrompt('resource-prompt', { resourceType: 'Text', resourceId: '5' });
    expect(text.messages[1]!.content).toMatchObject({
      type: 'resource',
      resource: { uri: 'demo://resource/dynamic/text/5', text: expect.any(String) },
    });
    const blob = await harness.client.getPrompt('resource-prompt', { resourceType: 'Blob', resourceId: '6' });
    expect(blob.messages[1]!.content).toMatchObject({
      type: 'resource',
      resource: { uri: 'demo://resource/dynamic/blob/6', blob: expect.any(String) },
    });
  });

  it('rejects an unknown prompt with SERVER_ERROR', async () => {
    await expect(harness.client.getPrompt('no-such-prompt')).rejects.toMatchObject({
      code: 'SERVER_ERROR',
      method: 'prompts/get',
      rpcCode: -32602,
    });
  });

  it('completes the completable prompt, narrowing the second argument by the first through context', async () => {
    const department = await harness.client.complete(
      { type: 'ref/prompt', name: 'completable-prompt' },
      { name: 'department', value: 'S' },
    );
    expect(department.values.sort()).toEqual(['Sales', 'Support']);
    const engineers = await harness.client.complete(
      { type: 'ref/prompt', name: 'completable-prompt' },
      { name: 'name', value: '' },
      { context: { arguments: { department: 'Engineering' } } },
    );
    expect(engineers.values).toEqual(['Alice', 'Bob', 'Charlie']);
    const sales = await harness.client.complete(
      { type: 'ref/prompt', name: 'completable-prompt' },
      { name: 'name', value: 'E' },
      { context: { arguments: { department: 'Sales' } } },
    );
    expect(sales.values).toEqual(['Eve']);
  });

  it('completes the resource-prompt type and a template variable', async () => {
    const type = await harness.client.complete(
      { type: 'ref/prompt', name: 'resource-prompt' },
      { name: 'resourceType', value: 'B' },
    );
    expect(type.values).toEqual(['Blob']);
    const id = await harness.client.complete(
      { type: 'ref/resource', uri: 'demo://resource/dynamic/text/{resourceId}' },
      { name: 'resourceId', value: '12' },
    );
    expect(id.values).toEqual(['12']);
  });
});
