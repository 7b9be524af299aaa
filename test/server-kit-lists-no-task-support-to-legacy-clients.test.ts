/**
 * The kit serves tasks only through the 2026-07-28 tasks extension; a legacy session
 * (≤ 2025-11-25) gets no `tasks` server capability and every call is answered directly. Its
 * `tools/list` therefore carries no `execution.taskSupport` (2025-11-25 basic/utilities/tasks:
 * without `tasks.requests.tools.call` the client must not use tasks, whatever a tool says), so a
 * legacy client never reads `required` for a tool it can only call plainly; a 2026 listing keeps
 * it, and the legacy call of a `required` tool is answered with its result.
 */
import { describe, expect, it } from 'vitest';
import { McpServer } from '../src/server/index.js';
import { rawKitPeer } from './support/kit-memory.js';

function makeServer(): McpServer {
  const server = new McpServer({ name: 'tasks', version: '1', logger: () => undefined });
  for (const taskSupport of ['optional', 'required'] as const)
    server.registerTool({
      name: `${taskSupport}_task`,
      inputSchema: { type: 'object' },
      taskSupport,
      handler: () => ({ content: [{ type: 'text', text: `${taskSupport} done` }] }),
    });
  return server;
}

describe.each(['2025-11-25', '2025-06-18', '2024-11-05'])('a %s session', (protocolVersion) => {
  it('lists no execution, declares no tasks capability, and answers a required-task tool directly', async () => {
    const peer = rawKitPeer(makeServer());
    const init = await peer.ask('initialize', {
      protocolVersion,
      capabilities: {},
      clientInfo: { name: 'r', version: '1' },
    });
    expect((init.result as any).capabilities.tasks).toBeUndefined();
    await peer.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    const tools = ((await peer.ask('tools/list', {})).result as any).tools;
    expect(tools.map((t: any) => t.name)).toEqual(['optional_task', 'required_task']);
    for (const tool of tools) expect(tool).not.toHaveProperty('execution');
    const called = await peer.ask('tools/call', { name: 'required_task', arguments: {} });
    expect(called.result).toMatchObject({ content: [{ type: 'text', text: 'required done' }] });
  });
});

it('a 2026-07-28 listing keeps execution.taskSupport', async () => {
  const peer = rawKitPeer(makeServer());
  const listed = await peer.ask('tools/list', {
    _meta: {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': {},
    },
  });
  expect((listed.result as any).tools.map((t: any) => t.execution)).toEqual([
    { taskSupport: 'optional' },
    { taskSupport: 'required' },
  ]);
});
