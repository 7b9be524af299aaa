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
import { expect, onTestFinished } from 'vitest';
import { CLI } from './cli.js';
import { installInProject, OFFLINE_NPM_ENV } from './project-install.js';
import { startTerminal, type Terminal } from './tmux.js';

export interface ShellWorld {
  root: string;
  home: string;
  project: string;
  cache: string;
  /** HOME, XDG_CACHE_HOME, and PATH with the world's `mcpwire` first. */
  env: Record<string, string>;
}

/**
 * A fresh world whose user config (`~/.mcpwire/config.json`) holds `servers` (call inside a test).
 * `install: 'global'` (the default) puts an `mcpwire` on PATH; `'project'` installs it in the
 * project only (`project-install.ts`), with nothing named mcpwire on PATH and npm offline, so
 * `npx mcpwire` runs the project's.
 */
export function shellWorld(
  servers: Record<string, unknown>,
  options: { install?: 'global' | 'project' } = {},
): ShellWorld {
  const root = mkdtempSync(path.join(tmpdir(), 'mcpwire-completion-'));
  onTestFinished(() => rmSync(root, { recursive: true, force: true }));
  const home = path.join(root, 'home');
  const project = path.join(root, 'project');
  const cache = path.join(root, 'cache');
  const bin = path.join(root, 'bin');
  for (const dir of [path.join(home, '.mcpwire'), project, cache, bin]) mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(home, '.mcpwire/config.json'), JSON.stringify({ mcpServers: servers }));
  const env = { HOME: home, XDG_CACHE_HOME: cache, PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}` };
  if (options.install === 'project') {
    installInProject(project, home);
    return { root, home, project, cache, env: { ...env, ...OFFLINE_NPM_ENV } };
  }
  writeFileSync(
    path.join(bin, 'mcpwire'),
    `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(CLI)} "$@"\n`,
  );
  chmodSync(path.join(bin, 'mcpwire'), 0o755);
  return { root, home, project, cache, env };
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
export async function runIn(world: ShellWorld, program: string, args: readonly string[]): Promise<string> {
  return (await runInWithStderr(world, program, args)).stdout;
}

/** {@link runIn}, with what it printed on stderr too. */
export function runInWithStderr(
  world: ShellWorld,
  program: string,
  args: readonly string[],
): Promise<{ stdout: string; stderr: string }> {
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
          : resolve({ stdout, stderr }),
    );
  });
}

/** COMP_WORDS as bash splits a line: at blanks, and at `=` and `:` (COMP_WORDBREAKS), which are words. */
export function bashWords(line: string): string[] {
  return line
    .split(' ')
    .filter((w, i, all) => w !== '' || i === all.length - 1)
    .flatMap((w) => w.split(/([=:])/).filter((part, i, parts) => part !== '' || parts.length === 1));
}

/** `s` single-quoted for a POSIX shell. */
export const shellQuote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

/**
 * Completes each line in one bash of the world, with `load` (default: the global `mcpwire`'s
 * script) run first, in `cwd` (default the project): each line is handed to the completion
 * function registered for its first word (`complete -p WORD`), as bash would on a TAB at its end.
 * The replies by line, and what the run printed on stderr.
 */
export async function bashComplete(
  world: ShellWorld,
  lines: readonly string[],
  options: { load?: string; cwd?: string } = {},
): Promise<{ replies: Map<string, string[]>; stderr: string }> {
  const script = [
    `${options.load ?? 'source <(mcpwire completion bash)'} || exit 3`,
    ...(options.cwd ? [`cd ${shellQuote(options.cwd)} || exit 5`] : []),
    ...lines.map((line, i) => {
      const words = bashWords(line);
      return [
        `COMP_LINE=${shellQuote(line)}; COMP_POINT=\${#COMP_LINE}`,
        `COMP_WORDS=(${words.map(shellQuote).join(' ')}); COMP_CWORD=${words.length - 1}; COMPREPLY=()`,
        `spec=$(complete -p ${shellQuote(words[0]!)}) || exit 4; fn=\${spec#*-F }; fn=\${fn%% *}`,
        `"$fn" ${shellQuote(words[0]!)}; printf '%s\\t' ${i}; printf '%s ' "\${COMPREPLY[@]}"; echo`,
      ].join('\n');
    }),
  ].join('\n');
  const { stdout, stderr } = await runInWithStderr(world, 'bash', ['--norc', '--noprofile', '-c', script]);
  const replies = new Map<string, string[]>();
  for (const row of stdout.split('\n').filter(Boolean)) {
    const [i, rest] = row.split('\t');
    replies.set(lines[Number(i)]!, rest!.split(' ').filter(Boolean));
  }
  expect(replies.size, `bash printed:\n${stdout}\nstderr: ${stderr}`).toBe(lines.length);
  return { replies, stderr };
}

/**
 * An interactive zsh of the world in a tmux terminal (killed when the test finishes), in the
 * project, whose `.zshrc` loads `<cli> completion zsh` (`cli`: `mcpwire` or `npx mcpwire`) and
 * compinit: returned once its prompt `zsh% ` shows.
 */
export async function startZsh(world: ShellWorld, cli: string): Promise<Terminal> {
  writeFileSync(
    path.join(world.home, '.zshrc'),
    `PS1='zsh%% '\nautoload -U compinit && compinit -u -D\nsource <(${cli} completion zsh)\nprint ready\n`,
  );
  const terminal = startTerminal(['zsh', '-i'], { ...world.env, ZDOTDIR: world.home }, world.project);
  onTestFinished(() => terminal.kill());
  await terminal.waitFor(/ready\s+zsh%/, 30_000);
  return terminal;
}
