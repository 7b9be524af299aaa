/**
 * What a server lists becomes names, types and comments in the emitted module, never code: tool
 * names that are not identifiers (quoted keys, `__proto__` an own method), names that collide
 * once made PascalCase, reserved and nested names, `*\/` in descriptions, titles and names, the
 * generator's own `tsType` keyword, `$ref`s to files and URLs (never read: typed unknown, with a
 * warning), nesting without end, and the JSON Schema 2020-12 shapes (`$defs`, recursive
 * references, `prefixItems`). A hand-written server lists them as they are; the module compiles
 * under `tsc --strict` and its calls reach the server under the right names.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, expect, it } from 'vitest';
import { requireBuiltCli, runCli } from './support/cli.js';
import { runNode, STRICTEST, tsProject } from './support/typescript-project.js';

const SERVER = path.join(path.dirname(fileURLToPath(import.meta.url)), 'support/listed-tools-server.mjs');

beforeAll(() => requireBuiltCli());

function nested(levels: number): Record<string, unknown> {
  let schema: Record<string, unknown> = { type: 'string' };
  for (let i = 0; i < levels; i++) schema = { type: 'object', properties: { inner: schema }, required: ['inner'] };
  return schema;
}

const CALL_OUTPUT = {
  type: 'object',
  properties: { tool: { type: 'string' }, arguments: { type: 'object' } },
  required: ['tool', 'arguments'],
};

const TOOLS = [
  {
    name: 'weird */ name',
    title: 'A title with */ inside',
    description: 'Ends */ here.\u2028Then /* opens, and @param lies.',
    inputSchema: {
      type: 'object',
      description: 'schema */ description',
      properties: {
        injected: { tsType: 'string; }\nexport const pwned = 1;\nexport interface Again {' },
        'not an identifier': { type: 'string', description: 'property */ description' },
        quoted: { enum: ['a*/b', "it's", 'line\nbreak'] },
      },
      patternProperties: { '^x*/y*/$': { type: 'number' } },
      required: ['not an identifier'],
    },
  },
  { name: 'get-sum', inputSchema: { type: 'object', properties: { a: { type: 'number' } }, required: ['a'] } },
  { name: 'get_sum', inputSchema: { type: 'object', properties: { b: { type: 'string' } }, required: ['b'] } },
  { name: '__proto__', inputSchema: { type: 'object', properties: {} } },
  { name: 'class', inputSchema: { type: 'object', properties: { x: { type: 'boolean' } } } },
  { name: '3d-render', inputSchema: { type: 'object' } },
  {
    name: 'shadows',
    inputSchema: {
      type: 'object',
      properties: {
        p: { title: 'Promise', type: 'object', properties: { then: { type: 'number' } } },
        c: { $ref: '#/$defs/McpClient' },
        s: { title: 'GetSumInput', type: 'object', properties: { n: { type: 'number' } } },
      },
      $defs: { McpClient: { type: 'object', properties: { y: { type: 'string' } }, required: ['y'] } },
    },
    outputSchema: CALL_OUTPUT,
  },
  {
    name: 'modern',
    inputSchema: {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: {
        pair: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'number' }], items: false },
        list: { $ref: '#/$defs/node' },
        here: { $ref: '#' },
      },
      required: ['pair'],
      $defs: {
        node: {
          type: 'object',
          properties: { value: { type: 'integer' }, next: { $ref: '#/$defs/node' } },
          required: ['value'],
        },
      },
    },
    outputSchema: CALL_OUTPUT,
  },
  {
    name: 'outside',
    inputSchema: {
      type: 'object',
      properties: {
        web: { $ref: 'https://example.invalid/schema.json' },
        file: { $ref: 'file:///etc/passwd' },
        nowhere: { $ref: '#/$defs/absent' },
        deep: nested(200),
      },
    },
  },
  {
    // The generator refuses a schema with both (different) definitions and $defs: the tool is typed as an object.
    name: 'refused',
    inputSchema: {
      type: 'object',
      properties: { a: { $ref: '#/$defs/a' } },
      $defs: { a: { type: 'string' } },
      definitions: { a: { type: 'number' } },
    },
  },
  {
    // Array bounds: a huge one would be a tuple of that many types, one below the minimum admits nothing.
    name: 'bounds',
    inputSchema: {
      type: 'object',
      properties: {
        huge: { type: 'array', items: { type: 'string' }, minItems: 1_000_000 },
        contradictory: { type: 'array', minItems: 3, maxItems: 1 },
        pair: { type: 'array', items: { type: 'number' }, minItems: 2, maxItems: 2 },
      },
    },
  },
  { name: 'fail-always', inputSchema: { type: 'object', properties: { why: { type: 'string' } } } },
];

const PROGRAM = `import { McpClient, isMcpError } from 'mcpwire';
import * as module from './tools.js';
import type { GetSumInput, GetSum2Input, ModernInput, ShadowsInput, Tool3DRenderInput } from './tools.js';

const [server, tools] = process.argv.slice(2) as [string, string];
const client = await McpClient.connect({ command: process.execPath, args: [server, tools] });
try {
  const typed = module.typedTools(client);
  const sumA: GetSumInput = { a: 1 };
  const sumB: GetSum2Input = { b: 'one' };
  // @ts-expect-error get_sum takes b, a string
  const wrongB: GetSum2Input = { b: 1 };
  const pair: ModernInput['pair'] = ['x', 1];
  // @ts-expect-error pair is [string, number]
  const wrongPair: ModernInput['pair'] = [1, 'x'];
  const shadow: ShadowsInput = { c: { y: 'why' }, p: { then: 1 } };
  const anything: Tool3DRenderInput = { whatever: true };
  // @ts-expect-error the tsType keyword never became code
  void module.pwned;
  const calls = [
    await typed['weird */ name']({ 'not an identifier': 'n', quoted: 'a*/b' }),
    await typed['get-sum'](sumA),
    await typed.get_sum(sumB),
    await typed.__proto__(),
    await typed.class({ x: true }),
    await typed['3d-render'](anything),
  ].map((result) => JSON.parse((result.content[0] as { text: string }).text) as unknown);
  const structured = [
    await typed.shadows(shadow),
    await typed.modern({ pair, list: { value: 1, next: { value: 2 } } }),
  ];
  let failure = '';
  try {
    await typed['fail-always']({ why: 'because' });
  } catch (error) {
    failure = isMcpError(error, 'TOOL_ERROR') ? error.message : String(error);
  }
  void wrongB;
  void wrongPair;
  console.log(JSON.stringify({ calls, structured, failure, ownKeys: Object.keys(typed).length }));
} finally {
  await client.close();
}
`;

it(
  'odd tool names and hostile schemas give a module that compiles under tsc --strict and calls the right tools',
  { timeout: 180_000 },
  async () => {
    const project = tsProject();
    const toolsFile = project.write('listed-tools.json', JSON.stringify(TOOLS));
    // VERBOSE turns on the generator's debug log, which writes to stdout: it must stay off.
    const emitted = await runCli(['emit-ts', '-o', 'tools.ts', '--', process.execPath, SERVER, toolsFile], {
      cwd: project.dir,
      env: { VERBOSE: '1' },
    });
    expect(emitted.code).toBe(0);
    const warnings = emitted.stderr.trim().split('\n');
    expect(warnings).toEqual([
      expect.stringMatching(
        /^warning: tool "outside" \(OutsideInput\): \$ref "https:\/\/example\.invalid\/schema\.json" points outside/,
      ),
      expect.stringMatching(/^warning: tool "outside" \(OutsideInput\): \$ref "file:\/\/\/etc\/passwd" points outside/),
      expect.stringMatching(/^warning: tool "outside" \(OutsideInput\): a part nested more than 64 levels deep/),
      expect.stringMatching(/^warning: tool "outside" \(OutsideInput\): \$ref "#\/\$defs\/absent" points nowhere/),
      expect.stringMatching(
        /^warning: tool "refused" \(RefusedInput\): its schema could not be turned into a type .*: typed as an object$/,
      ),
    ]);
    const code = readFileSync(path.join(project.dir, 'tools.ts'), 'utf8');
    expect(emitted.stdout).toMatch(/^wrote \S+tools\.ts: \d+ tools of listed-tools-server \(2 with typed output\)\n$/);
    expect(code).not.toContain('pwned');
    expect(code).toContain('huge?: string[];');
    expect(code).toContain('pair?: [number, number];');
    expect(code).toContain('export interface GetSumInput');
    expect(code).toContain('export interface GetSum2Input');
    expect(code).toContain('export interface ClassInput');
    expect(code).toContain('export interface Tool3DRenderInput');
    expect(code).toMatch(/export interface PromiseType \{/);
    expect(code).toMatch(/export interface McpClientType \{/);
    expect(code).toMatch(/export interface GetSumInputType \{/);
    expect(code).toContain("['__proto__']: (args, options) =>");

    writeFileSync(path.join(project.dir, 'main.ts'), PROGRAM);
    const compiled = await project.tsc(['tools.ts', 'main.ts'], { compilerOptions: STRICTEST });
    expect(compiled.output).toBe('');
    expect(compiled.code).toBe(0);

    const run = await runNode(project.dir, 'out/main.js', [SERVER, toolsFile]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({
      calls: [
        { tool: 'weird */ name', arguments: { 'not an identifier': 'n', quoted: 'a*/b' } },
        { tool: 'get-sum', arguments: { a: 1 } },
        { tool: 'get_sum', arguments: { b: 'one' } },
        { tool: '__proto__', arguments: {} },
        { tool: 'class', arguments: { x: true } },
        { tool: '3d-render', arguments: { whatever: true } },
      ],
      structured: [
        { tool: 'shadows', arguments: { c: { y: 'why' }, p: { then: 1 } } },
        { tool: 'modern', arguments: { pair: ['x', 1], list: { value: 1, next: { value: 2 } } } },
      ],
      failure: expect.stringContaining('tool "fail-always" reported an error'),
      ownKeys: TOOLS.length,
    });
  },
);

it(
  'the module of a server without tools, and of one with a single untyped tool, passes every strict check',
  { timeout: 180_000 },
  async () => {
    const project = tsProject();
    const none = project.write('none.json', '[]');
    const one = project.write('one.json', JSON.stringify([{ name: 'plain', inputSchema: { type: 'object' } }]));
    for (const [list, file] of [
      [none, 'none.ts'],
      [one, 'one.ts'],
    ] as const) {
      const emitted = await runCli(['emit-ts', '-o', file, '--', process.execPath, SERVER, list], { cwd: project.dir });
      expect(emitted.stderr).toBe('');
      expect(emitted.code).toBe(0);
    }
    expect(readFileSync(path.join(project.dir, 'none.ts'), 'utf8')).toContain('export interface TypedTools {}');
    const compiled = await project.tsc(['none.ts', 'one.ts'], { noEmit: true, compilerOptions: STRICTEST });
    expect(compiled.output).toBe('');
    expect(compiled.code).toBe(0);
  },
);

it(
  'an output path that cannot be written exits 1 naming it, and leaves no temporary file',
  { timeout: 180_000 },
  async () => {
    const project = tsProject();
    const none = project.write('none.json', '[]');
    mkdirSync(path.join(project.dir, 'taken.ts'));
    const before = readdirSync(project.dir).sort();
    for (const output of ['taken.ts', 'missing/tools.ts']) {
      const emitted = await runCli(['emit-ts', '-o', output, '--', process.execPath, SERVER, none], {
        cwd: project.dir,
      });
      expect(emitted.code).toBe(1);
      expect(emitted.stdout).toBe('');
      expect(emitted.stderr).toBe(
        `error: cannot write ${path.join(project.dir, output)}: ${output === 'taken.ts' ? 'EISDIR' : 'ENOENT'}: ${output === 'taken.ts' ? 'illegal operation on a directory' : 'no such file or directory'}\n`,
      );
    }
    expect(readdirSync(project.dir).sort()).toEqual(before);
  },
);
