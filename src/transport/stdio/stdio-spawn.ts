/**
 * Starting a stdio server process: no shell, arguments as an array, a safe environment, its own
 * process group (POSIX), and spawn failures turned into `SPAWN_FAILED` errors that say why.
 */
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { statSync } from 'node:fs';
import { errorMessage, McpError } from '../../protocol/errors.js';
import { IS_WINDOWS, signalTree } from './process-tree.js';
import { buildServerEnv } from './stdio-env.js';
import type { StdioServerSpec } from '../stdio-server-spec.js';

export type { StdioServerSpec } from '../stdio-server-spec.js';

/**
 * Spawns the server and resolves once the OS has started it (the `'spawn'` event). Rejects with
 * `SPAWN_FAILED` naming the command and the reason: command not found (ENOENT), permission
 * denied (EACCES), a missing or non-directory `cwd`, or the OS error as it is. Rejects with
 * `CANCELLED` (`cause`: the signal's reason) when `signal` is aborted before the server started —
 * then nothing is spawned, or what was is killed and has exited before the rejection.
 */
export function spawnServer(
  spec: StdioServerSpec,
  server: string,
  inheritEnv: boolean,
  signal?: AbortSignal,
): Promise<ChildProcessWithoutNullStreams> {
  if (signal?.aborted) return Promise.reject(startCancelled(spec.command, server, signal));
  const cwdProblem = spec.cwd === undefined ? undefined : checkCwd(spec.cwd);
  if (cwdProblem)
    return Promise.reject(new McpError('SPAWN_FAILED', `could not start "${spec.command}": ${cwdProblem}`, { server }));
  let child: ChildProcessWithoutNullStreams;
  try {
    // node:child_process loads on the first spawn, not with the package (~13 ms of import time).
    child = process.getBuiltinModule('node:child_process').spawn(spec.command, spec.args ?? [], {
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
    const settle = () => {
      child.off('spawn', onSpawn);
      child.off('error', onError);
      signal?.removeEventListener('abort', onAbort);
    };
    const onSpawn = () => {
      settle();
      resolve(child);
    };
    const onError = (error: Error) => {
      settle();
      reject(spawnFailure(spec.command, server, error));
    };
    const onAbort = () => {
      settle();
      // The child may not have made its process group yet: signal it directly too.
      signalTree(child, 'SIGKILL');
      child.kill('SIGKILL');
      child.once('error', () => undefined);
      child.stdin.destroy();
      child.stdout.destroy();
      child.stderr.destroy();
      // 'close': the process has exited and its pipes are closed, so nothing of it is left.
      child.once('close', () => reject(startCancelled(spec.command, server, signal!)));
    };
    child.once('spawn', onSpawn);
    child.once('error', onError);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

function startCancelled(command: string, server: string, signal: AbortSignal): McpError {
  return new McpError('CANCELLED', `starting "${command}" was cancelled by the caller`, {
    server,
    cause: signal.reason,
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
  const reason = (code !== undefined ? REASONS[code] : undefined) ?? errorMessage(error);
  return new McpError('SPAWN_FAILED', `could not start "${command}": ${reason}${code ? ` (${code})` : ''}`, {
    server,
    cause: error,
  });
}
