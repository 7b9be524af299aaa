/**
 * server-everything over stdio: every tool it lists is called with arguments derived from its
 * inputSchema (and checked against it), each result is checked for what the tool is known to do,
 * structured output passes the client's validation, and tool failures come back as results.
 */
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallToolResult, Tool } from '../../src/protocol/types.js';
import { type EverythingHarness, startEverything } from './support/everything-harness.js';
import { textOf } from './support/reference-servers.js';
import { argumentsFor, schemaProblems } from './support/schema-args.js';

const GZIP_INPUT = 'mcpwire compresses this line. '.repeat(16);
// The tool's default `data` is a raw.githubusercontent.com URL; a data: URI keeps the run offline.
const GZIP_DATA = `data:text/plain;base64,${Buffer.from(GZIP_INPUT).toString('base64')}`;

/** Argument overrides where the schema's defaults would be slow or reach the network. */
const OVERRIDES: Record<string, Record<string, unknown>> = {
  'gzip-file-as-resource': { name: 'roundtrip.txt.gz', data: GZIP_DATA },
  // Default: 10 s in 5 steps.
  'trigger-long-running-operation': { duration: 0.3, steps: 3 },
  'trigger-sampling-request': { prompt: 'Say hi', maxTokens: 16 },
  echo: { message: 'hello, everything' },
  'get-sum': { a: 19, b: 23 },
  'simulate-research-query': { topic: 'protocols' },
};

/** What each listed tool must return for the arguments above. A tool missing here fails the suite. */
const EXPECT: Record<string, (result: CallToolResult) => void> = {
  echo: (r) => expect(r.content).toEqual([{ type: 'text', text: 'Echo: hello, everything' }]),
  'get-annotated-message': (r) => {
    expect(r.content[0]).toMatchObject({
      type: 'text',
      text: 'Error: Operation failed',
      annotations: { priority: 1, audience: ['user', 'assistant'] },
    });
  },
  'get-env': (r) => expect(JSON.parse(textOf(r))).toHaveProperty('PATH'),
  'get-resource-links': (r) => {
    const links = r.content.filter((c) => c.type === 'resource_link');
    expect(links.map((l) => (l as { uri: string }).uri)).toEqual([
      'demo://resource/dynamic/blob/1',
      'demo://resource/dynamic/text/2',
      'demo://resource/dynamic/blob/3',
    ]);
  },
  'get-resource-reference': (r) => {
    expect(r.content[1]).toMatchObject({
      type: 'resource',
      resource: {
        uri: 'demo://resource/dynamic/text/1',
        mimeType: 'text/plain',
        text: expect.stringContaining('Resource 1'),
      },
    });
  },
  'get-structured-content': (r) =>
    expect(r.structuredContent).toEqual({ temperature: 33, conditions: 'Cloudy', humidity: 82 }),
  'get-sum': (r) => expect(textOf(r)).toBe('The sum of 19 and 23 is 42.'),
  'get-tiny-image': (r) => expect(r.content.map((c) => c.type)).toEqual(['text', 'image', 'text']),
  'gzip-file-as-resource': (r) =>
    expect(r.content[0]).toMatchObject({
      type: 'resource_link',
      uri: 'demo://resource/session/roundtrip.txt.gz',
      mimeType: 'application/gzip',
    }),
  'toggle-simulated-logging': (r) => expect(textOf(r)).toMatch(/^(Started|Stopped) simulated/),
  'toggle-subscriber-updates': (r) => expect(textOf(r)).toMatch(/^(Started|Stopped) simulated/),
  'trigger-long-running-operation': (r) =>
    expect(textOf(r)).toBe('Long running operation completed. Duration: 0.3 seconds, Steps: 3.'),
  'get-roots-list': (r) => expect(textOf(r)).toContain('file:///tmp/mcpwire-everything-root'),
  'trigger-elicitation-request': (r) => expect(textOf(r)).toContain('User provided the requested information'),
  'trigger-url-elicitation': (r) => expect(textOf(r)).toContain('User completed the URL elicitation flow'),
  'trigger-sampling-request': (r) => expect(textOf(r)).toContain('sampled by the mcpwire test'),
  // taskSupport "required": this client runs no tasks, so the server refuses, as a tool error.
  'simulate-research-query': (r) => {
    expect(r.isError).toBe(true);
    expect(textOf(r)).toMatch(/requires task augmentation/);
  },
};

describe('server-everything: every tool, round trip', () => {
  let harness: EverythingHarness;
  let tools: Tool[];

  beforeAll(async () => {
    harness = await startEverything({ env: { MCPWIRE_MARKER: 'reached-the-server' } });
    tools = await harness.client.listTools();
  });
  afterAll(async () => {
    await harness?.stop();
  });

  it('lists only tools this file knows how to check', () => {
    expect(tools.length).toBeGreaterThanOrEqual(17);
    expect(tools.map((t) => t.name).filter((name) => !(name in EXPECT))).toEqual([]);
  });

  it('calls every listed tool with arguments valid for its inputSchema', async () => {
    for (const tool of tools) {
      const args = argumentsFor(tool.inputSchema, OVERRIDES[tool.name]);
      expect(schemaProblems(tool.inputSchema, args), `arguments of ${tool.name}`).toEqual([]);
      const result = await harness.client.callTool(tool.name, args, { timeoutMs: 10_000 });
      if (tool.name !== 'simulate-research-query')
        expect(result.isError ?? false, `${tool.name}: ${textOf(result)}`).toBe(false);
      EXPECT[tool.name]!(result);
    }
    // The two toggles were switched on once each; switch them off again.
    await harness.client.callTool('toggle-simulated-logging', {});
    await harness.client.callTool('toggle-subscriber-updates', {});
  });

  it('validates structured content against the output schema and lets every conforming result through', async () => {
    const tool = tools.find((t) => t.name === 'get-structured-content')!;
    expect(tool.outputSchema).toBeDefined();
    for (const location of ['New York', 'Chicago', 'Los Angeles']) {
      const result = await harness.client.callTool('get-structured-content', { location });
      expect(schemaProblems(tool.outputSchema!, result.structuredContent)).toEqual([]);
      // The backward-compatible text block carries the same object.
      expect(JSON.parse(textOf(result))).toEqual(result.structuredContent);
    }
  });

  it('covers each annotation pattern of get-annotated-message', async () => {
    const success = await harness.client.callTool('get-annotated-message', {
      messageType: 'success',
      includeImage: true,
    });
    expect(success.content[0]!.annotations).toEqual({ priority: 0.7, audience: ['user'] });
    expect(success.content[1]).toMatchObject({ type: 'image', mimeType: 'image/png', annotations: { priority: 0.5 } });
    const debug = await harness.client.callTool('get-annotated-message', { messageType: 'debug' });
    expect(debug.content).toHaveLength(1);
    expect(debug.content[0]!.annotations).toEqual({ priority: 0.3, audience: ['assistant'] });
  });

  it('returns an embedded blob reference from get-resource-reference', async () => {
    const result = await harness.client.callTool('get-resource-reference', { resourceType: 'Blob', resourceId: 4 });
    const embedded = result.content[1] as { type: string; resource: { uri: string; blob: string } };
    expect(embedded.resource.uri).toBe('demo://resource/dynamic/blob/4');
    expect(Buffer.from(embedded.resource.blob, 'base64').toString()).toContain('Resource 4: This is a base64 blob');
  });

  it('gzips a data: URI into a session resource, announces it with resources/list_changed, and serves its blob', async () => {
    let changed = 0;
    const off = harness.client.on('resourcesChanged', () => changed++);
    const linked = await harness.client.callTool('gzip-file-as-resource', {
      name: 'linked.txt.gz',
      data: GZIP_DATA,
      outputType: 'resourceLink',
    });
    const uri = (linked.content[0] as { uri: string }).uri;
    await expect.poll(() => changed, { timeout: 5_000 }).toBeGreaterThan(0);
    off();
    expect((await harness.client.listResources()).map((r) => r.uri)).toContain(uri);
    const read = await harness.client.readResource(uri);
    expect(read.contents[0]).toMatchObject({ uri, mimeType: 'application/gzip' });
    expect(gunzipSync(Buffer.from((read.contents[0] as { blob: string }).blob, 'base64')).toString()).toBe(GZIP_INPUT);

    const embedded = await harness.client.callTool('gzip-file-as-resource', {
      name: 'inline.txt.gz',
      data: GZIP_DATA,
      outputType: 'resource',
    });
    const resource = (embedded.content[0] as { resource: { blob: string } }).resource;
    expect(gunzipSync(Buffer.from(resource.blob, 'base64')).toString()).toBe(GZIP_INPUT);
  });

  it('passes the configured env to the server and keeps the rest of this process env out', async () => {
    const env = JSON.parse(textOf(await harness.client.callTool('get-env', {}))) as Record<string, string>;
    expect(env.MCPWIRE_MARKER).toBe('reached-the-server');
    // vitest sets VITEST in this worker; it is not on the stdio allowlist.
    expect(process.env.VITEST).toBeDefined();
    expect(env).not.toHaveProperty('VITEST');
  });

  it('matches 60 concurrent calls to their own answers', async () => {
    const calls = Array.from({ length: 60 }, (_, i) =>
      i % 2 === 0
        ? harness.client.callTool('echo', { message: `call ${i}` })
        : harness.client.callTool('get-sum', { a: i, b: 1000 }),
    );
    const texts = (await Promise.all(calls)).map(textOf);
    texts.forEach((text, i) =>
      expect(text).toBe(i % 2 === 0 ? `Echo: call ${i}` : `The sum of ${i} and 1000 is ${i + 1000}.`),
    );
  });

  it('round-trips a 3 MB multi-byte message intact across pipe chunks', async () => {
    // 4-byte emoji, 3-byte CJK, 2-byte accents: chunk boundaries fall inside characters.
    const message = 'ä漢字🚀 mcpwire '.repeat(180_000);
    expect(Buffer.byteLength(message)).toBeGreaterThan(3_000_000);
    const result = await harness.client.callTool('echo', { message });
    expect(textOf(result) === `Echo: ${message}`).toBe(true);
  });

  it('returns an unknown tool and invalid arguments as tool errors, not throws', async () => {
    const unknown = await harness.client.callTool('no-such-tool', {});
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toMatch(/no-such-tool not found/);
    const invalid = await harness.client.callTool('get-sum', { a: 'nineteen', b: 23 });
    expect(invalid.isError).toBe(true);
    expect(textOf(invalid)).toMatch(/Input validation error/);
  });
});
