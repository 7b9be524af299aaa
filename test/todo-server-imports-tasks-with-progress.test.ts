/**
 * The todo server's `import_tasks` as users run it (`node examples/todo-server/server.mjs`), over
 * stdio and Streamable HTTP with mcpwire's client in both eras (and the official SDK v1 and v2
 * clients over HTTP): one progress notification after
 * each imported task, in order, then the tasks created; cancelling the call mid-import stops it
 * (the tasks imported so far stay, no more follow); `--slow-ms` holds the import between two
 * tasks. Over HTTP with the 2026 tasks extension the call runs as a task (`tasks/get` until it
 * completes, `tasks/cancel` stopping it). Three todo nodes on one database behind the round-robin
 * proxy stream a 2026 call's progress through it. No timing assertions: order and counts only.
 * Needs `npm run build` (the example imports dist/).
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import { describe, expect, it, onTestFinished } from 'vitest';
import { McpClient } from '../src/client/mcp-client.js';
import { isMcpError } from '../src/protocol/errors.js';
import type { ProgressParams } from '../src/protocol/types.js';
import { connectClient } from './support/client.js';
import { modernRequest } from './support/kit-wire.js';
import { startTodoNodes } from './support/nodes.js';
import { startRoundRobinProxy } from './support/round-robin-proxy.js';
import { ALICE, BOB, startTodoHttp, tempDir, TODO_SERVER } from './support/todo-server.js';
import { eventually, until, within } from './support/wait.js';

const TASKS = 'io.modelcontextprotocol/tasks';
/** A pause longer than any test: a call held in it stays there until it is cancelled. */
const FOREVER_MS = '600000';

function dbFile(): string {
  const temp = tempDir();
  onTestFinished(() => temp.remove());
  return path.join(temp.dir, 'tasks.db');
}

const titles = (n: number) => Array.from({ length: n }, (_, i) => ({ title: `imported ${i + 1}` }));

/** A connected client and the server's stderr lines, for one transport. */
interface Served {
  client: McpClient;
  stderr: () => string[];
}

type Transport = 'stdio' | 'http';

async function serve(transport: Transport, era: 'modern' | 'legacy', args: string[] = []): Promise<Served> {
  const db = dbFile();
  if (transport === 'stdio') {
    const lines: string[] = [];
    const client = await connectClient(
      { command: process.execPath, args: [TODO_SERVER, '--db', db, ...args] },
      { era, onStderr: (line: string) => lines.push(line) },
    );
    return { client, stderr: () => lines };
  }
  const server = await startTodoHttp(['--db', db, '--http', '127.0.0.1:0', ...args]);
  const client = await connectClient({ url: server.url }, { era });
  return { client, stderr: () => server.stderr };
}

/** The `tool call` log lines of import_tasks, parsed. */
function importLogs(stderr: string[]): Array<{ outcome: string }> {
  return stderr
    .filter((line) => line.includes('"tool call"') && line.includes('"import_tasks"'))
    .map((line) => JSON.parse(line) as { outcome: string });
}

async function countOf(client: McpClient, user = ALICE): Promise<number> {
  return ((await client.callTool('list_tasks', { user_id: user })).structuredContent as { count: number }).count;
}

describe.each([
  ['stdio', 'modern'],
  ['stdio', 'legacy'],
  ['http', 'modern'],
  ['http', 'legacy'],
] as const)('import_tasks over %s (%s era)', (transport, era) => {
  it('reports progress after each task, in order, then returns the tasks created', async () => {
    const { client, stderr } = await serve(transport, era);
    const progress: ProgressParams[] = [];
    const result = await client.callTool(
      'import_tasks',
      { user_id: ALICE, tasks: [...titles(4), { title: 'with a description', description: 'details' }] },
      { onProgress: (p) => progress.push(p) },
    );
    expect(result.isError).toBeFalsy();
    const content = result.structuredContent as { success: boolean; count: number; tasks: any[] };
    expect(content).toMatchObject({ success: true, count: 5 });
    expect(content.tasks.map((t) => t.title)).toEqual([
      'imported 1',
      'imported 2',
      'imported 3',
      'imported 4',
      'with a description',
    ]);
    expect(content.tasks[4]).toMatchObject({ user_id: ALICE, description: 'details', is_completed: false });
    expect(progress.map((p) => [p.progress, p.total])).toEqual([1, 2, 3, 4, 5].map((n) => [n, 5]));
    // Progress messages exist from 2025-03-26 on; a legacy client negotiates such a revision too.
    expect(progress.map((p) => p.message)).toEqual([1, 2, 3, 4, 5].map((n) => `imported ${n} of 5`));

    const listed = (await client.callTool('list_tasks', { user_id: ALICE })).structuredContent as { tasks: any[] };
    expect(listed.tasks.map((t) => t.task_id)).toEqual(content.tasks.map((t) => t.task_id));
    expect(await countOf(client, BOB)).toBe(0);
    await until(() => importLogs(stderr()).length === 1, { what: 'the import_tasks log line' });
    expect(importLogs(stderr())[0]).toMatchObject({ outcome: 'ok', user_id: ALICE });
  });

  it('with --slow-ms holds between two tasks, and a cancel mid-import stops it, keeping what was imported', async () => {
    const { client, stderr } = await serve(transport, era, ['--slow-ms', FOREVER_MS]);
    const progress: ProgressParams[] = [];
    const abort = new AbortController();
    const call = client.callTool(
      'import_tasks',
      { user_id: ALICE, tasks: titles(3) },
      {
        signal: abort.signal,
        onProgress: (p) => progress.push(p),
      },
    );
    call.catch(() => undefined); // awaited below, after the abort
    await until(() => progress.length === 1, { what: 'the first progress notification' });
    // The import now pauses before the second task: a list meanwhile shows exactly the first.
    expect(await countOf(client)).toBe(1);
    abort.abort();
    const error = await within(
      call.then(
        () => undefined,
        (e: unknown) => e,
      ),
      { what: 'the cancelled call to reject' },
    );
    expect(isMcpError(error, 'CANCELLED')).toBe(true);
    // The handler ended (its log line says so), so nothing more can be imported.
    const logged = await eventually(() => importLogs(stderr())[0], { what: 'the import_tasks log line' });
    expect(logged.outcome).toBe('CANCELLED');
    expect(await countOf(client)).toBe(1);
    expect(progress.map((p) => p.progress)).toEqual([1]);
  });
});

describe('import_tasks with the official SDK clients over HTTP', () => {
  it('gives the SDK v1 and v2 clients a progress notification per task, then the tasks', async () => {
    const server = await startTodoHttp(['--db', dbFile(), '--http', '127.0.0.1:0']);
    const v1 = new ClientV1({ name: 'sdk-v1', version: '1' });
    await v1.connect(new TransportV1(new URL(server.url)));
    onTestFinished(() => v1.close());
    const v2 = new ClientV2({ name: 'sdk-v2', version: '2' });
    await v2.connect(new TransportV2(new URL(server.url)));
    onTestFinished(() => v2.close());
    const seen: Record<string, number[]> = { v1: [], v2: [] };
    const byV1 = await v1.callTool(
      { name: 'import_tasks', arguments: { user_id: ALICE, tasks: titles(3) } },
      undefined,
      {
        onprogress: (p) => seen.v1!.push(p.progress),
      },
    );
    const byV2 = await v2.callTool(
      { name: 'import_tasks', arguments: { user_id: BOB, tasks: titles(2) } },
      { onprogress: (p: { progress: number }) => seen.v2!.push(p.progress) },
    );
    expect(seen).toEqual({ v1: [1, 2, 3], v2: [1, 2] });
    expect((byV1.structuredContent as { count: number }).count).toBe(3);
    expect((byV2.structuredContent as { count: number }).count).toBe(2);
  });
});

describe('the --slow-ms flag', () => {
  it('takes a whole number of milliseconds and refuses anything else, naming the flag', async () => {
    const { readConfig } = (await import(pathToFileURL(path.join(path.dirname(TODO_SERVER), 'config.mjs')).href)) as {
      readConfig: (argv: string[], env: Record<string, string>) => { slowMs: number };
    };
    expect(readConfig([], {}).slowMs).toBe(0);
    expect(readConfig(['--slow-ms', '250'], {}).slowMs).toBe(250);
    for (const bad of ['-1', '1.5', 'soon', '99999999'])
      expect(() => readConfig(['--slow-ms', bad], {}), bad).toThrow(/--slow-ms needs a whole number/);
  });
});

describe('import_tasks as a task of the 2026 tasks extension (raw HTTP)', () => {
  let nextId = 1;
  const call = (url: string, method: string, params: Record<string, unknown>, tasks = true) =>
    modernRequest(url, method, params, { id: nextId++, capabilities: tasks ? { extensions: { [TASKS]: {} } } : {} });

  it('runs as a task that completes with the tasks created', async () => {
    const server = await startTodoHttp(['--db', dbFile(), '--http', '127.0.0.1:0']);
    const listed = (await call(server.url, 'tools/list', {})).json.result.tools;
    expect(listed.find((t: any) => t.name === 'import_tasks').execution).toEqual({ taskSupport: 'optional' });

    const created = (
      await call(server.url, 'tools/call', { name: 'import_tasks', arguments: { user_id: ALICE, tasks: titles(3) } })
    ).json.result;
    expect(created).toMatchObject({ resultType: 'task', status: 'working' });
    const done = await eventually(
      async () => {
        const task = (await call(server.url, 'tasks/get', { taskId: created.taskId })).json.result;
        return task.status === 'working' ? undefined : task;
      },
      { what: 'the task to end' },
    );
    expect(done.status).toBe('completed');
    expect(done.result.structuredContent.count).toBe(3);
    expect(done.result.structuredContent.tasks.map((t: any) => t.title)).toEqual(titles(3).map((t) => t.title));
  });

  it('stops at tasks/cancel, keeping what was imported', async () => {
    const server = await startTodoHttp(['--db', dbFile(), '--http', '127.0.0.1:0', '--slow-ms', FOREVER_MS]);
    const count = async () =>
      (await call(server.url, 'tools/call', { name: 'list_tasks', arguments: { user_id: ALICE } }, false)).json.result
        .structuredContent.count as number;
    const created = (
      await call(server.url, 'tools/call', { name: 'import_tasks', arguments: { user_id: ALICE, tasks: titles(3) } })
    ).json.result;
    await until(async () => (await count()) === 1, { what: 'the first task imported' });
    expect((await call(server.url, 'tasks/cancel', { taskId: created.taskId })).json.result).toBeDefined();
    expect((await call(server.url, 'tasks/get', { taskId: created.taskId })).json.result.status).toBe('cancelled');
    const logged = await eventually(() => importLogs(server.stderr)[0], { what: 'the import_tasks log line' });
    expect(logged.outcome).toBe('CANCELLED');
    expect(await count()).toBe(1);
  });
});

describe('import_tasks on three todo nodes behind the round-robin proxy', () => {
  it("streams a 2026 call's progress through the proxy, and the other nodes see the tasks", async () => {
    const db = dbFile();
    const nodes = await startTodoNodes(3, ['--db', db]);
    const proxy = await startRoundRobinProxy(nodes.urls());
    const client = await connectClient({ url: `${proxy.url}/mcp` });
    expect(client.era).toBe('modern');
    const progress: number[] = [];
    const result = await client.callTool(
      'import_tasks',
      { user_id: ALICE, tasks: titles(4) },
      { onProgress: (p) => progress.push(p.progress) },
    );
    expect((result.structuredContent as { count: number }).count).toBe(4);
    expect(progress).toEqual([1, 2, 3, 4]);
    const counts = [await countOf(client), await countOf(client), await countOf(client)];
    expect(counts).toEqual([4, 4, 4]);
    const served = proxy.log.filter((r) => r.method === 'POST').map((r) => r.backend);
    expect(new Set(served.slice(-3)).size).toBe(3);
  });
});
