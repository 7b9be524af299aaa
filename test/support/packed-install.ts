/**
 * mcpwire installed in a project as a user installs it, from the packed tarball, without the
 * network: `npm pack` of the built `dist/` once, its contents extracted into
 * `node_modules/mcpwire`, each runtime dependency its `package.json` lists (and the packages the
 * docs tell a user to add: the reference servers, every optional peer) a symlink to the
 * repository's `node_modules`, and their bins in `node_modules/.bin`. Scratch projects use that
 * install; each has a home of its own whose `.npmrc` closes the registry (`offline`, an
 * unreachable registry), which `npx` reads even where a server's environment is filtered, so
 * `npx mcpwire` and `npx -y @modelcontextprotocol/server-everything` find the local bins or fail,
 * never download.
 */
import { execFile } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { ROOT, requireBuiltCli } from './cli.js';

const run = promisify(execFile);
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** What the docs tell a user to install beside mcpwire, where the repository has it. */
const DOCUMENTED_EXTRAS = [
  '@modelcontextprotocol/server-everything',
  '@modelcontextprotocol/server-filesystem',
  '@modelcontextprotocol/server-memory',
  '@opentelemetry/api',
  'pg',
  'ioredis',
];

/** An unreachable registry: a request that gets past `offline` fails at once instead of downloading. */
export const CLOSED_REGISTRY = 'http://127.0.0.1:9/';

export interface PackedInstall {
  /** The directory holding the install's `node_modules`. */
  dir: string;
  /** The installed package's `package.json`. */
  manifest: {
    name: string;
    version: string;
    dependencies?: Record<string, string>;
    peerDependencies?: Record<string, string>;
  };
  /** The packages linked from the repository beside it. */
  linked: string[];
  /** A fresh scratch project using this install (removed with the install). */
  project(name: string): ScratchProject;
  /** Removes the install and every scratch project. Idempotent. */
  remove(): void;
}

export interface ScratchProject {
  /** The project's directory (the cwd of what runs in it). */
  dir: string;
  /** Its user's home (`HOME`, the XDG directories inside it, `.npmrc` closing the registry). */
  home: string;
  /** A directory for the runner's own files (outside the project). */
  work: string;
  /** The environment for commands in the project: nothing of the test process's but PATH. */
  env: Record<string, string>;
}

/** What `npm pack --json` tells of one tarball. */
export interface PackedTarball {
  /** The tarball's path. */
  file: string;
  /** Its size in bytes, and the size of its files unpacked. */
  size: number;
  unpackedSize: number;
  /** Every file in it, relative to the package root (`dist/index.js`, `package.json`). */
  files: string[];
}

/**
 * `npm pack --ignore-scripts` of the built repository (its `dist/` as it is: the prepack build is
 * skipped) into `destination`.
 */
export async function packTarball(destination: string): Promise<PackedTarball> {
  requireBuiltCli();
  const { stdout } = await run(NPM, ['pack', '--ignore-scripts', '--json', '--pack-destination', destination], {
    cwd: ROOT,
    timeout: 120_000,
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' },
  });
  const [pack] = JSON.parse(stdout.slice(stdout.indexOf('[\n'))) as Array<{
    filename: string;
    size: number;
    unpackedSize: number;
    files: Array<{ path: string }>;
  }>;
  return {
    file: path.join(destination, pack!.filename),
    size: pack!.size,
    unpackedSize: pack!.unpackedSize,
    files: pack!.files.map((f) => f.path),
  };
}

/** `npm pack --ignore-scripts` of the built repository, extracted and linked in a temp directory. */
export async function packedInstall(): Promise<PackedInstall> {
  const root = mkdtempSync(path.join(os.tmpdir(), 'mcpwire-packed-install-'));
  try {
    const pack = await packTarball(root);
    const modules = path.join(root, 'install', 'node_modules');
    mkdirSync(path.join(modules, '.bin'), { recursive: true });
    await run('tar', ['xzf', pack.file, '-C', path.join(root, 'install')], { timeout: 60_000 });
    const own = path.join(modules, 'mcpwire');
    // The tarball's top directory is `package/`.
    await run('mv', [path.join(root, 'install', 'package'), own]);
    const manifest = JSON.parse(readFileSync(path.join(own, 'package.json'), 'utf8')) as PackedInstall['manifest'];

    // The optional peers too: the docs tell a user to install them for the commands that need them.
    const extras = [...DOCUMENTED_EXTRAS, ...Object.keys(manifest.peerDependencies ?? {})];
    const wanted = [...new Set([...Object.keys(manifest.dependencies ?? {}), ...extras])];
    const linked: string[] = [];
    for (const name of wanted) {
      const from = path.join(ROOT, 'node_modules', name);
      if (!existsSync(from)) {
        if (extras.includes(name)) continue;
        throw new Error(`mcpwire's dependency ${name} is not in ${path.join(ROOT, 'node_modules')}: run npm ci`);
      }
      mkdirSync(path.dirname(path.join(modules, name)), { recursive: true });
      symlinkSync(from, path.join(modules, name), 'dir');
      linked.push(name);
    }
    for (const name of ['mcpwire', ...linked]) linkBins(modules, name);

    const projects = path.join(root, 'projects');
    mkdirSync(projects);
    let removed = false;
    return {
      dir: path.join(root, 'install'),
      manifest,
      linked,
      project: (name) => scratchProject(path.join(projects, name.replace(/[^A-Za-z0-9._-]+/g, '-')), modules),
      remove() {
        if (removed) return;
        removed = true;
        rmSync(root, { recursive: true, force: true });
      },
    };
  } catch (error) {
    rmSync(root, { recursive: true, force: true });
    throw error;
  }
}

/** `node_modules/.bin` links for the bins of the installed package `name` (relative, as npm makes them). */
function linkBins(modules: string, name: string): void {
  const manifest = JSON.parse(readFileSync(path.join(modules, name, 'package.json'), 'utf8')) as {
    name: string;
    bin?: string | Record<string, string>;
  };
  const bins =
    typeof manifest.bin === 'string' ? { [manifest.name.split('/').pop()!]: manifest.bin } : (manifest.bin ?? {});
  for (const [bin, target] of Object.entries(bins)) {
    const link = path.join(modules, '.bin', bin);
    if (!existsSync(link)) symlinkSync(path.join('..', name, target), link);
  }
}

function scratchProject(root: string, modules: string): ScratchProject {
  if (existsSync(root)) throw new Error(`scratch project ${root} exists already`);
  const dir = path.join(root, 'project');
  const home = path.join(root, 'home');
  const work = path.join(root, 'work');
  for (const d of [dir, home, work]) mkdirSync(d, { recursive: true });
  writeFileSync(
    path.join(dir, 'package.json'),
    `${JSON.stringify({ name: 'scratch', private: true, type: 'module' })}\n`,
  );
  symlinkSync(modules, path.join(dir, 'node_modules'), 'dir');
  writeFileSync(
    path.join(home, '.npmrc'),
    `offline=true\nregistry=${CLOSED_REGISTRY}\nupdate-notifier=false\nfund=false\naudit=false\n`,
  );
  const env: Record<string, string> = {
    PATH: [path.join(dir, 'node_modules', '.bin'), path.dirname(process.execPath), process.env.PATH ?? ''].join(
      path.delimiter,
    ),
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, '.config'),
    XDG_CACHE_HOME: path.join(home, '.cache'),
    XDG_DATA_HOME: path.join(home, '.local', 'share'),
    XDG_STATE_HOME: path.join(home, '.local', 'state'),
    TMPDIR: os.tmpdir(),
    LANG: 'C.UTF-8',
    NO_COLOR: '1',
    npm_config_offline: 'true',
    npm_config_registry: CLOSED_REGISTRY,
    npm_config_update_notifier: 'false',
  };
  // Under `npm run coverage` the documented commands count too.
  if (process.env.NODE_V8_COVERAGE) env.NODE_V8_COVERAGE = process.env.NODE_V8_COVERAGE;
  return { dir, home, work, env };
}

/** What an install put in `node_modules`. */
export interface InstallFootprint {
  /** The sum of the sizes of every file in `node_modules` (bytes as the files hold them, not disk blocks). */
  bytes: number;
  /** The packages installed (npm's lock entries, the installed package itself among them), sorted. */
  packages: string[];
}

/**
 * A real `npm install TARBALL` in `dir` (made empty, with a private `package.json`), from the
 * registry npm is configured with (its cache first: `--prefer-offline`), as a user's first
 * install is: peers npm 11 installs by default, optional peers not. Bounded (4 min).
 */
export async function npmInstallTarball(tarball: string, dir: string): Promise<InstallFootprint> {
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    path.join(dir, 'package.json'),
    `${JSON.stringify({ name: 'lean-user', private: true, type: 'module' })}\n`,
  );
  await npmInstall(dir, [tarball]);
  return installFootprint(dir);
}

/** `npm install ...specs` in the project `dir` (as {@link npmInstallTarball} runs it; bounded, 4 min). */
export async function npmInstall(dir: string, specs: readonly string[]): Promise<void> {
  await run(NPM, ['install', ...specs, '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd: dir,
    timeout: 240_000,
    killSignal: 'SIGKILL',
    maxBuffer: 64 * 1024 * 1024,
    env: { ...outsideNpmScripts(process.env), npm_config_update_notifier: 'false' },
  });
}

/**
 * `env` without what an npm script run (`npm test`, `npx vitest`) adds about the repository's
 * own package (its lifecycle, its package.json fields, its prefix), keeping the user's npm
 * configuration (registry, cache, proxy).
 */
function outsideNpmScripts(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(env).filter(
      ([key]) => !/^(npm_lifecycle_|npm_package_)|^(npm_config_local_prefix|npm_command|INIT_CWD)$/.test(key),
    ),
  );
}

/** The {@link InstallFootprint} of the install in `dir` (its `node_modules` and `package-lock.json`). */
export function installFootprint(dir: string): InstallFootprint {
  const lock = JSON.parse(readFileSync(path.join(dir, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, unknown>;
  };
  const packages = Object.keys(lock.packages)
    .filter((key) => key !== '')
    .map((key) => key.replace(/^.*node_modules\//, ''))
    .sort();
  return { bytes: treeBytes(path.join(dir, 'node_modules')), packages };
}

function treeBytes(dir: string): number {
  let bytes = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) bytes += treeBytes(full);
    else if (entry.isFile()) bytes += statSync(full).size;
  }
  return bytes;
}
