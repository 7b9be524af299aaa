/**
 * A watched config file saved malformed is reported, not passed off as "all unchanged": the
 * `reload` event carries a `CONFIG_INVALID` error naming the file (its last good contents stay in
 * force, the servers keep running), and `/mcp reload` says the same.
 */
import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { handleCommand } from '../src/manager/commands.js';
import { McpManager } from '../src/manager/mcp-manager.js';
import type { ManagerEvents } from '../src/manager/manager-types.js';
import { FIXTURES, eventually } from './support/processes.js';
import { endAll } from './support/end-all.js';

const SCRIPTED = path.join(FIXTURES, 'legacy/scripted-server.mjs');
type Outcome = Parameters<ManagerEvents['reload']>[0];

let root: string | undefined;
let manager: McpManager | undefined;
afterEach(async () => {
  [manager] = await endAll([manager, 'disconnectAll']);
  if (root) rmSync(root, { recursive: true, force: true });
});

function atomicWrite(file: string, text: string): void {
  writeFileSync(`${file}.tmp`, text);
  renameSync(`${file}.tmp`, file);
}

describe('reloading a malformed config file', () => {
  it("the reload event carries the file's error; the last good servers keep running", async () => {
    root = mkdtempSync(path.join(os.tmpdir(), 'mcpwire-reload-'));
    const file = path.join(root, '.mcp.json');
    atomicWrite(file, JSON.stringify({ mcpServers: { one: { command: process.execPath, args: [SCRIPTED] } } }));
    manager = McpManager.create({ config: { cwd: root, userConfigPath: false }, requireApproval: false });
    await manager.connectAll();
    const pid = manager.getConnection('one')!.pid;

    const outcomes: Outcome[] = [];
    manager.on('reload', (outcome) => outcomes.push(outcome));
    manager.watchConfig(manager.configFiles(), { debounceMs: 30 });
    atomicWrite(file, '{ "mcpServers": { "one": ');
    await eventually(() => (outcomes.length > 0 ? true : undefined), 10_000);

    const [outcome] = outcomes;
    expect(outcome!.error?.code).toBe('CONFIG_INVALID');
    expect(outcome!.error?.message).toContain(file);
    expect(outcome!.result).toMatchObject({ unchanged: ['one'], added: [], removed: [], changed: [] });
    expect(manager.getConnection('one')!.pid).toBe(pid);

    const command = await handleCommand(manager, '/mcp reload');
    expect(command.ok).toBe(false);
    expect(command.text).toContain(`config error: ${file}`);
  });
});
