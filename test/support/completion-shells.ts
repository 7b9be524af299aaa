/**
 * Shells for completion tests: a temporary world per test (HOME with a user config, a project
 * directory, XDG cache, and a `bin/mcpwire` that runs the built CLI), the built-in completion
 * script loaded into real bash, zsh (in a tmux terminal) or fish, and bounded runs. Removed when
 * the test finishes.
 */
import { execFile, execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { onTestFinished } from 'vitest';
import { CLI } from './cli.js';

export interface ShellWorld {
  root: string;
  home: string;
  project: string;
  cache: string;
  /** HOME, XDG_CACHE_HOME, and PATH with the world's `mcpwire` first. */
  env: Record<string, string>;
}

/** A fresh world whose user config (`~/.mcpwire/config.json`) holds `servers` (call inside a test). */
export function shellWorld(servers: Record<string, unknown>): ShellWorld {
  const root = mkdtempSync(path.join(tmpdir(), 'mcpwire-completion-'));
  onTestFinished(() => rmSync(root, { recursive: true, force: true }));
  const home = path.join(root, 'home');
  const project = path.join(root, 'project');
  const cache = path.join(root, 'cache');
  const bin = path.join(root, 'bin');
  for (const dir of [path.join(home, '.mcpwire'), project, cache, bin]) mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(home, '.mcpwire/config.json'), JSON.stringify({ mcpServers: servers }));
  writeFileSync(
    path.join(bin, 'mcpwire'),
    `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(CLI)} "$@"\n`,
  );
  chmodSync(path.join(bin, 'mcpwire'), 0o755);
  return {
    root,
    home,
    project,
    cache,
    env: { HOME: home, XDG_CACHE_HOME: cache, PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}` },
  };
}

/** Whether `program` runs here (`--version`). */
export function hasProgram(program: string): boolean {
  try {
    execFileSync(program, ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** The `skipIf` condition for a shell: missing here, and not in CI (where a missing shell fails). */
export function skipWithout(program: string): boolean {
  return !hasProgram(program) && !process.env.CI;
}

/** Runs `program args…` in the world's project directory; bounded (60 s); rejects on a non-zero exit. */
export function runIn(world: ShellWorld, program: string, args: readonly string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      program,
      args,
      {
        cwd: world.project,
        env: { ...process.env, NO_COLOR: '1', ...world.env },
        timeout: 60_000,
        killSignal: 'SIGKILL',
        encoding: 'utf8',
      },
      (error, stdout, stderr) =>
        error
          ? reject(new Error(`${program} failed: ${error.message}\nstdout: ${stdout}\nstderr: ${stderr}`))
          : resolve(stdout),
    );
  });
}
