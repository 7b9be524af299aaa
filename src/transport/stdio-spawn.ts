/**
 * Starting a stdio server process: no shell, arguments as an array, a safe environment, its own
 * process group (POSIX), and spawn failures turned into `SPAWN_FAILED` errors that say why.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { statSync } from 'node:fs';
import { McpError } from '../protocol/errors.js';
import { IS_WINDOWS } from './process-tree.js';
import { buildServerEnv } from './stdio-env.js';

/** How to start a stdio server. Arguments are an array: no shell is involved. */
export interface StdioServerSpec {
  /** The executable: a path, or a name looked up in the server's `PATH`. */
  command: string;
  args?: string[];
  /** Added to the inherited allowlist (or to the whole environment with `inheritEnv`). */
  env?: Record<string, string>;
  /** Working directory of the server (default: this process's). */
  cwd?: string;
  /** Pass this process's whole environment instead of the safe allowlist. */
  inheritEnv?: boolean;
}

/**
 * Spawns the server and resolves once the OS has started it (the `'spawn'` event). Rejects with
 * `SPAWN_FAILED` naming the command and the reason: command not found (ENOENT), permission
 * denied (EACCES), a missing or non-directory `cwd`, or the OS error as it is.
 */
export function spawnServer(spec: StdioServerSpec, server: string, inheritEnv: boolean): Promise<ChildProcessWithoutNullStreams> {
  const cwdProblem = spec.cwd === undefined ? undefined : checkCwd(spec.cwd);
  if (cwdProblem) return Promise.reject(new McpError('SPAWN_FAILED', `could not start "${spec.command}": ${cwdProblem}`, { server }));
  let child: ChildProcessWithoutNullStreams;
  try {
    child = spawn(spec.command, spec.args ?? [], {
      cwd: spec.cwd,
      env: buildServerEnv(spec.env, inheritEnv),
      stdio: ['pipe', 'pipe', 'pipe'],
      // Its own process group, so closing can stop the whole tree (see process-tree.ts).
      detached: !IS_WINDOWS,
      windowsHide: true,
    });
  } catch (error) {
    // Some failures (ENOTDIR, EINVAL, E2BIG) are thrown synchronously rather than emitted.
    return Promise.reject(spawnFailure(spec.command, server, error));
  }
  return new Promise((resolve, reject) => {
    const onSpawn = () => {
      child.off('error', onError);
      resolve(child);
    };
    const onError = (error: Error) => {
      child.off('spawn', onSpawn);
      reject(spawnFailure(spec.command, server, error));
    };
    child.once('spawn', onSpawn);
    child.once('error', onError);
  });
}

/** Node reports a missing cwd as ENOENT, the same as a missing command; say which it is. */
function checkCwd(cwd: string): string | undefined {
  try {
    return statSync(cwd).isDirectory() ? undefined : `working directory ${cwd} is not a directory`;
  } catch {
    return `working directory ${cwd} does not exist`;
  }
}

const REASONS: Record<string, string> = {
  ENOENT: 'command not found',
  EACCES: 'permission denied (is it executable?)',
  ENOTDIR: 'a path component is not a directory',
  EMFILE: 'too many open files in this process',
  E2BIG: 'the argument list is too long',
};

function spawnFailure(command: string, server: string, error: unknown): McpError {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const reason = (code !== undefined ? REASONS[code] : undefined) ?? (error instanceof Error ? error.message : String(error));
  return new McpError('SPAWN_FAILED', `could not start "${command}": ${reason}${code ? ` (${code})` : ''}`, { server, cause: error });
}
