#!/usr/bin/env node
// `node bench/support/build-base.mjs [ref]` (default `main`): builds the `dist/` of git ref `ref`
// into `bench/results/base-<ref>/dist` (git-ignored), for the "before" rows of a bench run
// (`MCPWIRE_BASE_DIST=bench/results/base-main/dist`). The ref's `src/`, `scripts/` and configs
// are extracted with `git archive`, beside a symlink to this checkout's node_modules, and built
// with the ref's own `scripts/build.mjs`. Prints the dist path.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const ref = process.argv[2] ?? 'main';
const dir = path.join(root, 'bench/results', `base-${ref.replace(/[^\w.-]/g, '_')}`);
rmSync(dir, { recursive: true, force: true });
mkdirSync(dir, { recursive: true });
const files = ['src', 'scripts', 'package.json', 'tsconfig.json', 'tsconfig.build.json'];
const archive = execFileSync('git', ['-C', root, 'archive', ref, ...files], { maxBuffer: 1 << 28 });
execFileSync('tar', ['-x', '-C', dir], { input: archive });
if (!existsSync(path.join(dir, 'node_modules')))
  symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'));
const built = spawnSync(process.execPath, [path.join(dir, 'scripts/build.mjs')], { cwd: dir, stdio: 'inherit' });
if (built.status !== 0) process.exit(built.status ?? 1);
process.stdout.write(`${path.join(dir, 'dist')}\n`);
