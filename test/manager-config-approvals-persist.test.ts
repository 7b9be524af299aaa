/**
 * ApprovalStore: decisions survive a new store on the same file, are tied to the server's
 * fingerprint (an edit needs approving again), are written atomically (no temp files left), and
 * a corrupt store approves nothing and is never overwritten.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApprovalStore, approvalKeyOf } from '../src/manager/permissions/approval-store.js';
import { configFingerprint } from '../src/manager/config/fingerprint.js';
import type { ManagedServer } from '../src/manager/servers/managed-server.js';

let root: string;
beforeEach(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'mcpwire-approvals-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const projectFile = '/work/p/.mcp.json';
const server: ManagedServer = {
  name: 'fs',
  transport: 'stdio',
  command: 'node',
  args: ['fs.js'],
  provenance: { file: projectFile, scope: 'project' },
};

describe('ApprovalStore', () => {
  it('defaults to <homeDir>/.mcpwire/approvals.json, created on first set', async () => {
    const store = new ApprovalStore({ homeDir: root });
    expect(store.file).toBe(path.join(root, '.mcpwire', 'approvals.json'));
    expect(await store.get(server)).toBeUndefined();
    await store.set(server, true);
    const saved = JSON.parse(readFileSync(store.file, 'utf8'));
    expect(saved.version).toBe(1);
    expect(saved.approvals).toEqual([
      {
        file: projectFile,
        server: 'fs',
        fingerprint: configFingerprint(server),
        approved: true,
        decidedAt: expect.any(String),
      },
    ]);
  });

  it('a decision persists across stores, and an edited server needs re-approval', async () => {
    const file = path.join(root, 'approvals.json');
    await new ApprovalStore({ file }).set(server, true);
    const reopened = new ApprovalStore({ file });
    expect(await reopened.get(server)).toBe(true);
    expect(await reopened.get({ ...server, provenance: { file: projectFile, scope: 'project' } })).toBe(true);
    const edited: ManagedServer = { ...server, args: ['fs.js', '--write'] };
    expect(await reopened.get(edited)).toBeUndefined();
    await reopened.set(edited, false);
    expect(await reopened.get(edited)).toBe(false);
    expect(await reopened.get(server)).toBeUndefined(); // the newer decision replaced the older one
    expect(await reopened.list()).toHaveLength(1);
  });

  it('keys are file + server + fingerprint: another file or name is undecided', async () => {
    const store = new ApprovalStore({ file: path.join(root, 'a.json') });
    await store.set(server, true);
    expect(await store.get({ ...server, provenance: { file: '/other/.mcp.json', scope: 'project' } })).toBeUndefined();
    expect(await store.get({ ...server, name: 'fs2' })).toBeUndefined();
    expect(await store.get(approvalKeyOf(server))).toBe(true);
    expect(await store.get({ file: projectFile, server: 'fs', fingerprint: 'x'.repeat(64) })).toBeUndefined();
  });

  it('concurrent sets from one store all land; no temp file is left behind', async () => {
    const store = new ApprovalStore({ file: path.join(root, 'approvals.json') });
    await Promise.all(['a', 'b', 'c', 'd'].map((name, i) => store.set({ ...server, name }, i % 2 === 0)));
    expect((await store.list()).map((r) => [r.server, r.approved]).sort()).toEqual([
      ['a', true],
      ['b', false],
      ['c', true],
      ['d', false],
    ]);
    expect(readdirSync(root)).toEqual(['approvals.json']);
  });

  it('delete forgets a decision and is idempotent', async () => {
    const store = new ApprovalStore({ file: path.join(root, 'approvals.json') });
    await store.set(server, true);
    await store.delete(projectFile, 'fs');
    await store.delete(projectFile, 'fs');
    expect(await store.get(server)).toBeUndefined();
  });

  it('a corrupt store approves nothing and set refuses to overwrite it', async () => {
    const file = path.join(root, 'approvals.json');
    writeFileSync(file, '{ not json');
    const store = new ApprovalStore({ file });
    expect(await store.get(server)).toBeUndefined();
    await expect(store.set(server, true)).rejects.toMatchObject({
      code: 'CONFIG_INVALID',
      message: expect.stringContaining(`${file}: approvals file is not valid JSON`),
    });
    expect(readFileSync(file, 'utf8')).toBe('{ not json');
  });

  it('a server without provenance has no key', () => {
    expect(() => approvalKeyOf({ name: 'x', transport: 'stdio', command: 'x' })).toThrow(
      'server "x" has no provenance, so no approval key',
    );
  });
});
