/**
 * `npm install mcpwire` as a library user's first install: the packed tarball installed by a
 * real npm (from the registry, its cache first) into an empty project. The tarball holds no
 * source map, image or test fixture; the install stays within 15 MB and 20 packages, because
 * the command's heavy libraries are optional peers npm does not install; `import('mcpwire')`
 * works there; and each command that needs a missing peer exits 2 naming the `npm install` to
 * run, before it starts any server, while `config add` of a JSON file needs none of them.
 *
 * The tarball is packed from `dist/` as built (`--ignore-scripts`); the prepack step a release
 * runs after the build (scripts/strip-source-maps.mjs: the maps' `sourceMappingURL` lines) is
 * run on the installed copy, so what runs here is what a user installs.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPTIONAL_PEERS, installCommand, type OptionalPeer } from '../src/util/optional-peers.js';
import { ROOT, SCRIPTED } from './support/cli.js';
import {
  npmInstall,
  npmInstallTarball,
  packTarball,
  type InstallFootprint,
  type PackedTarball,
} from './support/packed-install.js';

/** The budget of issue 27: a library user's node_modules. */
const MAX_BYTES = 15 * 1024 * 1024;
const MAX_PACKAGES = 20;
/** What json-schema-to-typescript brought before it became an optional peer. */
const NEVER_INSTALLED = [...Object.keys(OPTIONAL_PEERS), 'prettier', 'lodash', '@apidevtools/json-schema-ref-parser'];

let root: string;
let tarball: PackedTarball;
let footprint: InstallFootprint;
let project: string;
let home: string;

beforeAll(async () => {
  root = mkdtempSync(path.join(os.tmpdir(), 'mcpwire-lean-install-'));
  tarball = await packTarball(root);
  project = path.join(root, 'project');
  footprint = await npmInstallTarball(tarball.file, project);
  await run(process.execPath, [path.join(ROOT, 'scripts/strip-source-maps.mjs'), installed('dist')]);
  home = path.join(root, 'home');
  mkdirSync(home);
}, 300_000);
afterAll(() => {
  if (root) rmSync(root, { recursive: true, force: true });
});

function installed(...parts: string[]): string {
  return path.join(project, 'node_modules', 'mcpwire', ...parts);
}

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `file` with `args` in the project (30 s bound, then SIGKILL); resolves however it exits. */
function run(file: string, args: readonly string[], env: Record<string, string> = {}): Promise<Ran> {
  return new Promise((resolve, reject) => {
    execFile(
      file,
      args,
      {
        cwd: project ?? root,
        timeout: 30_000,
        killSignal: 'SIGKILL',
        env: { PATH: process.env.PATH ?? '', HOME: home ?? root, NO_COLOR: '1', ...env },
      },
      (error, stdout, stderr) => {
        if (error && typeof error.code !== 'number') reject(new Error(`${file} ${args.join(' ')}: ${error.message}`));
        else resolve({ code: error ? (error.code as number) : 0, stdout, stderr });
      },
    );
  });
}

/** The installed `mcpwire` command (npm's bin link). */
function mcpwire(args: readonly string[]): Promise<Ran> {
  return run(path.join(project, 'node_modules', '.bin', 'mcpwire'), args, {
    XDG_CONFIG_HOME: path.join(home, '.config'),
    CODEX_HOME: '',
  });
}

describe('the tarball', () => {
  it('ships the build, the README and the docs, and no source map, image, source or fixture', () => {
    expect(tarball.files).toContain('dist/index.js');
    expect(tarball.files).toContain('dist/cli.js');
    expect(tarball.files).toContain('README.md');
    const unwanted = tarball.files.filter(
      (f) => /\.(map|png|jpe?g|gif|webp)$/.test(f) || /^(src|test|spec-fixtures|bench|scripts|examples)\//.test(f),
    );
    expect(unwanted).toEqual([]);
    // 4.1 MB with the gateway (its library entry and the CLI's own copy: the CLI is bundled apart
    // so that importing the library stays fast; see scripts/build.mjs). A guard against a stray
    // asset or a duplicated dependency, not a budget the code grows into unseen.
    expect(tarball.unpackedSize).toBeLessThan(4.5 * 1024 * 1024);
  });

  it('installed, names no source map it does not ship', () => {
    const files = readdirSync(installed('dist'), { recursive: true, encoding: 'utf8' }).filter((f) =>
      f.endsWith('.js'),
    );
    expect(files.length).toBeGreaterThan(10);
    const linked = files.filter((f) => readFileSync(installed('dist', f), 'utf8').includes('//# sourceMappingURL='));
    expect(linked).toEqual([]);
  });
});

describe('npm install mcpwire', () => {
  it(`fits in ${MAX_BYTES / 1024 / 1024} MB and ${MAX_PACKAGES} packages`, () => {
    console.log(
      `packed-install-is-lean: node_modules ${(footprint.bytes / 1e6).toFixed(2)} MB, ` +
        `${footprint.packages.length} packages (${footprint.packages.join(', ')}); ` +
        `tarball ${(tarball.size / 1e3).toFixed(0)} kB, unpacked ${(tarball.unpackedSize / 1e6).toFixed(2)} MB`,
    );
    expect(footprint.bytes).toBeLessThanOrEqual(MAX_BYTES);
    expect(footprint.packages.length).toBeLessThanOrEqual(MAX_PACKAGES);
  });

  it('installs every dependency and none of the optional peers (nor what they bring)', () => {
    const manifest = JSON.parse(readFileSync(installed('package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    expect(footprint.packages).toEqual(expect.arrayContaining(['mcpwire', ...Object.keys(manifest.dependencies)]));
    expect(NEVER_INSTALLED.filter((name) => existsSync(path.join(project, 'node_modules', name)))).toEqual([]);
  });

  it("imports: import('mcpwire') gives the client, and the CLI starts", async () => {
    const imported = await run(process.execPath, [
      '--input-type=module',
      '-e',
      "const m = await import('mcpwire'); console.log(typeof m.McpClient, typeof m.McpError);",
    ]);
    expect(imported).toMatchObject({ code: 0, stdout: 'function function\n' });
    const version = await mcpwire(['--version']);
    expect(version.code).toBe(0);
    expect(version.stdout).toMatch(/^mcpwire \d/);
  });
});

describe('a command whose optional peer is missing', () => {
  const hint = (name: OptionalPeer) => `run ${installCommand(name)}`;

  it('emit-ts exits 2 naming npm install json-schema-to-typescript@16.0.0, before any server starts', async () => {
    const marker = path.join(root, 'server-started');
    // The "server" would leave a file if it ever ran.
    const server = [process.execPath, '-e', `require('fs').writeFileSync(${JSON.stringify(marker)}, '')`];
    const text = await mcpwire(['emit-ts', '--', ...server]);
    expect(text.code).toBe(2);
    expect(text.stdout).toBe('');
    expect(text.stderr).toContain(hint('json-schema-to-typescript'));
    expect(text.stderr).toContain('json-schema-to-typescript@16.0.0');
    expect(text.stderr.trim().split('\n')).toHaveLength(1);

    const json = await mcpwire(['emit-ts', '--json', '--', ...server]);
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stdout)).toMatchObject({
      ok: false,
      error: {
        code: 'DEPENDENCY_MISSING',
        dependency: 'json-schema-to-typescript',
        range: OPTIONAL_PEERS['json-schema-to-typescript'].range,
        install: installCommand('json-schema-to-typescript'),
        exitCode: 2,
      },
    });
    expect(existsSync(marker)).toBe(false);
  });

  it('config add to a JSON file needs none: it writes; --dry-run needs diff and says so', async () => {
    const added = await mcpwire(['config', 'add', 'plain', '--', 'node', 'server.js']);
    expect(added.stderr).toBe('');
    expect(added.code).toBe(0);
    const dry = await mcpwire(['config', 'add', 'other', '--dry-run', '--', 'node', 'server.js']);
    expect(dry.code).toBe(2);
    expect(dry.stderr).toContain(hint('diff'));
  });

  it('config add to a TOML file (Codex) exits 2 naming the toml-patch install', async () => {
    const codex = await mcpwire(['config', 'add', 'docs', '--to', 'codex', '--', 'node', 'server.js']);
    expect(codex.code).toBe(2);
    expect(codex.stderr).toContain(hint('@decimalturn/toml-patch'));
    expect(existsSync(path.join(home, '.codex', 'config.toml'))).toBe(false);
  });
});

describe('the install the hint names', () => {
  it('is what makes emit-ts work: run as printed, emit-ts writes the module', async () => {
    const refused = await mcpwire(['emit-ts', '--json', '--', process.execPath, SCRIPTED]);
    const { install } = (JSON.parse(refused.stdout) as { error: { install: string } }).error;
    const [npm, verb, ...specs] = install.split(' ');
    expect([npm, verb]).toEqual(['npm', 'install']);
    await npmInstall(project, specs);
    const emitted = await mcpwire(['emit-ts', '--', process.execPath, SCRIPTED]);
    expect(emitted.stderr).toBe('');
    expect(emitted.code).toBe(0);
    expect(emitted.stdout).toContain('export function typedTools(');
  }, 300_000);
});
