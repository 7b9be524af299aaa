/**
 * `import('mcpwire')` stays cheap: the Node built-ins that cost most of its import time load on
 * first use, not with the package — `node:child_process` (spawning a stdio server; it brings
 * `net` and `dgram`, ~13 ms here) and `node:crypto` (hashing tool names and fingerprints).
 * Checked in a fresh process against the built package.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { requireBuiltCli, ROOT } from './support/cli.js';

const PROBE = `
const before = new Set(process.moduleLoadList);
await import(${JSON.stringify(path.join(ROOT, 'dist/index.js'))});
const loaded = process.moduleLoadList.filter((m) => !before.has(m));
// Only now touch process.stdout: on a pipe, its getter loads node:net.
process.stdout.write(JSON.stringify(loaded));
`;

/** The built-in modules a fresh `node` (without NODE_DEBUG) loads while importing the package. */
function loadedByImport(): string[] {
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', PROBE], {
    encoding: 'utf8',
    timeout: 30_000,
    env: { ...process.env, NODE_DEBUG: undefined },
  });
  expect(run.status, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as string[];
}

beforeAll(() => requireBuiltCli());

describe('importing mcpwire', () => {
  it('loads neither node:child_process (nor the net and dgram it brings) nor node:crypto', () => {
    const loaded = loadedByImport();
    expect(loaded.length).toBeGreaterThan(0);
    for (const heavy of [
      'NativeModule child_process',
      'NativeModule net',
      'NativeModule dgram',
      'NativeModule crypto',
    ]) {
      expect(loaded).not.toContain(heavy);
    }
  });
});
