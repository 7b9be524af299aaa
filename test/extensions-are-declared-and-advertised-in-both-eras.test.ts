/**
 * The extension contract (SEP-2133) end to end, in both eras, in memory and over a real HTTP
 * listener: what `connect({ extensions })` declares reaches a kit handler as `context.extensions`,
 * what the kit advertises reaches `client.serverExtensions`; a method of an extension the server
 * did not advertise is refused locally with nothing sent, and one the client did not declare is
 * -32021 on the kit. The official SDK 2.4 client declares and reads extensions the same way.
 */
import { Client as SdkClient, StreamableHTTPClientTransport as SdkHttp } from '@modelcontextprotocol/client';
import { describe, expect, it, onTestFinished } from 'vitest';
import { z } from 'zod';
import { fileURLToPath } from 'node:url';
import { McpClient } from '../src/client/mcp-client.js';
import type { ClientOptions } from '../src/client/options.js';
import { EXTENSION_IDS } from '../src/protocol/extensions/ids.js';
import type { TraceRecord } from '../src/observe/trace-record.js';
import { McpServer } from '../src/server/index.js';
import { connectKitClient } from './support/kit-memory.js';
import { startKitHttp } from './support/kit-http.js';

const KIT_EXTENSIONS_SERVER = fileURLToPath(new URL('./support/kit-extensions-server.mjs', import.meta.url));

const ECHO = 'com.example/echo';
const REPORTS = 'com.example/reports';

/** A kit server advertising `reports` (settings only) and `echo` (a method that needs the client's declaration). */
function extensionServer(): McpServer {
  const server = new McpServer({
    name: 'ext-kit',
    version: '1.0.0',
    extensions: { [REPORTS]: { formats: ['pdf', 'csv'] } },
    logger: () => undefined,
  });
  server.registerExtension({
    id: ECHO,
    settings: { maxDepth: 3 },
    clientMustDeclare: true,
    methods: {
      'echo/declared': (params, context) => ({ declared: context.extensions, params: { x: params.x } }),
    },
  });
  return server;
}

const DECLARING: ClientOptions = { extensions: { [ECHO]: { level: 2 }, 'com.example/unused': true } };

/** Every method the client sent, from its trace. */
function sentMethods(records: TraceRecord[]): string[] {
  return records.filter((r) => r.dir === 'out' && r.method !== undefined).map((r) => r.method!);
}

type Route = 'memory' | 'http';

async function connect(route: Route, server: McpServer, options: ClientOptions): Promise<McpClient> {
  if (route === 'memory') return connectKitClient(server, options);
  const kit = await startKitHttp(server);
  const client = await McpClient.connect({ url: kit.url }, options);
  onTestFinished(() => client.close());
  return client;
}

for (const route of ['memory', 'http'] as const) {
  for (const era of ['legacy', 'modern'] as const) {
    describe(`${era} era over ${route}`, () => {
      it('the server advertises its extensions and a handler sees what the client declared', async () => {
        const client = await connect(route, extensionServer(), { ...DECLARING, era });
        expect(client.era).toBe(era);
        expect(client.serverExtensions).toEqual({
          [REPORTS]: { formats: ['pdf', 'csv'] },
          [ECHO]: { maxDepth: 3 },
        });
        // `true` is declared as `{}`.
        expect(client.clientCapabilities.extensions).toEqual({ [ECHO]: { level: 2 }, 'com.example/unused': {} });
        const answer = await client.extensionRequest(ECHO, 'echo/declared', { x: 7 });
        expect(answer.declared).toEqual({ [ECHO]: { level: 2 }, 'com.example/unused': {} });
        expect(answer.params).toEqual({ x: 7 });
      });

      it('an extension the server did not advertise is refused before anything is sent', async () => {
        const records: TraceRecord[] = [];
        const client = await connect(route, extensionServer(), {
          ...DECLARING,
          era,
          trace: { sink: (r) => records.push(r) },
        });
        await expect(client.extensionRequest('com.example/absent', 'absent/go')).rejects.toMatchObject({
          code: 'CAPABILITY_MISSING',
          server: client.name,
          method: 'absent/go',
        });
        // Skills' methods are gated on its advertisement even when sent by name.
        await expect(client.extensionRequest(EXTENSION_IDS.skills, 'skills/list')).rejects.toMatchObject({
          code: 'CAPABILITY_MISSING',
        });
        await client.listTools();
        expect(sentMethods(records)).not.toContain('absent/go');
        expect(sentMethods(records)).not.toContain('skills/list');
        expect(sentMethods(records)).toContain('tools/list');
      });

      it('a method of an extension the client did not declare is -32021 on the kit', async () => {
        const client = await connect(route, extensionServer(), { era });
        await expect(client.extensionRequest(ECHO, 'echo/declared', {})).rejects.toMatchObject({
          code: 'SERVER_ERROR',
          rpcCode: -32021,
        });
      });
    });
  }
}

describe('registration', () => {
  it('a withdrawn extension is no longer advertised, and its method is unknown', async () => {
    const server = extensionServer();
    const dispose = server.registerExtension({
      id: 'com.example/late',
      methods: { 'late/hello': () => ({ hello: true }) },
    });
    const first = await connectKitClient(server, { era: 'modern' });
    expect(first.serverExtensions['com.example/late']).toEqual({});
    expect(await first.extensionRequest('com.example/late', 'late/hello')).toMatchObject({ hello: true });
    dispose();
    // 2026-07-28 is stateless: the next request already meets the server without it.
    await expect(first.request('late/hello' as never, {} as never)).rejects.toMatchObject({ rpcCode: -32601 });
    const second = await connectKitClient(server, { era: 'modern' });
    expect(second.serverExtensions['com.example/late']).toBeUndefined();
  });

  it('malformed ids and duplicates are refused where they are given', async () => {
    expect(() => new McpServer({ name: 's', version: '1', extensions: { 'no-slash': {} } })).toThrow(
      /"no-slash" is not an extension id/,
    );
    const server = extensionServer();
    expect(() => server.registerExtension({ id: ECHO })).toThrow(/already registered/);
    expect(() => server.registerExtension({ id: 'com.example/x', methods: { m: 'nope' as never } })).toThrow(
      /method "m" must be a function/,
    );
    await expect(McpClient.connect({ command: 'never-started' }, { extensions: { bad: true } })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: expect.stringContaining('"bad" is not an extension id'),
    });
    await expect(
      McpClient.connect({ command: 'never-started' }, { extensions: { 'com.example/x': 'yes' as never } }),
    ).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    await server.close();
  });

  it('the tasks extension is one entry of the list: advertised in 2026 only while a tool supports tasks', async () => {
    const server = extensionServer();
    const modern = await connectKitClient(server, { era: 'modern' });
    expect(modern.serverExtensions[EXTENSION_IDS.tasks]).toBeUndefined();
    server.registerTool({
      name: 'slow',
      inputSchema: { type: 'object' },
      taskSupport: 'optional',
      handler: () => ({ content: [] }),
    });
    const again = await connectKitClient(server, { era: 'modern' });
    expect(again.serverExtensions[EXTENSION_IDS.tasks]).toEqual({});
    const legacy = await connectKitClient(server, { era: 'legacy' });
    expect(legacy.serverExtensions[EXTENSION_IDS.tasks]).toBeUndefined();
    expect(legacy.serverExtensions[REPORTS]).toBeDefined();
  });
});

describe('the official SDK 2.4 client', () => {
  it('declares extensions at initialize and reads the kit advertisement', async () => {
    const kit = await startKitHttp(extensionServer());
    const client = new SdkClient(
      { name: 'sdk-v2', version: '2.4.0' },
      { capabilities: { extensions: { [ECHO]: { from: 'sdk' } } } },
    );
    await client.connect(new SdkHttp(new URL(kit.url)));
    onTestFinished(() => client.close());
    const advertised = (client.getServerCapabilities() as { extensions?: Record<string, unknown> }).extensions;
    expect(advertised).toMatchObject({ [ECHO]: { maxDepth: 3 }, [REPORTS]: { formats: ['pdf', 'csv'] } });
    const raw = await (
      client as unknown as { request(r: unknown, schema: unknown): Promise<Record<string, unknown>> }
    ).request({ method: 'echo/declared', params: { x: 1 } }, z.looseObject({}));
    expect(raw.declared).toEqual({ [ECHO]: { from: 'sdk' } });
  });
});

describe('over stdio, a kit server in its own process', () => {
  for (const era of ['legacy', 'modern'] as const) {
    it(`declares and reads extensions in the ${era} era`, async () => {
      const client = await McpClient.connect(
        { command: process.execPath, args: [KIT_EXTENSIONS_SERVER] },
        { era, extensions: { [ECHO]: true } },
      );
      onTestFinished(() => client.close());
      expect(client.serverExtensions).toEqual({ [REPORTS]: { formats: ['pdf'] }, [ECHO]: {} });
      expect(await client.extensionRequest(ECHO, 'echo/declared')).toMatchObject({ declared: { [ECHO]: {} }, era });
    });
  }
});
