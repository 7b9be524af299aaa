// The bench's child bookkeeping: every child leads its own process group, and every group still
// live is killed (SIGKILL) when the bench exits, errs or gets SIGINT / SIGTERM / SIGHUP.
import { spawn } from 'node:child_process';
import os from 'node:os';

/** The children still running; add each one spawned `detached`, delete it once it exited. */
export const live = new Set();

/** Kills every live child's group. */
export function killAll() {
  for (const child of live) {
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  live.clear();
}

process.on('exit', killAll);
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    killAll();
    process.exit(128 + os.constants.signals[signal]);
  });
}

/**
 * Runs `node ARGS` as a worker leading its own process group (killed with it on exit, error,
 * signal or after `timeoutMs`); resolves with the object of its `BENCH_RESULT ` line, or
 * `{ error }` (its `BENCH_ERROR ` line, else the tail of its stderr). Never rejects. `killGroup`
 * also kills what is left in the worker's group once it exited (its own children).
 */
export function runWorkerProcess(args, { env, timeoutMs, killGroup = false, withExit = false }) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'], detached: true, env });
    live.add(child);
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c) => (stderr = (stderr + c).slice(-4000)));
    const kill = () => {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    };
    const timer = setTimeout(() => {
      stderr += `\ntimed out after ${timeoutMs} ms`;
      kill();
    }, timeoutMs);
    const done = (error) => {
      clearTimeout(timer);
      if (killGroup) kill();
      live.delete(child);
      const line = stdout.split('\n').find((l) => l.startsWith('BENCH_RESULT '));
      if (!error && line) return resolve(JSON.parse(line.slice('BENCH_RESULT '.length)));
      const reported = stdout
        .split('\n')
        .find((l) => l.startsWith('BENCH_ERROR '))
        ?.slice('BENCH_ERROR '.length);
      const tail = reported
        ? withExit
          ? `${reported} (${error?.message})`
          : reported
        : `${stderr}\n${error?.message ?? ''}`.trim().split('\n').filter(Boolean).slice(-3).join(' | ');
      resolve({ error: tail || 'no result' });
    };
    child.once('error', done);
    child.once('close', (code, signal) => done(code === 0 ? undefined : new Error(`exit ${code ?? signal}`)));
  });
}

/** Runs the bench's `main` (resolving to its exit code), then kills every group still live. */
export async function runMain(main) {
  try {
    process.exitCode = await main();
  } catch (error) {
    console.error(error);
    process.exitCode = 1;
  } finally {
    killAll();
  }
}
