/**
 * The todo server as `node examples/todo-server/server.mjs --db FILE --http 127.0.0.1:0`:
 * Streamable HTTP at /mcp, driven by mcpwire's client (modern and legacy) and the official SDK v1
 * and v2 clients against one database, then stopped with SIGTERM (exit 0, data kept).
 * Needs `npm run build` (the example imports dist/).
 */
import path from 'node:path';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { McpClient } from '../src/client/mcp-client.js';
import { ALICE, BOB, startTodoHttp, tempDir, type TodoHttp } from './support/todo-server.js';

let temp: ReturnType<typeof tempDir>;
const clients: Array<{ close(): Promise<void> }> = [];

beforeEach(() => {
  temp = tempDir();
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  temp.remove();
});

/** Starts the server on a free port; resolves with its URL (from its `listening` log line) and its stderr lines. */
function startTodoHttpOnTemp(): Promise<TodoHttp> {
  return startTodoHttp(['--db', path.join(temp.dir, 'tasks.db'), '--http', '127.0.0.1:0']);
}

describe('the todo server over Streamable HTTP', () => {
  it('serves mcpwire (both eras) and the SDK v1 and v2 clients on one database, and stops on SIGTERM', async () => {
    const { url, child, stderr, exited } = await startTodoHttpOnTemp();

    const modern = await McpClient.connect({ url });
    clients.push(modern);
    expect(modern.era).toBe('modern');
    const added = await modern.callTool('add_task', { user_id: ALICE, title: 'From mcpwire' });
    const id = (added.structuredContent as any).task.task_id;

    const legacy = await McpClient.connect({ url }, { era: 'legacy' });
    clients.push(legacy);
    expect((await legacy.callTool('complete_task', { user_id: ALICE, task_id: id })).structuredContent).toMatchObject({
      success: true,
      task: { is_completed: true },
    });

    const v1 = new ClientV1({ name: 'sdk-v1', version: '1' });
    await v1.connect(new TransportV1(new URL(url)));
    clients.push(v1);
    await v1.callTool({ name: 'add_task', arguments: { user_id: ALICE, title: 'From SDK v1' } });
    expect(await v1.callTool({ name: 'get_task', arguments: { user_id: BOB, task_id: id } })).toMatchObject({
      isError: true,
      structuredContent: { error: { code: 'TASK_NOT_FOUND' } },
    });

    const v2 = new ClientV2({ name: 'sdk-v2', version: '2' });
    await v2.connect(new TransportV2(new URL(url)));
    clients.push(v2);
    const listed = await v2.callTool({ name: 'list_tasks', arguments: { user_id: ALICE } });
    expect((listed.structuredContent as any).tasks.map((t: any) => t.title)).toEqual(['From mcpwire', 'From SDK v1']);

    await Promise.all(clients.splice(0).map((c) => c.close()));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(stderr.some((line) => line.includes('"stopped"'))).toBe(true);

    const again = await startTodoHttpOnTemp();
    const client = await McpClient.connect({ url: again.url });
    clients.push(client);
    expect(((await client.callTool('list_tasks', { user_id: ALICE })).structuredContent as any).count).toBe(2);
  });
});
