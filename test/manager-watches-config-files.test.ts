/**
 * Hot reload from real files: the watcher notices in-place writes, editor-style atomic replaces
 * (write a temp file, rename it over) and files that appear later; bursts become one reload;
 * closing leaves nothing behind. The manager reloads on change and keeps unchanged servers.
 */
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { watchConfigFiles } from '../src/manager/config/config-watcher.js';
import { McpManager, type ReconcileResult } from '../src/manager/mcp-manager.js';
import type { ManagedServer } from '../src/manager/servers/managed-server.js';
import { FIXTURES, eventually } from './support/processes.js';
import { useTempDir } from './support/temp-dir.js';

const SCRIPTED = path.join(FIXTURES, 'legacy/scripted-server.mjs');
const tmp = useTempDir('mcpwire-watch-');
let cleanups: Array<() => unknown> = [];

afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  cleanups = [];
  if (tmp.dir) rmSync(tmp.dir, { recursive: true, force: true });
});

function tempDir(): string {
  return tmp.dir;
}

function atomicWrite(file: string, text: string): void {
  const temp = `${file}.tmp-${process.pid}`;
  writeFileSync(temp, text);
  renameSync(temp, file);
}

describe('watchConfigFiles', () => {
  it('reports an in-place write, an atomic replace, and a file that appears later — one call per burst', async () => {
    const root = tempDir();
    const existing = path.join(root, '.mcp.json');
    const later = path.join(root, 'mcp.yaml');
    writeFileSync(existing, '{}');
    const calls: string[][] = [];
    const watch = watchConfigFiles([existing, later], (changed) => calls.push(changed), { debounceMs: 60 });
    cleanups.push(() => watch.close());

    writeFileSync(existing, '{"a":1}');
    writeFileSync(existing, '{"a":2}');
    writeFileSync(existing, '{"a":3}');
    await eventually(() => (calls.length === 1 ? true : undefined));
    expect(calls[0]).toEqual([existing]);

    atomicWrite(existing, '{"a":4}');
    await eventually(() => (calls.length === 2 ? true : undefined));
    expect(calls[1]).toEqual([existing]);

    writeFileSync(later, 'servers: {}');
    await eventually(() => (calls.length === 3 ? true : undefined));
    expect(calls[2]).toEqual([later]);

    // An unrelated file, then a watched one: the next call names the watched file alone.
    writeFileSync(path.join(root, 'unrelated.txt'), 'x');
    writeFileSync(later, 'servers: { a: 1 }');
    await eventually(() => (calls.length === 4 ? true : undefined));
    expect(calls[3]).toEqual([later]);
  });

  it('close() stops reporting and is idempotent; an unwatchable directory goes to onError', async () => {
    const root = tempDir();
    const file = path.join(root, 'c.json');
    writeFileSync(file, '{}');
    const calls: string[][] = [];
    const errors: string[] = [];
    const watch = watchConfigFiles([file, '/definitely/missing/dir/x.json'], (changed) => calls.push(changed), {
      debounceMs: 20,
      onError: (_e, d) => errors.push(d),
    });
    expect(errors).toEqual(['/definitely/missing/dir']);
    // A witness watch still open, with a longer quiet time: when it reports the write, the closed
    // one (20 ms) would have reported it first.
    const witnessed: string[][] = [];
    const witness = watchConfigFiles([file], (changed) => witnessed.push(changed), { debounceMs: 100 });
    cleanups.push(() => witness.close());
    watch.close();
    watch.close();
    writeFileSync(file, '{"b":1}');
    await eventually(() => (witnessed.length === 1 ? true : undefined));
    expect(calls).toEqual([]);
  });
});

describe('McpManager.watchConfig', () => {
  it('reloads when the file is replaced by an editor: added server connects, unchanged keeps its pid', async () => {
    const root = tempDir();
    const file = path.join(root, '.mcp.json');
    const server = (name: string): ManagedServer => ({
      name,
      transport: 'stdio',
      command: process.execPath,
      args: [SCRIPTED],
      provenance: { file, scope: 'project' },
    });
    const write = (names: string[]): void => atomicWrite(file, JSON.stringify({ servers: names }));
    // The test's loader reads the real file; the config layer proper plugs in the same way.
    const load = async (): Promise<ManagedServer[]> =>
      (JSON.parse(readFileSync(file, 'utf8')) as { servers: string[] }).servers.map(server);
    write(['one']);
    const manager = McpManager.create({ servers: await load(), load });
    cleanups.push(() => manager.disconnectAll());
    await manager.connectAll();
    const pid = manager.getConnection('one')!.pid;

    const outcomes: Array<ReconcileResult | undefined> = [];
    manager.on('reload', (outcome) => outcomes.push(outcome.result));
    manager.watchConfig([file], { debounceMs: 50 });
    write(['one', 'two']);
    // The reload event comes once the reload is done; `two` turns connected a moment before it.
    await eventually(() => (outcomes.length === 1 ? true : undefined), 10_000);
    expect(manager.isConnected('two')).toBe(true);
    expect(manager.getConnection('one')!.pid).toBe(pid);
    expect(outcomes[0]).toMatchObject({ added: ['two'], unchanged: ['one'] });

    writeFileSync(file, '{ broken json');
    await eventually(() => (outcomes.length === 2 ? true : undefined));
    expect(outcomes[1]).toBeUndefined();
    expect(manager.isConnected('two')).toBe(true);
  });
});
