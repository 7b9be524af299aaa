/**
 * A project server nothing approved says how to approve it: the manager's options (an `approve`
 * hook, `approvals: new ApprovalStore()`, `requireApproval: false`) and the CLI's
 * `--trust-project`, naming the file that defines it. A refusal by the hook or by a stored
 * decision says which refused it instead. And the README's first manager snippet's options on a
 * fresh `.mcp.json` (server-everything) connect it and list its tools.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { McpManager } from '../src/manager/mcp-manager.js';
import type { ManagerOptions } from '../src/manager/manager-types.js';
import { ApprovalStore } from '../src/manager/permissions/approval-store.js';
import { EVERYTHING } from './support/cli.js';
import { FIXTURES } from './support/processes.js';

const SCRIPTED = path.join(FIXTURES, 'legacy/scripted-server.mjs');
let root: string;
let home: string;
let project: string;
const managers: McpManager[] = [];

beforeEach(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'mcpwire-how-to-approve-'));
  home = path.join(root, 'home');
  project = path.join(root, 'project');
  mkdirSync(home, { recursive: true });
  mkdirSync(project, { recursive: true });
});
afterEach(async () => {
  await Promise.all(managers.splice(0).map((m) => m.close()));
  rmSync(root, { recursive: true, force: true });
});

function writeProject(server: Record<string, unknown>): string {
  const file = path.join(project, '.mcp.json');
  writeFileSync(file, JSON.stringify({ mcpServers: { repo: server } }));
  return file;
}

function manager(options: ManagerOptions = {}): McpManager {
  const made = McpManager.create({ config: { cwd: project, homeDir: home, env: {} }, ...options });
  managers.push(made);
  return made;
}

describe('a project server that was not approved', () => {
  it('without a hook or a stored decision: the error names the file and every way to approve', async () => {
    const file = writeProject({ command: process.execPath, args: [SCRIPTED] });
    const { connected, failed } = await manager().connectAll();
    expect(connected).toEqual([]);
    expect(failed).toHaveLength(1);
    const { message, code } = failed[0]!.error;
    expect(code).toBe('INVALID_STATE');
    expect(message).toContain(`server "repo": connect was not approved to start (defined in ${file})`);
    for (const way of [
      'approve: (server) =>',
      'approvals: new ApprovalStore()',
      'requireApproval: false',
      '--trust-project',
    ])
      expect(message).toContain(way);
  });

  it('refused by the hook, or by a stored decision: the error says which', async () => {
    writeProject({ command: process.execPath, args: [SCRIPTED] });
    const byHook = await manager({ approve: () => false }).connectAll();
    expect(byHook.failed[0]!.error.message).toContain(': the approve hook refused it;');
    expect(byHook.failed[0]!.error.message).not.toContain('requireApproval');

    const store = new ApprovalStore({ file: path.join(home, 'approvals.json') });
    const reader = manager();
    await reader.init();
    await store.set(reader.getServer('repo')!, false);
    const byStore = await manager({ approvals: store }).connectAll();
    expect(byStore.failed[0]!.error.message).toContain(`: refused by the decision stored in ${store.file}`);
  });

  it("the README snippet's options on a fresh .mcp.json: the server connects and its tools are listed and callable", async () => {
    writeProject({ command: process.execPath, args: [EVERYTHING] });
    const readme = manager({ requireApproval: false });
    expect(await readme.connectAll()).toEqual({ connected: ['repo'], failed: [] });
    expect(readme.getAllTools().map((tool) => tool.name)).toContain('mcp__repo__echo');
    const result = await readme.callTool('mcp__repo__echo', { message: 'hi' });
    expect(result.content).toEqual([{ type: 'text', text: 'Echo: hi' }]);
  });
});
