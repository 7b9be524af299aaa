/**
 * The kit takes the schemas servers send: an `inputSchema` / `outputSchema` is validated by the
 * dialect its `$schema` names (draft-07, 2019-09, 2020-12; none is 2020-12, MCP 2025-11-25's
 * default), and any other `$schema` is refused at registration naming it and the dialects taken.
 * The real schemas are `@modelcontextprotocol/server-everything`'s (every one declares draft-07):
 * a kit server re-serves its tools, forwarding each call to the real server.
 */
import { describe, expect, it } from 'vitest';
import type { McpClient } from '../src/client/mcp-client.js';
import { McpError } from '../src/protocol/errors.js';
import type { CallToolResult, JsonSchema } from '../src/protocol/types.js';
import { McpServer } from '../src/server/index.js';
import { EVERYTHING } from './support/cli.js';
import { connectClient } from './support/client.js';
import { connectKitClient } from './support/kit-memory.js';

const DRAFT_07 = 'http://json-schema.org/draft-07/schema#';

function quietServer(): McpServer {
  return new McpServer({ name: 'dialects', version: '1', logger: () => undefined });
}

function errorText(result: CallToolResult): string {
  return (result.content[0] as { text: string }).text;
}

/** A kit tool whose arguments come back as its structured content. */
function echoTool(server: McpServer, name: string, inputSchema: JsonSchema): void {
  server.registerTool({ name, inputSchema, handler: (args) => ({ structuredContent: args }) });
}

describe('server-everything re-served by a kit server', () => {
  it('registers every tool with its draft-07 schemas, and checks calls and results by them', async () => {
    const everything = await connectClient({ command: process.execPath, args: [EVERYTHING, 'stdio'] });
    const tools = await everything.listTools();
    expect(tools.length).toBeGreaterThan(5);
    for (const tool of tools) expect(tool.inputSchema.$schema).toBe(DRAFT_07);
    expect(tools.find((t) => t.name === 'get-structured-content')?.outputSchema?.$schema).toBe(DRAFT_07);

    const kit = quietServer();
    for (const tool of tools)
      kit.registerTool({
        name: tool.name,
        inputSchema: tool.inputSchema,
        ...(tool.outputSchema ? { outputSchema: tool.outputSchema } : {}),
        handler: (args, { signal }) => everything.callTool(tool.name, args, { signal }),
      });
    const client: McpClient = await connectKitClient(kit);
    const listed = await client.listTools();
    expect(listed.map((t) => t.name)).toEqual(tools.map((t) => t.name));

    const sum = await client.callTool('get-sum', { a: 2, b: 3 });
    expect(sum.isError).toBeFalsy();
    expect(JSON.stringify(sum.content)).toContain('5');

    const badSum = await client.callTool('get-sum', { a: 2, b: 'three' });
    expect(badSum.isError).toBe(true);
    expect(errorText(badSum)).toContain('VALIDATION_ERROR');
    expect(errorText(badSum)).toContain('/b must be number');

    const weather = await client.callTool('get-structured-content', { location: 'Chicago' });
    expect(weather.isError).toBeFalsy();
    expect(weather.structuredContent).toMatchObject({ temperature: expect.any(Number) as number });

    const nowhere = await client.callTool('get-structured-content', { location: 'Atlantis' });
    expect(nowhere.isError).toBe(true);
    expect(errorText(nowhere)).toContain('/location must be equal to one of the allowed values');
  });

  it('checks a result against a draft-07 outputSchema (additionalProperties: false)', async () => {
    const everything = await connectClient({ command: process.execPath, args: [EVERYTHING, 'stdio'] });
    const tool = (await everything.listTools()).find((t) => t.name === 'get-structured-content')!;
    const kit = quietServer();
    kit.registerTool({
      name: tool.name,
      inputSchema: tool.inputSchema,
      outputSchema: tool.outputSchema!,
      handler: () => ({ structuredContent: { temperature: 20, conditions: 'fair', humidity: 40, wind: 'none' } }),
    });
    const result = await kit.callTool(tool.name, { location: 'Chicago' });
    expect(result.isError).toBe(true);
    expect(errorText(result)).toContain('INTERNAL_ERROR');
  });
});

describe('each dialect by its own rules', () => {
  it('draft-07: an array form of items is a tuple, additionalItems closes it', async () => {
    const server = quietServer();
    echoTool(server, 'pair', {
      $schema: DRAFT_07,
      type: 'object',
      properties: { pair: { type: 'array', items: [{ type: 'string' }, { type: 'number' }], additionalItems: false } },
      required: ['pair'],
      definitions: { unused: { type: 'string' } },
    });
    expect((await server.callTool('pair', { pair: ['a', 1] })).isError).toBeFalsy();
    expect(errorText(await server.callTool('pair', { pair: [1, 'a'] }))).toContain('/pair/0 must be string');
    expect((await server.callTool('pair', { pair: ['a', 1, 2] })).isError).toBe(true);
  });

  it('2020-12 (declared, or no $schema): prefixItems is the tuple, and a list in items is no schema', async () => {
    for (const $schema of ['https://json-schema.org/draft/2020-12/schema', undefined]) {
      const server = quietServer();
      echoTool(server, 'pair', {
        ...($schema ? { $schema } : {}),
        type: 'object',
        properties: { pair: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'number' }], items: false } },
      });
      expect((await server.callTool('pair', { pair: ['a', 1] })).isError).toBeFalsy();
      expect(errorText(await server.callTool('pair', { pair: [1, 'a'] }))).toContain('/pair/0 must be string');
      expect(() =>
        echoTool(server, 'draft-07-items', {
          ...($schema ? { $schema } : {}),
          type: 'object',
          properties: { pair: { type: 'array', items: [{ type: 'string' }] } },
        }),
      ).toThrow(/tool "draft-07-items" inputSchema is not a valid JSON Schema/);
    }
  });

  it('2019-09: an array form of items is a tuple there, and dependentRequired holds', async () => {
    const server = quietServer();
    echoTool(server, 'ranged', {
      $schema: 'https://json-schema.org/draft/2019-09/schema',
      type: 'object',
      properties: { range: { type: 'array', items: [{ type: 'number' }, { type: 'number' }] }, from: {}, to: {} },
      dependentRequired: { from: ['to'] },
    });
    expect((await server.callTool('ranged', { range: [1, 2], from: 1, to: 2 })).isError).toBeFalsy();
    expect(errorText(await server.callTool('ranged', { range: ['1'] }))).toContain('/range/0 must be number');
    expect(errorText(await server.callTool('ranged', { from: 1 }))).toContain('must have property to when');
  });

  it('takes each URI form (http or https, with or without the empty fragment) and an outputSchema alike', async () => {
    const server = quietServer();
    const forms = [
      'https://json-schema.org/draft-07/schema#',
      'http://json-schema.org/draft-07/schema',
      'http://json-schema.org/draft/2020-12/schema#',
      'https://json-schema.org/draft/2019-09/schema#',
    ];
    forms.forEach(($schema, i) =>
      server.registerTool({
        name: `form-${i}`,
        inputSchema: { $schema, type: 'object' },
        outputSchema: { $schema, type: 'object', properties: { n: { type: 'number' } }, required: ['n'] },
        handler: () => ({ structuredContent: { n: i } }),
      }),
    );
    for (const i of forms.keys()) expect((await server.callTool(`form-${i}`, {})).structuredContent).toEqual({ n: i });
  });

  it('two tools may carry the same $id', () => {
    const server = quietServer();
    const schema = { $schema: DRAFT_07, $id: 'https://example.com/args.json', type: 'object' };
    echoTool(server, 'one', schema);
    expect(() => echoTool(server, 'two', { ...schema })).not.toThrow();
  });
});

describe('another dialect', () => {
  it.each([
    ['inputSchema', 'http://json-schema.org/draft-04/schema#'],
    ['outputSchema', 'https://example.com/my-dialect'],
  ] as const)('in an %s is refused at registration, naming it and the dialects taken', (field, $schema) => {
    const server = quietServer();
    const declared = { $schema, type: 'object' };
    let thrown: unknown;
    try {
      server.registerTool({
        name: 'old',
        inputSchema: field === 'inputSchema' ? declared : { type: 'object' },
        ...(field === 'outputSchema' ? { outputSchema: declared } : {}),
        handler: () => ({}),
      });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(McpError);
    expect((thrown as McpError).code).toBe('INVALID_ARGUMENT');
    const message = (thrown as McpError).message;
    expect(message).toContain(`tool "old" ${field} declares "$schema": "${$schema}"`);
    expect(message).toContain('draft-07 (http://json-schema.org/draft-07/schema#)');
    expect(message).toContain('2019-09 (https://json-schema.org/draft/2019-09/schema)');
    expect(message).toContain('2020-12 (https://json-schema.org/draft/2020-12/schema)');
    expect(message).toContain('2020-12 when "$schema" is absent');
  });
});
