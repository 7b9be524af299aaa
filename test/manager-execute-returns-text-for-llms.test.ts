/**
 * `manager.execute(name, args)`: the whole result for the program, its text for the model, cut
 * at the configured cap with a marker while the full result stays available.
 */
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { McpManager } from '../src/manager/mcp-manager.js';
import { FIXTURES } from './support/processes.js';
import { endAll } from './support/end-all.js';

const SCRIPTED = path.join(FIXTURES, 'legacy/scripted-server.mjs');
let manager: McpManager | undefined;
afterEach(async () => void ([manager] = await endAll([manager, 'disconnectAll'])));

describe('McpManager.execute', () => {
  it('returns content, structuredContent and text; a large result is cut for the model but kept whole', async () => {
    manager = McpManager.create({
      servers: [{ name: 's', transport: 'stdio', command: process.execPath, args: [SCRIPTED] }],
      maxResultChars: 1_000,
    });
    await manager.connectAll();
    const add = await manager.execute('mcp__s__add', { a: 2, b: 5 });
    expect(add).toMatchObject({
      name: 'mcp__s__add',
      server: 's',
      tool: 'add',
      isError: false,
      structuredContent: { sum: 7 },
      text: '{"sum":7}',
      truncated: false,
    });

    const big = await manager.execute('mcp__s__big', { bytes: 50_000 });
    expect(big.truncated).toBe(true);
    expect(big.text).toMatch(/\n\[… truncated: showing 1000 of \d+ characters\]$/);
    const whole = big.result.content.map((b) => (b.type === 'text' ? b.text : '')).join('\n');
    expect(whole.length).toBeGreaterThanOrEqual(50_000);
    expect(big.text.startsWith(whole.slice(0, 1_000))).toBe(true);

    const failed = await manager.execute('mcp__s__fails', {});
    expect(failed).toMatchObject({ isError: true, text: 'Error: this tool always fails' });
    await expect(manager.execute('mcp__s__nope', {})).rejects.toThrow('tool not found: mcp__s__nope');
  });
});
