/**
 * Every example in `mcpwire --help` and `mcpwire COMMAND --help` runs as written, offline: each
 * is handed to `sh` with `mcpwire` on the PATH, in a project where the reference server is
 * installed (as the package's dev dependencies install it), with npm's registry closed
 * (`offline` and an unreachable registry in `~/.npmrc`, which npx reads even when the server's
 * environment is filtered). `--server everything` is a user-config server; the `--url` examples
 * get the reference server's HTTP mode on a free port in place of 3001. An example succeeds when it
 * exits 0 and prints no error (the repl answers errors and still exits 0). The help also lists
 * `--version` / `-V`, and every line fits 80 columns.
 */
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HELP } from '../src/cli/help.js';
import { CLI, ROOT, requireBuiltCli, runCli } from './support/cli.js';
import { everythingOverHttp, type HttpServerProcess } from './support/http-servers.js';
import { installInProject } from './support/project-install.js';
import { finished, type Finished } from './support/processes.js';

const TOPICS = Object.keys(HELP);
/** Topics whose command needs a browser to do anything. */
const NEEDS_A_BROWSER = ['app'];
let root: string;
let bin: string;
let http: HttpServerProcess;

/** The shell commands under `Example:` / `Examples…:` lines (`\` continues a line). */
function examplesOf(text: string): string[] {
  const found: string[] = [];
  let inBlock = false;
  let pending = '';
  for (const line of text.split('\n')) {
    if (/^Examples?\b.*:$/.test(line)) {
      inBlock = true;
      continue;
    }
    if (!inBlock) continue;
    if (!line.startsWith('  ')) {
      inBlock = false;
      continue;
    }
    pending = pending ? `${pending} ${line.trim()}` : line.trim();
    if (pending.endsWith('\\')) pending = pending.slice(0, -1).trimEnd();
    else {
      found.push(pending);
      pending = '';
    }
  }
  return found;
}

/** A fresh home (user config, closed registry) and project (the reference server installed). */
function place(topic: string): { home: string; project: string } {
  const home = path.join(root, topic, 'home');
  const project = path.join(root, topic, 'project');
  mkdirSync(path.join(home, '.mcpwire'), { recursive: true });
  mkdirSync(project, { recursive: true });
  writeFileSync(path.join(home, '.npmrc'), 'offline=true\nregistry=http://127.0.0.1:9/\nupdate-notifier=false\n');
  writeFileSync(
    path.join(home, '.mcpwire/config.json'),
    JSON.stringify({
      mcpServers: { everything: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-everything'] } },
    }),
  );
  writeFileSync(
    path.join(project, 'package.json'),
    JSON.stringify({
      name: 'uses-mcpwire',
      private: true,
      devDependencies: { '@modelcontextprotocol/server-everything': '*' },
    }),
  );
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(project, 'node_modules'), 'dir');
  return { home, project };
}

/**
 * A fresh home and project for a project install: mcpwire and the reference server installed in
 * the project only (`project-install.ts`), the same user config as {@link place}.
 */
function placeProjectInstall(topic: string): { home: string; project: string } {
  const home = path.join(root, `${topic}-npx`, 'home');
  const project = path.join(root, `${topic}-npx`, 'project');
  mkdirSync(path.join(home, '.mcpwire'), { recursive: true });
  mkdirSync(project, { recursive: true });
  installInProject(project, home, ['@modelcontextprotocol/server-everything']);
  writeFileSync(
    path.join(home, '.mcpwire/config.json'),
    JSON.stringify({
      mcpServers: { everything: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-everything'] } },
    }),
  );
  return { home, project };
}

/** `line` as typed in a project install: each command that is mcpwire (first, or after a pipe) run by npx. */
function underNpx(line: string): string {
  return line.replace(/(^|\|\s*)mcpwire /g, '$1npx mcpwire ');
}

/**
 * The topics whose examples are checked in a project install too: those that run mcpwire inside
 * mcpwire (replay), pipe into it (repl) or write its scripts (completion), and a plain few. The
 * others run `mcpwire` once at the front of the line, which npx only starts.
 */
const NPX_TOPICS = ['main', 'call', 'proxy', 'repl', 'replay', 'completion'];

/** Runs `line` with sh; bounded, the process group killed on overrun. */
function shell(
  line: string,
  cwd: string,
  home: string,
  timeoutMs = 60_000,
  withGlobalMcpwire = true,
): Promise<Finished> {
  const child = spawn('sh', ['-c', line], {
    cwd,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      PATH: withGlobalMcpwire ? `${bin}${path.delimiter}${process.env.PATH ?? ''}` : (process.env.PATH ?? ''),
      HOME: home,
      TOKEN: 'example-token',
      NO_COLOR: '1',
      npm_config_offline: 'true',
      npm_config_registry: 'http://127.0.0.1:9/',
    },
  });
  return finished(child, `"${line}"`, timeoutMs, () => process.kill(-child.pid!, 'SIGKILL'));
}

beforeAll(async () => {
  requireBuiltCli();
  root = mkdtempSync(path.join(os.tmpdir(), 'mcpwire-help-examples-'));
  bin = path.join(root, 'bin');
  mkdirSync(bin);
  writeFileSync(path.join(bin, 'mcpwire'), `#!/bin/sh\nexec '${process.execPath}' '${CLI}' "$@"\n`);
  chmodSync(path.join(bin, 'mcpwire'), 0o755);
  http = await everythingOverHttp('streamableHttp');
});
afterAll(async () => {
  await http?.stop();
  if (root) rmSync(root, { recursive: true, force: true });
});

describe('mcpwire help', () => {
  it('lists --version and -V, and both print the version', async () => {
    const help = await runCli(['--help']);
    expect(help.stdout).toMatch(/^\s+-V, --version\s/m);
    for (const flag of ['--version', '-V']) expect((await runCli([flag])).stdout).toMatch(/^mcpwire \d+\.\d+\.\d+\n$/);
  });

  it.each(TOPICS)('%s: every line fits 80 columns, and there are examples', async (topic) => {
    const run = await runCli(topic === 'main' ? ['--help'] : [topic, '--help']);
    expect(run.code).toBe(0);
    const wide = run.stdout.split('\n').filter((line) => [...line].length > 80);
    expect(wide).toEqual([]);
    // `app` opens a browser, which no offline example can: its examples are "For example" lines,
    // and test/cli-app-preview-in-chromium.test.ts runs the command with a real one.
    if (NEEDS_A_BROWSER.includes(topic)) expect(run.stdout).toMatch(/^For example \(these open a browser\):$/m);
    else expect(examplesOf(run.stdout).length).toBeGreaterThan(0);
  });

  it.each(TOPICS)(
    '%s: every example runs offline and succeeds',
    async (topic) => {
      const run = await runCli(topic === 'main' ? ['--help'] : [topic, '--help']);
      const { home, project } = place(topic);
      for (const example of examplesOf(run.stdout)) {
        const line = example.replaceAll('http://127.0.0.1:3001/mcp', http.url);
        const result = await shell(line, project, home);
        const shown = `${example}\nstdout: ${result.stdout}\nstderr: ${result.stderr}`;
        expect(result.code, shown).toBe(0);
        // Nothing failed quietly either: no "error: …" on stderr, no "CODE: …" answer in the repl.
        expect(result.stderr, shown).not.toMatch(/^error: /m);
        expect(result.stdout, shown).not.toMatch(/^[A-Z][A-Z_]{3,}: /m);
      }
    },
    180_000,
  );

  it.each(NPX_TOPICS)(
    '%s: every example runs as npx mcpwire in a project install (no mcpwire on PATH)',
    async (topic) => {
      const run = await runCli(topic === 'main' ? ['--help'] : [topic, '--help']);
      const { home, project } = placeProjectInstall(topic);
      expect((await shell('command -v mcpwire', project, home, 60_000, false)).code).not.toBe(0);
      for (const example of examplesOf(run.stdout)) {
        const line = underNpx(example.replaceAll('http://127.0.0.1:3001/mcp', http.url));
        const result = await shell(line, project, home, 60_000, false);
        const shown = `${line}\nstdout: ${result.stdout}\nstderr: ${result.stderr}`;
        expect(result.code, shown).toBe(0);
        expect(result.stderr, shown).not.toMatch(/^error: /m);
        expect(result.stdout, shown).not.toMatch(/^[A-Z][A-Z_]{3,}: /m);
      }
    },
    180_000,
  );
});
