/**
 * `mcpwire emit-ts` against real servers: the reference server (draft-07 schemas from zod, one
 * tool with an outputSchema, tool names that are not identifiers) and the todo example (every
 * tool with an outputSchema, `oneOf` results, `isError` results carrying structuredContent). The
 * built CLI writes the module; the repository's `tsc --strict` compiles it with a program that
 * uses it (`// @ts-expect-error` lines prove the types are not `any`); Node runs that program
 * against the live server; and a program passing a wrong argument type fails to compile.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { EVERYTHING, requireBuiltCli, runCli } from './support/cli.js';
import { ALICE, NOBODYS_TASK, startTodoHttp, TODO_SERVER } from './support/todo-server.js';
import { runNode, tsProject } from './support/typescript-project.js';

beforeAll(() => requireBuiltCli());

/** Each test starts a server twice and runs tsc: minutes on a busy 2-core machine, not the default 60 s. */
const SLOW = { timeout: 180_000 };

const EVERYTHING_PROGRAM = `import { McpClient } from 'mcpwire';
import { typedTools } from './tools.js';

const client = await McpClient.connect({ command: process.execPath, args: [process.argv[2]!] });
try {
  const tools = typedTools(client);
  const weather = await tools['get-structured-content']({ location: 'Chicago' });
  const temperature: number = weather.temperature;
  const conditions: string = weather.conditions;
  const sum = await tools['get-sum']({ a: 2, b: 3 });
  const echo = await tools.echo({ message: 'typed hello' });
  const env = await tools['get-env']();
  // @ts-expect-error a is a number
  void (() => tools['get-sum']({ a: 'two', b: 3 }));
  // @ts-expect-error location is one of three cities
  void (() => tools['get-structured-content']({ location: 'Paris' }));
  // @ts-expect-error message is required
  void (() => tools.echo({}));
  // @ts-expect-error the output has no such field
  void (() => weather.pressure.toFixed());
  console.log(
    JSON.stringify({
      temperature,
      conditions,
      sum: sum.content,
      echo: echo.content,
      envIsError: env.isError ?? false,
    }),
  );
} finally {
  await client.close();
}
`;

const TODO_PROGRAM = `import { McpClient, isMcpError } from 'mcpwire';
import type { CallToolResult } from 'mcpwire/types';
import { typedTools, type AddTaskOutput } from './tools.js';

const [server, db, user, missing] = process.argv.slice(2) as [string, string, string, string];
const client = await McpClient.connect({ command: process.execPath, args: [server, '--db', db] });
try {
  const tools = typedTools(client);
  const added: AddTaskOutput = await tools.add_task({ user_id: user, title: 'typed task' });
  if (!added.success) throw new Error('add_task failed: ' + added.error.message);
  const done = await tools.complete_task({ user_id: user, task_id: added.task.task_id });
  const listed = await tools.list_tasks({ user_id: user, status: 'completed' });
  // @ts-expect-error status is all, pending or completed
  void (() => tools.list_tasks({ user_id: user, status: 'done' }));
  // @ts-expect-error title is required
  void (() => tools.add_task({ user_id: user }));
  let failure: unknown;
  try {
    await tools.get_task({ user_id: user, task_id: missing });
  } catch (error) {
    failure = error;
  }
  const data = isMcpError(failure, 'TOOL_ERROR') ? (failure.data as CallToolResult) : undefined;
  console.log(
    JSON.stringify({
      title: added.task.title,
      completed: done.success && done.task.is_completed,
      listed: listed.success ? listed.tasks.map((t) => t.title) : [],
      count: listed.success ? listed.count : -1,
      failureCode: isMcpError(failure) ? failure.code : String(failure),
      failureMessage: failure instanceof Error ? failure.message : '',
      failureIsError: data?.isError ?? false,
      failureEnvelope: data?.structuredContent,
    }),
  );
} finally {
  await client.close();
}
`;

describe('mcpwire emit-ts writes a typed client that compiles under tsc --strict and calls the live server', () => {
  it(
    'for the reference server: typed structuredContent, CallToolResult for tools without an outputSchema',
    SLOW,
    async () => {
      const project = tsProject();
      const emitted = await runCli(['emit-ts', '-o', 'tools.ts', '--', process.execPath, EVERYTHING], {
        cwd: project.dir,
      });
      expect(emitted.stderr).toBe('');
      expect(emitted.code).toBe(0);
      expect(emitted.stdout).toMatch(/^wrote .*tools\.ts: \d+ tools of /);
      const code = readFileSync(path.join(project.dir, 'tools.ts'), 'utf8');
      expect(code).toContain('export interface GetStructuredContentOutput');
      expect(code).toContain("'get-sum'(args: GetSumInput, options?: CallOptions): Promise<CallToolResult>;");
      expect(code.match(/^import .* from '([^']+)';$/gm)).toEqual([
        "import { McpError, type CallOptions, type McpClient } from 'mcpwire';",
        "import type { CallToolResult } from 'mcpwire/types';",
      ]);

      project.write('main.ts', EVERYTHING_PROGRAM);
      const compiled = await project.tsc(['tools.ts', 'main.ts']);
      expect(compiled.output).toBe('');
      expect(compiled.code).toBe(0);

      const run = await runNode(project.dir, 'out/main.js', [EVERYTHING]);
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      const result = JSON.parse(run.stdout) as Record<string, unknown>;
      expect(result.temperature).toEqual(expect.any(Number));
      expect(result.conditions).toEqual(expect.any(String));
      expect(result.sum).toEqual([{ type: 'text', text: expect.stringContaining('5') }]);
      expect(result.echo).toEqual([{ type: 'text', text: expect.stringContaining('typed hello') }]);
      expect(result.envIsError).toBe(false);
    },
  );

  it(
    'for the todo server: oneOf outputs narrow on success, an isError result rejects with TOOL_ERROR and the result',
    SLOW,
    async () => {
      const project = tsProject();
      const db = path.join(project.dir, 'tasks.db');
      const emitted = await runCli(['emit-ts', '--json', '--', process.execPath, TODO_SERVER, '--db', db], {
        cwd: project.dir,
      });
      expect(emitted.code).toBe(0);
      const envelope = emitted.json<{ ok: boolean; result: { code: string; tools: string[]; warnings: string[] } }>();
      expect(envelope.ok).toBe(true);
      expect(envelope.result.tools).toContain('import_tasks');
      expect(envelope.result.warnings).toEqual([]);
      project.write('tools.ts', envelope.result.code);
      expect(envelope.result.code).toContain('export type AddTaskOutput =');

      project.write('main.ts', TODO_PROGRAM);
      const compiled = await project.tsc(['tools.ts', 'main.ts']);
      expect(compiled.output).toBe('');
      expect(compiled.code).toBe(0);

      const run = await runNode(project.dir, 'out/main.js', [TODO_SERVER, db, ALICE, NOBODYS_TASK]);
      expect(run.code).toBe(0);
      const result = JSON.parse(run.stdout) as Record<string, unknown>;
      expect(result).toMatchObject({
        title: 'typed task',
        completed: true,
        listed: ['typed task'],
        count: 1,
        failureCode: 'TOOL_ERROR',
        failureIsError: true,
        failureEnvelope: { success: false, error: { code: 'TASK_NOT_FOUND' } },
      });
      expect(result.failureMessage).toContain('tool "get_task" reported an error');
    },
  );

  it('a program passing a wrong argument type does not compile, and tsc names the argument', SLOW, async () => {
    const project = tsProject();
    const emitted = await runCli(['emit-ts', '--', process.execPath, EVERYTHING], { cwd: project.dir });
    expect(emitted.code).toBe(0);
    project.write('tools.ts', emitted.stdout);
    project.write(
      'wrong.ts',
      `import type { McpClient } from 'mcpwire';
import { typedTools } from './tools.js';

export async function wrong(client: McpClient): Promise<number> {
  const sum = await typedTools(client)['get-sum']({ a: 'two', b: 3 });
  return sum.content.length;
}
`,
    );
    const compiled = await project.tsc(['tools.ts', 'wrong.ts'], { noEmit: true });
    expect(compiled.code).not.toBe(0);
    expect(compiled.output).toMatch(
      /wrong\.ts\(5,\d+\): error TS2322: Type 'string' is not assignable to type 'number'/,
    );
    expect(
      compiled.output
        .trim()
        .split('\n')
        .filter((line) => line.includes('error TS')),
    ).toHaveLength(1);
  });

  it('--server NAME and --url name the server as every command does: the same module as over stdio', SLOW, async () => {
    const project = tsProject();
    const db = path.join(project.dir, 'tasks.db');
    const home = path.join(project.dir, 'home');
    mkdirSync(path.join(home, '.mcpwire'), { recursive: true });
    writeFileSync(
      path.join(home, '.mcpwire/config.json'),
      JSON.stringify({ mcpServers: { todo: { command: process.execPath, args: [TODO_SERVER, '--db', db] } } }),
    );
    const env = { HOME: home, XDG_CONFIG_HOME: path.join(home, '.config') };
    const byName = await runCli(['emit-ts', '--server', 'todo'], { cwd: project.dir, env });
    expect(byName.stderr).toBe('');
    expect(byName.code).toBe(0);
    const server = await startTodoHttp(['--http', '127.0.0.1:0', '--db', path.join(project.dir, 'http.db')]);
    const byUrl = await runCli(['emit-ts', '--url', server.url, '-o', 'http-tools.ts'], { cwd: project.dir, env });
    expect(byUrl.code).toBe(0);
    const viaStdio = await runCli(['emit-ts', '--', process.execPath, TODO_SERVER, '--db', db], {
      cwd: project.dir,
      env,
    });
    expect(viaStdio.code).toBe(0);

    /** The module after the server's name (as the command line named it). */
    const body = (code: string) => code.slice(code.indexOf('written by mcpwire emit-ts.'));
    expect(byName.stdout).toContain('Typed tools of the MCP server "todo"');
    expect(body(viaStdio.stdout)).toContain('export function typedTools(client: McpClient): TypedTools');
    expect(body(byName.stdout)).toBe(body(viaStdio.stdout));
    expect(body(readFileSync(path.join(project.dir, 'http-tools.ts'), 'utf8'))).toBe(body(viaStdio.stdout));
  });
});
