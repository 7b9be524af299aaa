/**
 * The todo server as users run it — `node examples/todo-server/server.mjs --db FILE` over stdio —
 * driven by mcpwire's client in both eras and by the official SDK v1 client (legacy), and its
 * data surviving a restart and a SIGKILL. Needs `npm run build` (the example imports dist/).
 */
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { McpClient } from '../src/client/mcp-client.js';
import { ALICE, BOB, NOBODYS_TASK, tempDir, TODO_SERVER } from './support/todo-server.js';
import { waitUntilGone } from './support/processes.js';
import { eventually } from './support/wait.js';

let temp: ReturnType<typeof tempDir>;
let db: string;
const clients: Array<{ close(): Promise<void> }> = [];

beforeEach(() => {
  temp = tempDir();
  db = path.join(temp.dir, 'tasks.db');
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  temp.remove();
});

async function mcpwire(era: 'auto' | 'legacy' | 'modern', stderr: string[] = []): Promise<McpClient> {
  const client = await McpClient.connect(
    { command: process.execPath, args: [TODO_SERVER, '--db', db] },
    { era, onStderr: (line: string) => stderr.push(line) },
  );
  clients.push(client);
  return client;
}

describe.each(['auto', 'legacy'] as const)("mcpwire's client (era %s) over stdio", (era) => {
  it('lists the seven tools and runs a task through its life, with the error envelopes on the wire', async () => {
    const stderr: string[] = [];
    const client = await mcpwire(era, stderr);
    expect(client.era).toBe(era === 'auto' ? 'modern' : 'legacy');
    expect(client.serverInfo).toMatchObject({ name: 'todo-server', version: '1.0.0' });
    expect((await client.listTools()).map((t) => t.name)).toEqual([
      'add_task',
      'list_tasks',
      'get_task',
      'update_task',
      'complete_task',
      'delete_task',
      'import_tasks',
    ]);

    const added = await client.callTool('add_task', { user_id: ALICE, title: 'Water the plants' });
    const task = (added.structuredContent as any).task;
    expect(task).toMatchObject({ user_id: ALICE, title: 'Water the plants', is_completed: false });
    expect(
      (await client.callTool('complete_task', { user_id: ALICE, task_id: task.task_id })).structuredContent,
    ).toMatchObject({ success: true, task: { is_completed: true } });

    const invalid = await client.callTool('add_task', { user_id: ALICE, title: '' });
    expect(invalid).toMatchObject({
      isError: true,
      structuredContent: { success: false, error: { code: 'VALIDATION_ERROR', paths: ['/title'] } },
    });
    const stolen = await client.callTool('get_task', { user_id: BOB, task_id: task.task_id });
    const missing = await client.callTool('get_task', { user_id: BOB, task_id: NOBODYS_TASK });
    expect(stolen).toEqual(missing);
    expect(stolen.structuredContent).toMatchObject({ success: false, error: { code: 'TASK_NOT_FOUND' } });

    // One JSON line per call on stderr, never the title. stderr is another pipe than stdout: its
    // lines may arrive after the answers, so wait for all five.
    const callLines = () => stderr.filter((line) => line.includes('"tool call"'));
    await eventually(() => (callLines().length >= 5 ? true : undefined), {
      what: 'five tool-call log lines on stderr',
    });
    const calls = callLines().map((line) => JSON.parse(line));
    expect(calls.map((c) => [c.tool, c.outcome])).toEqual([
      ['add_task', 'ok'],
      ['complete_task', 'ok'],
      ['add_task', 'VALIDATION_ERROR'],
      ['get_task', 'TASK_NOT_FOUND'],
      ['get_task', 'TASK_NOT_FOUND'],
    ]);
    expect(stderr.join('\n')).not.toContain('Water the plants');
  });
});

describe('the official SDK v1 client over stdio', () => {
  it('connects, lists the tools with their outputSchemas and calls them, errors included', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [TODO_SERVER, '--db', db],
      stderr: 'pipe',
    });
    const client = new Client({ name: 'sdk-v1-test', version: '1.0.0' });
    await client.connect(transport);
    clients.push(client);
    expect(client.getServerVersion()).toMatchObject({ name: 'todo-server' });
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toHaveLength(7);
    expect(tools.every((t) => t.outputSchema !== undefined)).toBe(true);

    const added = await client.callTool({
      name: 'add_task',
      arguments: { user_id: ALICE, title: 'From the SDK', description: 'v1' },
    });
    const id = (added.structuredContent as any).task.task_id;
    const listed = await client.callTool({ name: 'list_tasks', arguments: { user_id: ALICE, status: 'pending' } });
    expect(listed.structuredContent).toMatchObject({
      success: true,
      count: 1,
      tasks: [{ task_id: id, description: 'v1' }],
    });
    const gone = await client.callTool({ name: 'delete_task', arguments: { user_id: ALICE, task_id: NOBODYS_TASK } });
    expect(gone).toMatchObject({
      isError: true,
      structuredContent: { success: false, error: { code: 'TASK_NOT_FOUND' } },
    });
    const invalid = await client.callTool({
      name: 'update_task',
      arguments: { user_id: ALICE, task_id: id, title: 'x'.repeat(201) },
    });
    expect(invalid).toMatchObject({
      isError: true,
      structuredContent: { error: { code: 'VALIDATION_ERROR', paths: ['/title'] } },
    });
  });
});

describe('durability', () => {
  it('keeps the tasks across a restart of the server', async () => {
    const first = await mcpwire('auto');
    await first.callTool('add_task', { user_id: ALICE, title: 'Survive a restart' });
    await first.close();
    clients.splice(0);
    const second = await mcpwire('legacy');
    const listed = await second.callTool('list_tasks', { user_id: ALICE });
    expect(listed.structuredContent).toMatchObject({
      success: true,
      count: 1,
      tasks: [{ title: 'Survive a restart' }],
    });
  });

  it('loses no committed task when the server is killed with SIGKILL', async () => {
    const first = await mcpwire('auto');
    for (let i = 0; i < 5; i++) await first.callTool('add_task', { user_id: ALICE, title: `task ${i}` });
    const pid = first.pid!;
    process.kill(pid, 'SIGKILL');
    expect(await waitUntilGone(pid)).toBe(true);
    const second = await mcpwire('auto');
    const listed = await second.callTool('list_tasks', { user_id: ALICE });
    expect((listed.structuredContent as any).tasks.map((t: any) => t.title)).toEqual([
      'task 0',
      'task 1',
      'task 2',
      'task 3',
      'task 4',
    ]);
  });
});
