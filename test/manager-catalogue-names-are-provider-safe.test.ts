/**
 * The manager's catalogue through real servers: names LLM providers accept even for long or
 * odd server names, clashes resolved whatever the connect order, names that map back to the
 * right server, and a rename report.
 */
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { McpManager } from '../src/manager/mcp-manager.js';
import type { ManagedServer } from '../src/manager/servers/managed-server.js';
import { FIXTURES } from './support/processes.js';
import { endAll } from './support/end-all.js';

const SCRIPTED = path.join(FIXTURES, 'legacy/scripted-server.mjs');
const SAFE = /^[A-Za-z0-9_-]{1,64}$/;

function scripted(name: string): ManagedServer {
  return { name, transport: 'stdio', command: process.execPath, args: [SCRIPTED], includeTools: ['echo', 'add'] };
}

let manager: McpManager | undefined;
afterEach(async () => void ([manager] = await endAll([manager, 'disconnectAll'])));

describe('McpManager catalogue names', () => {
  it('every exposed name is provider-safe, long names end in a stable hash, and calls route back', async () => {
    const long = `analytics-${'x'.repeat(60)}`;
    manager = McpManager.create({ servers: [scripted(long), scripted('web.search')] });
    await manager.connectAll();
    const tools = manager.getAllTools();
    expect(tools).toHaveLength(4);
    for (const tool of tools) expect(tool.name).toMatch(SAFE);
    const longEcho = tools.find((t) => t.server === long && t.tool === 'echo')!;
    expect(longEcho.name).toHaveLength(64);
    expect(longEcho.name).toMatch(/^mcp__analytics-x+_[0-9a-f]{8}$/);
    expect(tools.find((t) => t.server === 'web.search' && t.tool === 'echo')!.name).toBe('mcp__web_search__echo');

    expect(manager.resolveToolName(longEcho.name)).toEqual({ server: long, tool: 'echo' });
    expect(manager.resolveToolName(`mcp__${long}__echo`)).toEqual({ server: long, tool: 'echo' });
    expect((await manager.callTool(longEcho.name, { text: 'via hash' })).content).toEqual([
      { type: 'text', text: 'via hash' },
    ]);
    expect((await manager.callTool('mcp__web_search__echo', { text: 'dots' })).content).toEqual([
      { type: 'text', text: 'dots' },
    ]);

    const renames = manager.toolRenames();
    expect(renames.map((r) => [r.server, r.tool, r.reasons])).toEqual(
      expect.arrayContaining([
        [long, 'echo', ['length']],
        ['web.search', 'echo', ['characters']],
      ]),
    );
    expect(renames).toHaveLength(4);
  });

  it('a clash between servers is resolved the same way whatever order they connect in', async () => {
    const namesFor = async (order: string[]) => {
      const m = McpManager.create({ servers: order.map(scripted) });
      try {
        for (const name of order) await m.connect(name);
        return Object.fromEntries(m.getAllTools().map((t) => [`${t.server}/${t.tool}`, t.name]));
      } finally {
        await m.disconnectAll();
      }
    };
    const one = await namesFor(['a.b', 'a_b']);
    const two = await namesFor(['a_b', 'a.b']);
    expect(one).toEqual(two);
    expect(one['a_b/echo']).toBe('mcp__a_b__echo');
    expect(one['a.b/echo']).toMatch(/^mcp__a_b__echo_[0-9a-f]{8}$/);
  });

  it('unregistering one server keeps the others; registerServerTools feeds host tools in', async () => {
    manager = McpManager.create({ servers: [scripted('one'), scripted('two')] });
    await manager.connectAll();
    let changes = 0;
    manager.on('catalogChanged', () => changes++);
    manager.unregisterServerTools('one');
    expect(manager.getAllTools().map((t) => t.server)).toEqual(['two', 'two']);
    manager.registerServerTools('host', [{ name: 'local tool', inputSchema: { type: 'object' } }]);
    expect(manager.getAllTools().map((t) => t.name)).toContain('mcp__host__local_tool');
    expect(changes).toBe(2);
  });
});
