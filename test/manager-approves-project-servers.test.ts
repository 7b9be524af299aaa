/**
 * Project files are untrusted: a server they define starts only after the approval step (a
 * stored decision, the host's hook, or the default), and an edited server is asked about again.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApprovalStore } from '../src/manager/permissions/approval-store.js';
import { McpManager } from '../src/manager/mcp-manager.js';
import type { ManagedServer } from '../src/manager/servers/managed-server.js';
import { FIXTURES } from './support/processes.js';
import { until } from './support/wait.js';
import { useConfigDirs } from './support/config-dirs.js';

const SCRIPTED = path.join(FIXTURES, 'legacy/scripted-server.mjs');
const dirs = useConfigDirs('mcpwire-approve-');
const managers: McpManager[] = [];

beforeEach(() => {
  writeFileSync(
    path.join(dirs.home, '.mcpwire/config.json'),
    JSON.stringify({ mcpServers: { mine: { command: process.execPath, args: [SCRIPTED] } } }),
  );
  writeProject([SCRIPTED]);
});
afterEach(async () => {
  await Promise.all(managers.splice(0).map((m) => m.disconnectAll()));
});

function writeProject(args: string[]): void {
  writeFileSync(
    path.join(dirs.project, '.mcp.json'),
    JSON.stringify({ mcpServers: { repo: { command: process.execPath, args } } }),
  );
}

function managerWith(options: {
  approve?: (s: ManagedServer) => boolean;
  requireApproval?: boolean;
  store?: ApprovalStore;
}): McpManager {
  const manager = McpManager.create({
    config: { cwd: dirs.project, homeDir: dirs.home, env: {} },
    ...(options.approve ? { approve: options.approve } : {}),
    ...(options.requireApproval !== undefined ? { requireApproval: options.requireApproval } : {}),
    ...(options.store ? { approvals: options.store } : {}),
  });
  managers.push(manager);
  return manager;
}

describe('approval of project-defined servers', () => {
  it('a refused project server does not start (nothing spawned); the user server does', async () => {
    // A user server that fails to start, with the default restart policy: it is refused long
    // after `repo` (it has a process to spawn), so once it has been restarted, a restart of
    // `repo` under the same policy would have happened too.
    writeFileSync(
      path.join(dirs.home, '.mcpwire/config.json'),
      JSON.stringify({
        mcpServers: {
          mine: { command: process.execPath, args: [SCRIPTED] },
          flaky: { command: process.execPath, args: [SCRIPTED, '--die-before-initialize'] },
        },
      }),
    );
    const asked: string[] = [];
    const manager = managerWith({ approve: (s) => (asked.push(`${s.name}@${s.provenance?.scope}`), false) });
    const { connected, failed } = await manager.connectAll();
    expect(connected).toEqual(['mine']);
    expect(failed.map((f) => [f.server, f.error.code]).sort()).toEqual([
      ['flaky', 'CONNECTION_CLOSED'],
      ['repo', 'INVALID_STATE'],
    ]);
    expect(failed.find((f) => f.server === 'repo')!.error.message).toBe(
      `server "repo": connect was not approved to start (defined in ${path.join(dirs.project, '.mcp.json')}): the approve hook refused it; it stays stopped until its definition changes`,
    );
    expect(asked).toEqual(['repo@project']);
    // A refusal is not a crash: no restarts are scheduled.
    const report = (name: string) => manager.getStatus().servers.find((s) => s.name === name)!;
    await until(() => report('flaky').restarts >= 1, { what: 'the first restart of flaky' });
    expect(report('repo')).toMatchObject({ status: 'not-approved', restarts: 0 });
    expect(asked).toEqual(['repo@project']);
  });

  it('without a hook, project servers do not run unasked; a host that trusts the project says requireApproval: false', async () => {
    const byDefault = managerWith({});
    expect((await byDefault.connectAll()).connected).toEqual(['mine']);
    expect(byDefault.getStatus().servers.find((s) => s.name === 'repo')).toMatchObject({ status: 'not-approved' });
    expect((await managerWith({ requireApproval: true }).connectAll()).connected).toEqual(['mine']);
    expect((await managerWith({ requireApproval: false }).connectAll()).connected.sort()).toEqual(['mine', 'repo']);
  });

  it('a stored decision is reused; editing the server asks again', async () => {
    const store = new ApprovalStore({ file: path.join(dirs.home, '.mcpwire/approvals.json') });
    let asked = 0;
    const approve = (): boolean => (asked++, true);
    expect((await managerWith({ approve, store }).connectAll()).connected.sort()).toEqual(['mine', 'repo']);
    expect((await managerWith({ approve, store }).connectAll()).connected.sort()).toEqual(['mine', 'repo']);
    expect(asked).toBe(1);
    writeProject([SCRIPTED, '--version', '2025-06-18']);
    expect((await managerWith({ approve, store }).connectAll()).connected.sort()).toEqual(['mine', 'repo']);
    expect(asked).toBe(2);
  });
});
