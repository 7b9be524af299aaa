/**
 * A tool handler's types come from its schemas: `registerTool` with an `inputSchema` written
 * `as const` types the handler's arguments (`FromSchema`), an `outputSchema` the
 * `structuredContent` it returns; type arguments still state both; a `JsonSchema` value falls
 * back to `Record<string, unknown>`; a prompt's `arguments` type its `get`. Checked with
 * `tsc --strict` in a project that installs the built package: the README's server snippet as the
 * README has it, and a schema with nested objects, arrays, enums and optional fields, where each
 * right use compiles and each wrong one is an error (`@ts-expect-error` fails the build when the
 * line compiles; one file is compiled on its own to see the error a user gets).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { requireBuiltCli, ROOT } from './support/cli.js';
import { STRICTEST, tsProject } from './support/typescript-project.js';

beforeAll(() => requireBuiltCli());

/** The first `ts` block after the README's heading `heading`. */
function readmeBlock(heading: string): string {
  const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const at = readme.indexOf(`\n${heading}\n`);
  expect(at, `README.md has the heading ${heading}`).toBeGreaterThan(0);
  const block = /```ts[^\n]*\n([\s\S]*?)```/.exec(readme.slice(at));
  expect(block, `a ts block follows ${heading}`).not.toBeNull();
  return block![1]!;
}

/** What the README's server snippet calls "your code": a notes store, declared for the compiler. */
const YOUR_CODE = `declare const notes: {
  find(id: string, options: { signal: AbortSignal }): Promise<{ text: string } | undefined>;
};
`;

it("the README's server snippet compiles under tsc --strict as written", async () => {
  const snippet = readmeBlock('### The other side: a server with `mcpwire/server`');
  expect(snippet).toContain('registerTool');
  const project = tsProject();
  project.write('your-code.d.ts', YOUR_CODE);
  project.write('server.ts', snippet);
  const run = await project.tsc(['your-code.d.ts', 'server.ts'], { noEmit: true });
  expect(run.output).toBe('');
  expect(run.code).toBe(0);
});

const TYPED_TOOLS = `import { McpServer, type FromSchema, type ToolArguments } from 'mcpwire/server';
import type { JsonSchema } from 'mcpwire/types';

const server = new McpServer({ name: 'types', version: '1' });

const taskSchema = {
  type: 'object',
  properties: {
    title: { type: 'string', minLength: 1 },
    priority: { type: 'string', enum: ['low', 'normal', 'high'] },
    estimate: { type: 'integer' },
    done: { type: 'boolean', default: false },
    tags: { type: 'array', items: { type: 'string' } },
    owner: {
      type: 'object',
      properties: {
        name: { type: 'string' },
        email: { type: ['string', 'null'] },
        teams: { type: 'array', items: { type: 'object', properties: { id: { type: 'number' } }, required: ['id'] } },
      },
      required: ['name'],
      additionalProperties: false,
    },
    due: { anyOf: [{ type: 'string', format: 'date' }, { type: 'null' }] },
    kind: { const: 'task' },
    labels: { type: 'object', additionalProperties: { type: 'number' } },
  },
  required: ['title', 'owner'],
} as const;

const resultSchema = {
  type: 'object',
  properties: { id: { type: 'string' }, created: { type: 'boolean' } },
  required: ['id'],
} as const;

type Task = FromSchema<typeof taskSchema>;
function takesString(value: string): string {
  return value;
}

server.registerTool({
  name: 'add_task',
  inputSchema: taskSchema,
  outputSchema: resultSchema,
  handler: async (task) => {
    takesString(task.title);
    takesString(task.owner.name);
    const priority: 'low' | 'normal' | 'high' | undefined = task.priority;
    const estimate: number | undefined = task.estimate;
    const done: boolean | undefined = task.done;
    const tags: string[] | undefined = task.tags;
    const email: string | null | undefined = task.owner.email;
    const team: number | undefined = task.owner.teams?.[0]?.id;
    const due: string | null | undefined = task.due;
    const kind: 'task' | undefined = task.kind;
    const weight: number | undefined = task.labels?.['urgent'];
    tags?.push('mutable: the arguments are the handler\\'s own');
    void [priority, estimate, done, email, team, due, kind, weight];

    // @ts-expect-error an optional field may be absent
    takesString(task.priority);
    // @ts-expect-error not a field of the schema
    void task.titel;
    // @ts-expect-error owner closes its fields (additionalProperties: false)
    void task.owner.phone;
    // @ts-expect-error not one of the enum's values
    const urgent: typeof task.priority = 'urgent';
    // @ts-expect-error an array of strings
    const numbers: number[] | undefined = task.tags;
    // @ts-expect-error a string of the enum, not a number
    if (task.priority === 1) void 0;
    void [urgent, numbers];

    await Promise.resolve();
    return { structuredContent: { id: 't1', created: true } };
  },
});

// The output schema types structuredContent: a wrong type or a missing required field is an error.
server.registerTool({
  name: 'bad_output',
  inputSchema: taskSchema,
  outputSchema: resultSchema,
  // @ts-expect-error id is a string in the outputSchema
  handler: () => ({ structuredContent: { id: 1 } }),
});
server.registerTool({
  name: 'missing_output',
  inputSchema: taskSchema,
  outputSchema: resultSchema,
  // @ts-expect-error id is required by the outputSchema
  handler: () => ({ structuredContent: { created: true } }),
});

// A handler's own annotation must admit what the schema gives.
server.registerTool({
  name: 'annotated',
  inputSchema: taskSchema,
  handler: (task: { title: string }) => ({ content: [{ type: 'text', text: task.title }] }),
});
server.registerTool({
  name: 'annotated_wrong',
  inputSchema: taskSchema,
  // @ts-expect-error the schema's title is a string
  handler: (task: { title: number }) => ({ content: [{ type: 'text', text: String(task.title) }] }),
});

// Inline in the call, the schema's literal types are kept without \`as const\` too.
server.registerTool({
  name: 'inline',
  inputSchema: { type: 'object', properties: { id: { type: 'string' }, limit: { type: 'number' } }, required: ['id'] },
  handler: ({ id, limit }) => ({ content: [{ type: 'text', text: id + String(limit ?? 10) }] }),
});

// Type arguments state the types instead (the schema's types are not inferred then).
server.registerTool<{ id: string }>({
  name: 'explicit',
  inputSchema: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
  handler: ({ id }) => ({ content: [{ type: 'text', text: takesString(id) }] }),
});
server.registerTool<{ id: string }, { count: number }>({
  name: 'explicit_output',
  inputSchema: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
  handler: () => ({ structuredContent: { count: 1 } }),
});
server.registerTool<{ id: string }, { count: number }>({
  name: 'explicit_output_wrong',
  inputSchema: { type: 'object' },
  // @ts-expect-error count is a number by the type argument
  handler: () => ({ structuredContent: { count: 'one' } }),
});

// A schema whose literal types are lost still compiles: the arguments are a record of unknowns.
const plain: JsonSchema = { type: 'object', properties: { id: { type: 'string' } } };
server.registerTool({
  name: 'plain',
  inputSchema: plain,
  outputSchema: plain,
  handler: (args) => {
    const record: Record<string, unknown> = args;
    // @ts-expect-error unknown until narrowed
    takesString(args['id']);
    return { structuredContent: record };
  },
});
const widened = { type: 'object', properties: { id: { type: 'string' } } };
server.registerTool({
  name: 'widened',
  inputSchema: widened,
  handler: (args) => ({ content: [{ type: 'text', text: typeof args['id'] === 'string' ? args['id'] : '' }] }),
});

// The types stand alone too, for handlers written apart from their registration.
type Args = ToolArguments<typeof taskSchema>;
export const sample: Args = { title: 'Write docs', owner: { name: 'Ada', teams: [{ id: 1 }] }, tags: ['docs'] };
// @ts-expect-error owner is required
export const noOwner: Task = { title: 'x' };
// @ts-expect-error estimate is a number
export const wrongEstimate: Task = { title: 'x', owner: { name: 'Ada' }, estimate: '3' };

// A prompt's arguments type what get receives: required ones a string, the others optional.
server.registerPrompt({
  name: 'summarize',
  arguments: [{ name: 'topic', required: true }, { name: 'tone' }],
  get: (args) => {
    const { topic, tone } = args;
    // @ts-expect-error tone is optional
    takesString(tone);
    // @ts-expect-error not an argument of the prompt
    void args.subject;
    return { messages: [{ role: 'user', content: { type: 'text', text: takesString(topic) + (tone ?? '') } }] };
  },
  complete: { tone: (value) => ['dry', 'warm'].filter((t) => t.startsWith(value)) },
});
server.registerPrompt({
  name: 'wrong_argument',
  arguments: [{ name: 'topic', required: true }] as const,
  // @ts-expect-error not an argument of the prompt
  get: ({ subject }: { subject: string }) => ({ messages: [{ role: 'user', content: { type: 'text', text: subject } }] }),
});
server.registerPrompt({
  name: 'wrong_completion',
  arguments: [{ name: 'topic' }],
  get: () => ({ messages: [] }),
  // @ts-expect-error completion of an argument the prompt does not have
  complete: { subject: () => [] },
});
`;

it('an as-const schema types the handler: right uses compile, wrong uses are errors (tsc --strict and stricter)', async () => {
  const project = tsProject();
  project.write('typed-tools.ts', TYPED_TOOLS);
  const strict = await project.tsc(['typed-tools.ts'], { noEmit: true });
  expect(strict.output).toBe('');
  expect(strict.code).toBe(0);
  const strictest = await project.tsc(['typed-tools.ts'], { noEmit: true, compilerOptions: STRICTEST });
  expect(strictest.output).toBe('');
  expect(strictest.code).toBe(0);
});

it('a wrong use reads as a type error at the line of the mistake', async () => {
  const project = tsProject();
  project.write(
    'wrong.ts',
    `import { McpServer } from 'mcpwire/server';
const server = new McpServer({ name: 'wrong', version: '1' });
const schema = { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] } as const;
function byNumber(id: number): string {
  return String(id);
}
server.registerTool({
  name: 'get_note',
  inputSchema: schema,
  handler: ({ id }) => ({ content: [{ type: 'text', text: byNumber(id) }] }),
});
`,
  );
  const run = await project.tsc(['wrong.ts'], { noEmit: true });
  expect(run.code).not.toBe(0);
  expect(run.output).toMatch(
    /wrong\.ts\(10,\d+\): error TS2345: Argument of type 'string' is not assignable to parameter of type 'number'/,
  );
});

/** An object schema `levels` deep, each level with `width` properties of every kind. */
function bigSchema(levels: number, width: number): string {
  let inner = `{ type: 'string' }`;
  for (let level = 0; level < levels; level++) {
    const props = [`inner: ${inner}`];
    for (let i = 0; i < width; i++)
      props.push(
        `p${i}: ${
          [
            `{ type: 'string', enum: ['a${i}', 'b${i}'] }`,
            `{ type: 'array', items: { type: 'object', properties: { q: { type: 'number' } }, required: ['q'] } }`,
            `{ anyOf: [{ type: 'integer' }, { type: 'null' }] }`,
            `{ type: ['boolean', 'null'] }`,
          ][i % 4]
        }`,
      );
    inner = `{ type: 'object', properties: { ${props.join(', ')} }, required: ['inner', 'p0'] }`;
  }
  return inner;
}

it('a schema nested beyond the depth bound compiles (no "excessively deep" error), typed to the bound', async () => {
  const project = tsProject();
  project.write(
    'deep.ts',
    `import { McpServer } from 'mcpwire/server';
const server = new McpServer({ name: 'deep', version: '1' });
const schema = ${bigSchema(40, 12)} as const;
server.registerTool({
  name: 'deep',
  inputSchema: schema,
  handler: (args) => {
    const top: 'a0' | 'b0' = args.p0;
    const second: 'a0' | 'b0' = args.inner.p0;
    // @ts-expect-error typed within the bound
    const wrong: number = args.inner.inner.p0;
    return { content: [{ type: 'text', text: top + second + String(wrong) }] };
  },
});
`,
  );
  const run = await project.tsc(['deep.ts'], { noEmit: true });
  expect(run.output).toBe('');
  expect(run.code).toBe(0);
});
