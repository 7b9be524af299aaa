/** Process helpers for tests that must prove no process outlives them. */
import type { ChildProcessByStdio, ChildProcessWithoutNullStreams } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Readable } from 'node:stream';
import { onTestFinished } from 'vitest';
import { until } from './wait.js';

/** The shared bounded poll, kept importable from here where tests already import it. */
export { eventually } from './wait.js';

export const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../spec-fixtures/servers');

/** True while `pid` exists. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Resolves true once `pid` is gone, false if it is still there after `ms`. */
export async function waitUntilGone(pid: number, ms = 5_000): Promise<boolean> {
  return until(() => !isAlive(pid), ms).then(
    () => true,
    () => false,
  );
}

/**
 * `/proc/<pid>/stat` fields from the state on (`[state, ppid, pgrp, session, …]`, so the start
 * time is `[19]`), or undefined once the pid is gone (or without `/proc`).
 */
export function procStat(pid: number): string[] | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return text.slice(text.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

/** Resolves true once `pid` is dead (gone, or on Linux a zombie left to its new parent), false if not within `ms`. */
export async function dies(pid: number, ms = 10_000): Promise<boolean> {
  const dead = () => !isAlive(pid) || procStat(pid)?.[0] === 'Z';
  return until(dead, ms).then(
    () => true,
    () => false,
  );
}

/**
 * Remembers `pid`, a process the test learnt of, with its start time: when the test finishes it
 * is killed (SIGKILL) if it is still that process (never a successor reusing the pid), so a failed
 * test leaves it neither to the next test nor to the suite's orphan check. Call it inside a test;
 * returns `pid`.
 */
export function killAtTestEnd(pid: number): number {
  const start = procStat(pid)?.[19];
  onTestFinished(() => {
    const now = procStat(pid);
    if (now === undefined || now[0] === 'Z' || now[19] !== start) return;
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Gone meanwhile: what the test wanted.
    }
  });
  return pid;
}

/** What a finished child printed, and its exit code. */
export interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Collects the output of `child` (spawned with piped stdout and stderr) until it closes. Bounded:
 * after `timeoutMs` it calls `kill` and rejects with an error naming `what` and the output so far.
 */
export function finished(
  child: ChildProcessWithoutNullStreams | ChildProcessByStdio<null, Readable, Readable>,
  what: string,
  timeoutMs: number,
  kill: () => void,
): Promise<Finished> {
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      kill();
      reject(new Error(`${what} did not finish within ${timeoutMs} ms\nstdout: ${stdout}\nstderr: ${stderr}`));
    }, timeoutMs);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
