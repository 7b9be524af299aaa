/**
 * The server kit's tools, seen by mcpwire's own client over an in-memory pair in both eras:
 * listing, calling, input validated before the handler, the error envelope of every failure
 * (never a stack), output checked against the outputSchema, progress, logs, cancellation, and
 * list_changed following registrations.
 */
import { describe, expect, it } from 'vitest';
import type { ServerLogRecord } from '../src/server/index.js';
import { McpServer, ToolError } from '../src/server/index.js';
import { connectKitClient } from './support/kit-memory.js';
import { eventually } from './support/wait.js';

const ERAS = ['legacy', 'modern'] as const;

function makeServer(logs: ServerLogRecord[] = []): McpServer {
  const server = new McpServer({ name: 'kit-test', version: '1.2.3', logger: (r) => logs.push(r) });
  server.registerTool({
    name: 'echo',
    title: 'Echo',
    description: 'Echoes its text',
    inputSchema: {
      type: 'object',
      properties: { text: { type: 'string', maxLength: 10 } },
      required: ['text'],
      additionalProperties: false,
    },
    outputSchema: { type: 'object', properties: { echoed: { type: 'string' } }, required: ['echoed'] },
    annotations: { readOnlyHint: true },
    handler: ({ text }) => ({ structuredContent: { echoed: text } }),
  });
  return server;
}

describe.each(ERAS)('a kit server in the %s era', (era) => {
  it('negotiates, lists its tools with their schemas and answers a call with checked structured content', async () => {
    const client = await connectKitClient(makeServer(), { era });
    expect(client.era).toBe(era);
    expect(client.protocolVersion).toBe(era === 'legacy' ? '2025-11-25' : '2026-07-28');
    expect(client.serverInfo).toMatchObject({ name: 'kit-test', version: '1.2.3' });
    const tools = await client.listTools();
    expect(tools).toEqual([
      expect.objectContaining({
        name: 'echo',
        title: 'Echo',
        annotations: { readOnlyHint: true },
        outputSchema: expect.any(Object),
      }),
    ]);
    const result = await client.callTool('echo', { text: 'hi' });
    expect(result.isError).toBeUndefined();
    expect(result.structuredContent).toEqual({ echoed: 'hi' });
    expect(result.content).toEqual([{ type: 'text', text: '{"echoed":"hi"}' }]);
  });

  it('rejects invalid input before the handler runs, naming the failing paths', async () => {
    const server = new McpServer({ name: 'kit-test', version: '1', logger: () => undefined });
    let ran = 0;
    server.registerTool({
      name: 'add',
      inputSchema: {
        type: 'object',
        properties: { title: { type: 'string', minLength: 1, maxLength: 5 }, n: { type: 'integer' } },
        required: ['title', 'n'],
      },
      handler: () => {
        ran++;
        return { content: [] };
      },
    });
    const client = await connectKitClient(server, { era });
    const result = await client.callTool('add', { title: 'much too long' });
    expect(ran).toBe(0);
    expect(result.isError).toBe(true);
    const envelope = result.structuredContent as {
      success: boolean;
      error: { code: string; message: string; paths: string[] };
    };
    expect(envelope.success).toBe(false);
    expect(envelope.error.code).toBe('VALIDATION_ERROR');
    expect(envelope.error.paths.sort()).toEqual(['/n', '/title']);
    expect(envelope.error.message).toMatch(/\/title must NOT have more than 5 characters/);
    expect(JSON.parse((result.content[0] as { text: string }).text)).toEqual(envelope);
  });

  it('turns a ToolError into its own code and an unexpected exception into INTERNAL_ERROR, with the stack only in the server log', async () => {
    const logs: ServerLogRecord[] = [];
    const server = new McpServer({ name: 'kit-test', version: '1', logger: (r) => logs.push(r) });
    server.registerTool({
      name: 'missing',
      inputSchema: { type: 'object' },
      handler: () => {
        throw new ToolError('TASK_NOT_FOUND', 'Task not found');
      },
    });
    server.registerTool({
      name: 'crash',
      inputSchema: { type: 'object' },
      handler: () => {
        throw new Error('db password=hunter2 at /srv/secret.db');
      },
    });
    const client = await connectKitClient(server, { era });

    const missing = await client.callTool('missing', {});
    expect(missing.isError).toBe(true);
    expect(missing.structuredContent).toEqual({
      success: false,
      error: { code: 'TASK_NOT_FOUND', message: 'Task not found' },
    });

    const crash = await client.callTool('crash', {});
    expect(crash.isError).toBe(true);
    expect((crash.structuredContent as { error: { code: string } }).error.code).toBe('INTERNAL_ERROR');
    const wire = JSON.stringify(crash);
    expect(wire).not.toMatch(/hunter2|secret\.db|at .*\.ts|Error:/);
    const logged = logs.find((r) => r.msg === 'tool handler threw');
    expect(logged).toMatchObject({ level: 'error', tool: 'crash', error: 'db password=hunter2 at /srv/secret.db' });
    expect(logged?.stack).toMatch(/server-kit-tools-both-eras/);
  });

  it('checks a result against the outputSchema before sending it', async () => {
    const logs: ServerLogRecord[] = [];
    const server = new McpServer({ name: 'kit-test', version: '1', logger: (r) => logs.push(r) });
    server.registerTool({
      name: 'bad',
      inputSchema: { type: 'object' },
      outputSchema: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] },
      // @ts-expect-error the result breaks its outputSchema on purpose: the run-time check is under test
      handler: () => ({ structuredContent: { n: 'not a number' } }),
    });
    const client = await connectKitClient(server, { era });
    const result = await client.callTool('bad', {});
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result)).not.toContain('not a number');
    expect(JSON.parse((result.content[0] as { text: string }).text).error.code).toBe('INTERNAL_ERROR');
    expect(logs).toContainEqual(
      expect.objectContaining({ msg: 'tool result does not match its outputSchema', tool: 'bad' }),
    );
  });

  it('answers an unknown tool with the JSON-RPC invalid-params error', async () => {
    const client = await connectKitClient(makeServer(), { era });
    await expect(client.callTool('nope', {})).rejects.toMatchObject({ code: 'SERVER_ERROR', rpcCode: -32602 });
  });

  it('reports progress to the caller and aborts the handler when the call is cancelled', async () => {
    const server = new McpServer({ name: 'kit-test', version: '1', logger: () => undefined });
    let aborted: unknown;
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    server.registerTool({
      name: 'slow',
      inputSchema: { type: 'object' },
      handler: (_args, context) =>
        new Promise((resolve) => {
          context.progress(1, 10, 'one');
          context.progress(1, 10, 'not increasing: dropped');
          context.progress(2, 10, 'two');
          context.signal.addEventListener('abort', () => {
            aborted = context.signal.reason;
            resolve({ content: [] });
          });
          started();
        }),
    });
    const client = await connectKitClient(server, { era });
    const seen: number[] = [];
    const controller = new AbortController();
    const call = client.callTool('slow', {}, { signal: controller.signal, onProgress: (p) => seen.push(p.progress) });
    await running;
    await eventually(() => (seen.length === 2 ? true : undefined), { what: 'two progress notifications' });
    controller.abort(new Error('user pressed stop'));
    await expect(call).rejects.toMatchObject({ code: 'CANCELLED' });
    // Legacy: the cancel notice; modern (in memory, no HTTP stream): the same notice.
    await eventually(() => aborted, { what: 'the handler to see the abort' });
    expect(seen).toEqual([1, 2]);
  });

  it('sends log messages at or above the level the client asked for', async () => {
    const server = new McpServer({ name: 'kit-test', version: '1', logger: () => undefined });
    server.registerTool({
      name: 'chatty',
      inputSchema: { type: 'object' },
      handler: (_args, context) => {
        context.log('debug', 'too quiet');
        context.log('warning', { note: 'heard' }, 'chatty');
        return { content: [{ type: 'text', text: 'done' }] };
      },
    });
    const client = await connectKitClient(server, { era, logLevel: 'info' });
    const messages: unknown[] = [];
    client.on('log', (params) => messages.push(params));
    await client.callTool('chatty', {});
    await eventually(() => (messages.length > 0 ? true : undefined), { what: 'a log message' });
    expect(messages).toEqual([{ level: 'warning', logger: 'chatty', data: { note: 'heard' } }]);
  });
});

describe('onToolCall', () => {
  it('hears every finished call with its duration and error code, validation failures included', async () => {
    const records: Array<Record<string, unknown>> = [];
    const server = new McpServer({
      name: 'kit-test',
      version: '1',
      logger: () => undefined,
      onToolCall: (r) => records.push({ ...r }),
    });
    server.registerTool({
      name: 'ok',
      inputSchema: { type: 'object', properties: { n: { type: 'integer' } } },
      handler: () => ({ content: [] }),
    });
    server.registerTool({
      name: 'no',
      inputSchema: { type: 'object' },
      handler: () => {
        throw new ToolError('TASK_NOT_FOUND', 'Task not found');
      },
    });
    const client = await connectKitClient(server, { era: 'legacy' });
    await client.callTool('ok', { n: 1 });
    await client.callTool('ok', { n: 'x' });
    await client.callTool('no', {});
    expect(records).toEqual([
      { tool: 'ok', arguments: { n: 1 }, durationMs: expect.any(Number), isError: false },
      {
        tool: 'ok',
        arguments: { n: 'x' },
        durationMs: expect.any(Number),
        isError: true,
        errorCode: 'VALIDATION_ERROR',
      },
      { tool: 'no', arguments: {}, durationMs: expect.any(Number), isError: true, errorCode: 'TASK_NOT_FOUND' },
    ]);
  });
});

describe('registrations', () => {
  it('return disposers, and a legacy client hears list_changed for each change', async () => {
    const server = makeServer();
    const client = await connectKitClient(server, { era: 'legacy' });
    let changes = 0;
    client.on('toolsChanged', () => changes++);
    const dispose = server.registerTool({
      name: 'extra',
      inputSchema: { type: 'object' },
      handler: () => ({ content: [] }),
    });
    await eventually(() => (changes === 1 ? true : undefined), { what: 'list_changed after registering' });
    expect((await client.listTools()).map((t) => t.name)).toEqual(['echo', 'extra']);
    dispose();
    dispose();
    await eventually(() => (changes === 2 ? true : undefined), { what: 'list_changed after disposing' });
    expect((await client.listTools()).map((t) => t.name)).toEqual(['echo']);
  });

  it('refuse a duplicate name and a schema that is not an object schema', () => {
    const server = makeServer();
    expect(() => server.registerTool({ name: 'echo', inputSchema: { type: 'object' }, handler: () => ({}) })).toThrow(
      /already registered/,
    );
    expect(() => server.registerTool({ name: 'x', inputSchema: { type: 'string' }, handler: () => ({}) })).toThrow(
      /object schema/,
    );
    expect(() =>
      server.registerTool({ name: 'bad name!', inputSchema: { type: 'object' }, handler: () => ({}) }),
    ).toThrow(/tool name/);
  });

  it('page tools/list with an opaque cursor', async () => {
    const server = new McpServer({ name: 'kit-test', version: '1', pageSize: 2, logger: () => undefined });
    for (const name of ['a', 'b', 'c', 'd', 'e'])
      server.registerTool({ name, inputSchema: { type: 'object' }, handler: () => ({}) });
    const client = await connectKitClient(server, { era: 'modern' });
    const first = await client.listToolsPage();
    expect(first.tools.map((t) => t.name)).toEqual(['a', 'b']);
    expect(typeof first.nextCursor).toBe('string');
    expect((await client.listTools()).map((t) => t.name)).toEqual(['a', 'b', 'c', 'd', 'e']);
    await expect(client.listToolsPage('bogus')).rejects.toMatchObject({ rpcCode: -32602 });
  });
});
