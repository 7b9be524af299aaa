/**
 * Runs the built `mcpwire` command (`node dist/cli.js …`) as a user would: a real child process
 * with its own stdin, stdout and stderr. Every run is bounded (default 30 s, then SIGKILL and a
 * failed assertion naming the command line).
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const CLI = path.join(ROOT, 'dist', 'cli.js');
export const EVERYTHING = path.join(ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
export const SCRIPTED = path.join(ROOT, 'spec-fixtures/servers/legacy/scripted-server.mjs');
export const MODERN = path.join(ROOT, 'spec-fixtures/servers/modern/v2-server.mjs');

export interface CliRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** stdout parsed as the `--json` envelope. */
  json<T = Record<string, unknown>>(): T;
}

export interface CliRunOptions {
  env?: Record<string, string | undefined>;
  cwd?: string;
  input?: string;
  timeoutMs?: number;
  /** Node's own options, before the CLI's path (`--import ./otel.mjs`). */
  nodeOptions?: readonly string[];
}

/** Throws a clear error when the CLI was not built (`npm test` builds it first). */
export function requireBuiltCli(): void {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run "npm run build" (npm test does it)`);
}

export function runCli(args: readonly string[], options: CliRunOptions = {}): Promise<CliRun> {
  return startCli(args, options).done.then((run) => ({
    ...run,
    json<T>() {
      try {
        return JSON.parse(run.stdout) as T;
      } catch {
        throw new Error(`stdout is not one JSON document:\n${run.stdout}\nstderr: ${run.stderr}`);
      }
    },
  }));
}

/** A CLI run still going: read its stdout as it comes, signal it, await its end. */
export interface RunningCli {
  pid: number;
  /** stdout so far. */
  readonly stdout: string;
  /** stderr so far. */
  readonly stderr: string;
  /**
   * Resolves with what `stream` printed so far once `check` holds for it; rejects when the process
   * ends first or after `timeoutMs` (default 30 s), naming `what` and showing both streams.
   */
  until(
    stream: 'stdout' | 'stderr',
    check: (text: string) => boolean,
    what: string,
    timeoutMs?: number,
  ): Promise<string>;
  kill(signal: NodeJS.Signals): void;
  /** How it ended; rejects (after a SIGKILL) when it runs longer than the run's bound. Never left unhandled. */
  done: Promise<Omit<CliRun, 'json'>>;
}

/**
 * Starts the built CLI like {@link runCli} but hands it back while it runs (a login waiting for
 * its callback). Bounded the same way (default 30 s, then SIGKILL and a rejected `done`); the
 * caller awaits `done` or kills it.
 */
export function startCli(args: readonly string[], options: CliRunOptions = {}): RunningCli {
  const child = spawn(process.execPath, [...(options.nodeOptions ?? []), CLI, ...args], {
    cwd: options.cwd ?? ROOT,
    env: { ...process.env, NO_COLOR: '1', ...options.env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  let ended = false;
  const waiters = new Set<() => void>();
  const wake = () => {
    for (const waiter of [...waiters]) waiter();
  };
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
    wake();
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
    wake();
  });
  child.stdin.on('error', () => {});
  child.stdin.end(options.input ?? '');
  const limit = options.timeoutMs ?? 30_000;
  const done = new Promise<Omit<CliRun, 'json'>>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(
        new Error(`mcpwire ${args.join(' ')} did not finish within ${limit} ms\nstdout: ${stdout}\nstderr: ${stderr}`),
      );
    }, limit);
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      ended = true;
      wake();
      resolve({ code, signal, stdout, stderr });
    });
  });
  done.catch(() => {});
  return {
    pid: child.pid!,
    get stdout() {
      return stdout;
    },
    get stderr() {
      return stderr;
    },
    until(stream, check, what, timeoutMs = 30_000) {
      let waiter: (() => void) | undefined;
      let timer: ReturnType<typeof setTimeout> | undefined;
      return new Promise<string>((resolve, reject) => {
        waiter = () => {
          const text = stream === 'stdout' ? stdout : stderr;
          if (check(text)) resolve(text);
          else if (ended) reject(new Error(`mcpwire ended before ${what}\nstdout: ${stdout}\nstderr: ${stderr}`));
        };
        timer = setTimeout(
          () =>
            reject(new Error(`${what} did not happen within ${timeoutMs} ms\nstdout: ${stdout}\nstderr: ${stderr}`)),
          timeoutMs,
        );
        waiters.add(waiter);
        waiter();
      }).finally(() => {
        clearTimeout(timer);
        waiters.delete(waiter!);
      });
    },
    kill: (signal) => child.kill(signal),
    done,
  };
}
