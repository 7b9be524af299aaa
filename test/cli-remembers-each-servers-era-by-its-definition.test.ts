/**
 * The CLI keeps the era each server definition was found to speak in
 * `$XDG_CACHE_HOME/mcpwire/eras.json`: a second run against the same definition sends no
 * `server/discover` (seen in its trace file), a changed definition (another `-e` value) is
 * probed again, a wrong remembered verdict falls back to probing and is corrected, and a run
 * that pins `--era` neither reads nor writes the file. Each test has a cache directory of its own.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { TraceRecord } from '../src/observe/trace-record.js';
import { requireBuiltCli, runCli, SCRIPTED } from './support/cli.js';
import { readJsonl } from './support/jsonl.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
beforeAll(requireBuiltCli);

function scratch(): { cache: string; trace: (n: number) => string } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'mcpwire-era-cache-'));
  dirs.push(dir);
  return { cache: path.join(dir, 'cache'), trace: (n) => path.join(dir, `trace-${n}.jsonl`) };
}

/** The requests a run sent, from its trace file. */
function sent(file: string): Array<string | undefined> {
  return readJsonl<TraceRecord>(file)
    .filter((r) => r.dir === 'out' && r.kind === 'request')
    .map((r) => r.method);
}

const SILENT = [process.execPath, SCRIPTED, '--discover', 'silent'];

async function info(cache: string, trace: string, extra: string[] = [], server = SILENT): Promise<void> {
  const run = await runCli(['info', '--trace-file', trace, ...extra, '--', ...server], {
    env: { XDG_CACHE_HOME: cache },
  });
  expect(run.code, run.stderr).toBe(0);
  expect(run.stdout).toMatch(/era\s+legacy/);
}

describe('the era cache of the CLI', () => {
  it('a second run against the same definition skips the probe; a changed definition is probed again', async () => {
    const { cache, trace } = scratch();
    await info(cache, trace(1));
    expect(sent(trace(1)).slice(0, 3)).toEqual(['server/discover', 'ping', 'initialize']);
    const file = path.join(cache, 'mcpwire', 'eras.json');
    const saved = JSON.parse(readFileSync(file, 'utf8')) as { servers: Record<string, { era: string }> };
    expect(Object.values(saved.servers)).toEqual([expect.objectContaining({ era: 'legacy' })]);
    // The key is a hash of the definition: nothing of the command line is in the file.
    expect(readFileSync(file, 'utf8')).not.toContain('scripted');

    await info(cache, trace(2));
    expect(sent(trace(2))[0]).toBe('initialize');
    expect(sent(trace(2))).not.toContain('server/discover');

    await info(cache, trace(3), ['-e', 'CHANGED=1']);
    expect(sent(trace(3))[0]).toBe('server/discover');
  });

  it('a wrong remembered verdict falls back to probing, and is corrected', async () => {
    const { cache, trace } = scratch();
    await info(cache, trace(1));
    const file = path.join(cache, 'mcpwire', 'eras.json');
    writeFileSync(file, readFileSync(file, 'utf8').replace('"era":"legacy"', '"era":"modern"'));

    await info(cache, trace(2));
    expect(sent(trace(2)).slice(0, 3)).toEqual(['server/discover', 'ping', 'initialize']);
    expect(readFileSync(file, 'utf8')).toContain('"era":"legacy"');
  });

  it('--era pins: the cache is neither read nor written', async () => {
    const { cache, trace } = scratch();
    await info(cache, trace(1), ['--era', 'legacy']);
    expect(existsSync(path.join(cache, 'mcpwire', 'eras.json'))).toBe(false);
  });
});
