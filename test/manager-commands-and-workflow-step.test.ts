/**
 * The `/mcp` commands a chat host forwards, and the workflow step (templates, result storage,
 * errors, connection cache), over real stdio servers.
 */
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { handleCommand } from '../src/manager/commands.js';
import { McpManager } from '../src/manager/mcp-manager.js';
import type { ManagedServer } from '../src/manager/servers/managed-server.js';
import { McpStepRunner, renderTemplate, runMcpStep } from '../src/manager/workflow-step.js';
import { FIXTURES, isAlive } from './support/processes.js';
import { endAll } from './support/end-all.js';
import { scriptedServer } from './support/managed-servers.js';

const SCRIPTED = path.join(FIXTURES, 'legacy/scripted-server.mjs');
const node = process.execPath;
const legacy = (name: string, ...flags: string[]): ManagedServer =>
  scriptedServer(name, flags, { file: '/home/u/.mcpwire/config.json', scope: 'user' });

let manager: McpManager | undefined;
let runner: McpStepRunner | undefined;
afterEach(async () => void ([runner, manager] = await endAll([runner, 'reset'], [manager, 'disconnectAll'])));

describe('/mcp commands', () => {
  it('status, servers, tools, connect and disconnect answer in text and structured form', async () => {
    let loads = 0;
    manager = McpManager.create({
      servers: [legacy('alpha'), legacy('beta')],
      load: async () => (++loads, [legacy('alpha'), legacy('gamma')]),
    });
    expect((await handleCommand(manager, '/mcp connect alpha')).text).toMatch(
      /^connected alpha \(legacy, 2025-11-25, \d+ tools\)$/,
    );

    const status = await handleCommand(manager, '/mcp');
    expect(status.ok).toBe(true);
    expect(status.text.split('\n')[0]).toMatch(/^1\/2 servers connected, \d+ tools$/);
    expect(status.text).toContain('● alpha  connected');
    expect(status.text).toContain('○ beta  disconnected');

    const servers = await handleCommand(manager, '/mcp servers');
    expect(servers.text).toContain('alpha  stdio  connected  from /home/u/.mcpwire/config.json (user)');

    const tools = await handleCommand(manager, '/mcp tools alpha');
    expect(tools.text.split('\n')[0]).toMatch(/^alpha \(\d+\)$/);
    expect(tools.text).toContain('  mcp__alpha__echo — Echoes text');
    expect((tools.data as Array<{ name: string }>).some((t) => t.name === 'mcp__alpha__add')).toBe(true);

    expect((await handleCommand(manager, '/mcp resources')).text).toContain('alpha  test://static/1');
    const pid = manager.getConnection('alpha')!.pid!;
    expect((await handleCommand(manager, '/mcp disconnect alpha')).text).toBe('disconnected alpha');
    expect(isAlive(pid)).toBe(false);

    const reload = await handleCommand(manager, '/mcp reload');
    expect(reload.ok).toBe(true);
    expect(reload.text).toContain('added: gamma');
    expect(reload.text).toContain('removed: beta');
    expect(loads).toBe(1);
  });

  it('unknown sub-commands, unknown servers and missing names get helpful errors', async () => {
    manager = McpManager.create({ servers: [legacy('alpha')] });
    const unknown = await handleCommand(manager, '/mcp frobnicate');
    expect(unknown.ok).toBe(false);
    expect(unknown.text).toContain('unknown /mcp command "frobnicate"');
    expect(unknown.text).toContain('/mcp connect <name>');
    expect((await handleCommand(manager, '/mcp connect nope')).text).toBe('unknown server "nope" (configured: alpha)');
    expect((await handleCommand(manager, '/mcp disconnect')).text).toBe(
      '/mcp disconnect needs a server name (configured: alpha)',
    );
    expect((await handleCommand(manager, '/mcp tools nope')).ok).toBe(false);
    expect((await handleCommand(manager, '/mcp reload')).text).toContain('no config loader');
    expect((await handleCommand(manager, 'hello')).ok).toBe(false);
  });

  it('a server that fails to connect is reported, not thrown', async () => {
    manager = McpManager.create({
      servers: [{ name: 'broken', transport: 'stdio', command: '/nope/server', restart: false }],
    });
    const answer = await handleCommand(manager, '/mcp connect broken');
    expect(answer.ok).toBe(false);
    expect(answer.text).toContain('/nope/server');
    expect(answer.data).toMatchObject({ code: 'SPAWN_FAILED' });
  });
});

describe('the workflow step', () => {
  it('renders {{ }} and $ templates, calls the tool, stores the result under resultKey (overwriting)', async () => {
    manager = McpManager.create({ servers: [legacy('alpha')] });
    runner = new McpStepRunner({ manager });
    const context: Record<string, unknown> = { input: { repo: 'mcpwire', n: 2 }, out: 'old' };
    const stored = await runner.run(
      { server: 'alpha', tool: 'echo', arguments: { text: 'repo={{ input.repo }} n=$input.n' }, resultKey: 'out' },
      context,
    );
    expect(stored.text).toBe('repo=mcpwire n=2');
    expect(context.out).toEqual(stored);
    expect(stored.result.content).toEqual([{ type: 'text', text: 'repo=mcpwire n=2' }]);
    const typed = await runner.run(
      { server: 'alpha', tool: 'add', arguments: { a: '$input.n', b: '{{ input.n }}' }, resultKey: 'sum' },
      context,
    );
    expect(typed.result.structuredContent).toEqual({ sum: 4 });
  });

  it('fails with "tool not found" before any call, and names tool and server when a call fails', async () => {
    manager = McpManager.create({ servers: [legacy('alpha')] });
    runner = new McpStepRunner({ manager });
    await expect(runner.run({ server: 'alpha', tool: 'nope', resultKey: 'r' }, {})).rejects.toThrow(
      'tool not found: nope',
    );
    const context: Record<string, unknown> = {};
    const error = await runner
      .run({ server: 'alpha', tool: 'fails', resultKey: 'r' }, context)
      .catch((e: unknown) => e);
    expect((error as Error).message).toMatch(/^server "alpha": tools\/call tool "fails" reported an error/);
    expect((context.r as { isError: boolean }).isError).toBe(true);
    await expect(
      runner.run({ server: 'alpha', tool: 'echo', arguments: { text: '{{ missing.key }}' }, resultKey: 'r' }, {}),
    ).rejects.toThrow('template reference "missing.key" is not in the context');
    await expect(runner.run({ server: 'ghost', tool: 'echo', resultKey: 'r' }, {})).rejects.toThrow(
      'unknown server "ghost"',
    );
  });

  it('quotes a flooding tool error within bounds in its message, and stores the whole result', async () => {
    manager = McpManager.create({ servers: [legacy('alpha')] });
    runner = new McpStepRunner({ manager });
    const context: Record<string, unknown> = {};
    const error = (await runner
      .run({ server: 'alpha', tool: 'fails', arguments: { repeat: 50_000 }, resultKey: 'r' }, context)
      .catch((e: unknown) => e)) as Error;
    expect(error.message).toMatch(
      /^server "alpha": tools\/call tool "fails" reported an error: (this tool always fails)+[a-z ]*…\(1100000 characters\)$/,
    );
    expect(error.message.length).toBeLessThan(1_000);
    expect((context.r as { text: string }).text).toHaveLength(1_100_000);
  });

  it('caches inline servers per definition: same definition, same process; reset() closes them', async () => {
    runner = new McpStepRunner();
    const inline = { command: node, args: [SCRIPTED] };
    const first = await runner.run({ server: inline, tool: 'echo', arguments: { text: 'a' }, resultKey: 'r' }, {});
    const second = await runner.run(
      { server: { ...inline }, tool: 'echo', arguments: { text: 'b' }, resultKey: 'r' },
      {},
    );
    expect(first.server).toBe(second.server);
    expect(second.text).toBe('b');
    const other = await runner.run(
      {
        server: { ...inline, args: [SCRIPTED, '--version', '2025-06-18'] },
        tool: 'echo',
        arguments: { text: 'c' },
        resultKey: 'r',
      },
      {},
    );
    expect(other.text).toBe('c');
    await runner.reset();
  });

  it('renderTemplate keeps non-string values and renders nested structures', () => {
    expect(renderTemplate({ a: ['{{ x }}', 1, { b: '$y.z' }] }, { x: 5, y: { z: true } })).toEqual({
      a: [5, 1, { b: true }],
    });
  });

  it('runMcpStep uses the process manager by default', async () => {
    const context: Record<string, unknown> = {};
    const stored = await runMcpStep(
      { server: { command: node, args: [SCRIPTED] }, tool: 'echo', arguments: { text: 'hi' }, resultKey: 'r' },
      context,
      { runner: (runner = new McpStepRunner()) },
    );
    expect(stored.text).toBe('hi');
  });
});
