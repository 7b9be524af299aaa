/**
 * The commands `mcpwire doctor` prints as fixes paste into a POSIX shell and run as shown. Checked
 * from the built CLI: a stdio server in a directory whose name holds spaces, `$` and quotes, with
 * arguments a shell would split, expand or glob, that exits at once: its `start` fix, pasted into
 * `bash -c`, runs that program in that directory with exactly those arguments; a project server
 * nobody approved, named with a space: its `approval` fix runs `mcpwire doctor` for that server
 * (a `mcpwire` on PATH that is the built CLI). `shellQuote` itself round-trips any word through
 * bash and sh.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { shellLine, shellQuote } from '../src/util/shell-quote.js';
import { CLI, requireBuiltCli, runCli } from './support/cli.js';
import { startHostHome } from './support/host-homes.js';

beforeAll(() => requireBuiltCli());

/** What `bash -c line` (or another shell) does: its exit status and both streams. */
function paste(line: string, options: { cwd: string; env?: Record<string, string>; shell?: string }) {
  const run = spawnSync(options.shell ?? 'bash', ['-c', line], {
    cwd: options.cwd,
    env: { ...process.env, ...options.env },
    encoding: 'utf8',
    timeout: 30_000,
  });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

/** The text after `fix: PREFIX` in doctor's output. */
function fixAfter(stdout: string, prefix: string): string {
  const line = stdout.split('\n').find((l) => l.trim().startsWith(`fix: ${prefix}`));
  if (line === undefined) throw new Error(`no "fix: ${prefix}" line in:\n${stdout}`);
  return line.trim().slice(`fix: ${prefix}`.length);
}

const HOSTILE = ['two words', "it's", '$HOME', '`id`', '*', '', 'a"b', 'semi;colon', 'new\nline', '~', '#x', 'x=y'];

describe('shellQuote', () => {
  it('leaves plain words bare and quotes the rest', () => {
    expect(shellLine(['mcpwire', 'auth', 'login', '--url', 'https://example.com/mcp'])).toBe(
      'mcpwire auth login --url https://example.com/mcp',
    );
    expect(shellQuote("it's")).toBe(`'it'\\''s'`);
    expect(shellQuote('')).toBe(`''`);
    expect(shellQuote('https://x.test/mcp?a=1&b=2')).toBe(`'https://x.test/mcp?a=1&b=2'`);
  });

  it.each(['bash', 'sh'])('every word comes back whole through %s', (shell) => {
    const line = `printf '%s\\0' ${shellLine(HOSTILE)}`;
    const out = paste(line, { cwd: process.cwd(), shell });
    expect(out.code, out.stderr).toBe(0);
    expect(out.stdout.split('\0').slice(0, -1)).toEqual(HOSTILE);
  });
});

describe("mcpwire doctor's fixes", () => {
  it('the start fix of a server that exits runs its command in its directory with its arguments', async () => {
    const h = startHostHome({ hosts: [] });
    const dir = path.join(h.root, `server dir $USER "q" it's`);
    const script = h.write(
      path.join(dir, 'quits at once.mjs'),
      'console.error(JSON.stringify({ cwd: process.cwd(), args: process.argv.slice(2) })); process.exit(3);\n',
    );
    const args = [script, ...HOSTILE.filter((a) => !a.includes('\n'))];
    h.write(
      '.mcpwire/config.json',
      JSON.stringify({ mcpServers: { quits: { command: process.execPath, args, cwd: dir } } }),
    );
    const run = await runCli(['doctor', '--timeout', '30000'], { env: h.env, cwd: h.project });
    expect(run.code, run.stdout).toBe(4);
    const fix = fixAfter(run.stdout, 'run the command yourself to see why: ');

    const pasted = paste(fix, { cwd: h.project });
    expect(pasted.code, `${fix}\n${pasted.stderr}`).toBe(3);
    expect(JSON.parse(pasted.stderr.trim())).toEqual({ cwd: dir, args: args.slice(1) });
  });

  it('the approval fix of a project server runs doctor for that server', async () => {
    const h = startHostHome({ hosts: [] });
    h.write(path.join(h.project, '.mcp.json'), JSON.stringify({ mcpServers: { 'my server': { command: 'node' } } }));
    const run = await runCli(['doctor', '--timeout', '30000'], { env: h.env, cwd: h.project });
    expect(run.code, run.stdout).toBe(2);
    const fix = fixAfter(run.stdout, 'pass --trust-project, or approve it on a terminal (this asks once): ');
    expect(fix).toBe("mcpwire doctor 'my server'");

    // `mcpwire` as a project install's shell finds it: the built CLI.
    const bin = path.join(h.root, 'bin');
    mkdirSync(bin);
    const shim = h.write(path.join(bin, 'mcpwire'), `#!/bin/sh\nexec ${shellLine([process.execPath, CLI])} "$@"\n`);
    chmodSync(shim, 0o755);
    const pasted = paste(fix, { cwd: h.project, env: { ...h.env, PATH: `${bin}:${process.env.PATH ?? ''}` } });
    expect(pasted.stdout).toMatch(/^my server \(stdio: node\)$/m);
    expect(pasted.stdout).toContain('1 server(s): ');
    // It ran the CLI found on PATH (the shim), for that server only, which is still not approved (2).
    expect(pasted.code).toBe(2);
  });
});
