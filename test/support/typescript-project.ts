/**
 * A throwaway TypeScript project that uses this package as `mcpwire` (a `node_modules/mcpwire`
 * symlink to the repository, so `mcpwire` and `mcpwire/types` resolve to the built `dist/`),
 * compiled by the repository's own `tsc` under `--strict`. For tests of code mcpwire writes
 * (`mcpwire emit-ts`): the emitted files compile, run, and refuse what their types forbid.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { onTestFinished } from 'vitest';
import { ROOT } from './cli.js';
import { finished, type Finished } from './processes.js';

/** `tsc --strict` as a new Node project has it: ES modules, NodeNext, ES2022 output, Node's types. */
export const STRICT_NODE_PROJECT = {
  strict: true,
  target: 'ES2022',
  module: 'NodeNext',
  moduleResolution: 'NodeNext',
  lib: ['ES2023', 'ESNext.Disposable'],
  types: ['node'],
  typeRoots: [path.join(ROOT, 'node_modules/@types')],
  skipLibCheck: true,
};

export interface TsProject {
  dir: string;
  /** Writes `name` (relative to the project) with `text`. */
  write(name: string, text: string): string;
  /**
   * Runs `tsc --strict` over `files` (`outDir: out`, ES modules for Node), or with `noEmit`
   * only checks them; `compilerOptions` add to (or override) those. Resolves with the exit code
   * and the diagnostics (bounded: 120 s).
   */
  tsc(
    files: readonly string[],
    options?: { noEmit?: boolean; compilerOptions?: Record<string, unknown> },
  ): Promise<{ code: number | null; output: string }>;
}

/** A fresh project in a temp directory, removed when the test finishes (call inside a test). */
export function tsProject(): TsProject {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'mcpwire-ts-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  mkdirSync(path.join(dir, 'node_modules'));
  symlinkSync(ROOT, path.join(dir, 'node_modules', 'mcpwire'), 'dir');
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'uses-emitted-tools', type: 'module' }));
  const write = (name: string, text: string) => {
    const file = path.join(dir, name);
    writeFileSync(file, text);
    return file;
  };
  return {
    dir,
    write,
    tsc(files, options = {}) {
      write(
        'tsconfig.json',
        JSON.stringify({
          compilerOptions: {
            ...STRICT_NODE_PROJECT,
            outDir: 'out',
            noEmit: options.noEmit === true,
            ...options.compilerOptions,
          },
          files,
        }),
      );
      return runNode(dir, path.join(ROOT, 'node_modules/typescript/bin/tsc'), ['-p', dir]).then((run) => ({
        code: run.code,
        output: run.stdout + run.stderr,
      }));
    },
  };
}

/** The checks beyond `strict` that projects turn on: an emitted module must pass them too. */
export const STRICTEST: Record<string, unknown> = {
  noUnusedLocals: true,
  noUnusedParameters: true,
  noUncheckedIndexedAccess: true,
  exactOptionalPropertyTypes: true,
  noPropertyAccessFromIndexSignature: true,
  noImplicitReturns: true,
  noImplicitOverride: true,
  verbatimModuleSyntax: true,
  isolatedModules: true,
};

/** Runs `node FILE ARGS` in `dir` (bounded: 120 s, then SIGKILL); resolves with its exit code and output. */
export function runNode(dir: string, file: string, args: readonly string[] = []): Promise<Finished> {
  const child = spawn(process.execPath, [file, ...args], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  return finished(child, `node ${file} ${args.join(' ')}`, 120_000, () => child.kill('SIGKILL'));
}
