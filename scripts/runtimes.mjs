/**
 * The JavaScript runtimes the server kit is tested under (node, deno, bun, workerd) and how to
 * start a script in each, shared by test/support/runtimes.ts and scripts/conformance-server.mjs.
 *
 * The binaries come from the devDependencies `deno`, `bun` and `workerd`. Their install scripts
 * may not have run (`--ignore-scripts`, some CI setups): then `bun/bin/bun.exe` is a placeholder
 * text file, so each binary is looked up in its platform package first (the package the install
 * script would have copied it from: `@deno/linux-x64-glibc/deno`, `@oven/bun-linux-x64/bin/bun`,
 * `@cloudflare/workerd-linux-64/bin/workerd`), then in the main package, and a candidate counts
 * only once `<binary> --version` answers. `MCPWIRE_DENO`, `MCPWIRE_BUN` and `MCPWIRE_WORKERD`
 * name a binary to use instead.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const RUNTIMES = ['node', 'deno', 'bun'];

const require = createRequire(path.join(ROOT, 'package.json'));

/** Where each binary sits inside its main package and inside its platform packages. */
const LAYOUT = {
  deno: { main: 'deno', inPlatform: 'deno', env: 'MCPWIRE_DENO' },
  bun: { main: 'bin/bun.exe', inPlatform: 'bin/bun', env: 'MCPWIRE_BUN' },
  workerd: { main: 'bin/workerd', inPlatform: 'bin/workerd', env: 'MCPWIRE_WORKERD' },
};

function packageDir(name) {
  try {
    return path.dirname(require.resolve(`${name}/package.json`));
  } catch {
    return undefined;
  }
}

/** The candidates for one runtime, platform packages of this OS and CPU first. */
function candidates(runtime) {
  const layout = LAYOUT[runtime];
  const main = packageDir(runtime);
  if (!main) return [];
  const manifest = JSON.parse(readFileSync(path.join(main, 'package.json'), 'utf8'));
  const cpu = { x64: ['x64', '64'], arm64: ['arm64', 'aarch64'] }[process.arch] ?? [process.arch];
  const os = process.platform === 'win32' ? 'win' : process.platform;
  const found = [];
  for (const name of Object.keys(manifest.optionalDependencies ?? {})) {
    const base = name.split('/').pop();
    if (!base.includes(os) || !cpu.some((c) => base.split('-').includes(c))) continue;
    const dir = packageDir(name);
    if (dir) found.push(path.join(dir, layout.inPlatform));
  }
  found.push(path.join(main, layout.main));
  return found;
}

const resolved = new Map();

/** The absolute path of a working `runtime` binary (`node` is this process's). Throws naming what was tried. */
export function runtimeBinary(runtime) {
  if (runtime === 'node') return process.execPath;
  if (resolved.has(runtime)) return resolved.get(runtime);
  const layout = LAYOUT[runtime];
  if (!layout) throw new Error(`unknown runtime ${runtime}`);
  const tried = process.env[layout.env] ? [process.env[layout.env]] : candidates(runtime);
  for (const binary of tried) {
    if (!existsSync(binary)) continue;
    const probe = spawnSync(binary, ['--version'], { encoding: 'utf8', timeout: 30_000 });
    if (probe.status === 0 && probe.stdout.trim()) {
      resolved.set(runtime, binary);
      return binary;
    }
  }
  throw new Error(`no working ${runtime} binary (tried: ${tried.join(', ') || 'none: the package is not installed'})`);
}

/**
 * The command line and environment that run `script` (an absolute path) under `runtime`:
 * - node: `node script`;
 * - deno: `deno run` with net, read and env permissions (and those named in `allow`, e.g.
 *   `['run']` for a client that spawns stdio servers), no remote modules, the existing
 *   `node_modules` as is (`--node-modules-dir=manual`), no lock file written, its cache in
 *   `denoDir` (required: a temporary directory of the caller's), no update check;
 * - bun: `bun --no-install --no-env-file script` (never installs a package on the fly).
 * Returns `{ command, args, env }` (`env`: the variables to add to the caller's).
 */
export function runtimeCommand(runtime, script, args = [], { denoDir, allow = [] } = {}) {
  const binary = runtimeBinary(runtime);
  if (runtime === 'node') return { command: binary, args: [script, ...args], env: {} };
  if (runtime === 'deno') {
    if (!denoDir) throw new Error('deno needs a cache directory of its own (denoDir)');
    return {
      command: binary,
      args: [
        'run',
        '--no-remote',
        '--node-modules-dir=manual',
        '--no-lock',
        '--no-config',
        '--allow-net',
        '--allow-read',
        '--allow-env',
        ...allow.map((permission) => `--allow-${permission}`),
        script,
        ...args,
      ],
      env: { DENO_DIR: denoDir, DENO_NO_UPDATE_CHECK: '1', NO_COLOR: '1' },
    };
  }
  if (runtime === 'bun') return { command: binary, args: ['--no-install', '--no-env-file', script, ...args], env: {} };
  throw new Error(`unknown runtime ${runtime} (node, deno or bun)`);
}
