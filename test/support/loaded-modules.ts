/**
 * What a run of the built CLI loads: its ES modules (files of `dist/`, packages from
 * `node_modules`) and Node's built-in modules, recorded by `record-loads.mjs` in a child process
 * of its own. For start-up tests that check what loads, never how long it takes.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CLI } from './cli.js';

export interface LoadedModules {
  /** The run's exit code and output. */
  status: number | null;
  stdout: string;
  stderr: string;
  /** Absolute paths of the files of `dist/` it loaded. */
  distFiles: string[];
  /** The packages it loaded from `node_modules` (`undici`, `@scope/name`). */
  packages: string[];
  /** Built-in modules by name (`child_process`, `net`; internal ones excluded). */
  builtins: string[];
}

const RECORDER = path.join(path.dirname(fileURLToPath(import.meta.url)), 'record-loads.mjs');

/** Runs `node dist/cli.js ...args` with `env` added and reports what it loaded (bounded: 30 s). */
export function cliLoads(args: readonly string[], env: Record<string, string> = {}, cwd?: string): LoadedModules {
  const dir = mkdtempSync(path.join(tmpdir(), 'mcpwire-loads-'));
  const file = path.join(dir, 'loads.txt');
  try {
    const run = spawnSync(process.execPath, ['--import', RECORDER, CLI, ...args], {
      encoding: 'utf8',
      timeout: 30_000,
      ...(cwd ? { cwd } : {}),
      env: { ...process.env, NODE_DEBUG: undefined, NO_COLOR: '1', ...env, MCPWIRE_RECORD_LOADS: file },
    });
    const lines = readFileSync(file, 'utf8').split('\n').filter(Boolean);
    const urls = lines.filter((line) => line.startsWith('file:')).map((url) => fileURLToPath(url));
    const distDir = path.join(path.dirname(CLI), path.sep);
    return {
      status: run.status,
      stdout: run.stdout,
      stderr: run.stderr,
      distFiles: urls.filter((file) => file.startsWith(distDir)),
      packages: [
        ...new Set(
          urls.flatMap((file) => {
            const match = /node_modules[\\/]((?:@[^\\/]+[\\/])?[^\\/]+)/.exec(file);
            return match ? [match[1]!.replace(/\\/g, '/')] : [];
          }),
        ),
      ],
      builtins: lines.flatMap((line) => {
        const match = /^NativeModule (?!internal\/)(.+)$/.exec(line);
        return match ? [match[1]!] : [];
      }),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
