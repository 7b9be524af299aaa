/**
 * N server processes of one script, each on its own loopback port: the nodes of a scaled-out
 * server, to put behind `round-robin-proxy.ts`. Each node is `node SCRIPT ...args` with its own
 * environment; it is ready once it reports its port: a `{"port":N}` line on stdout (as the
 * fixtures of `http-servers.ts` print), or, for the todo server ({@link startTodoNodes}), its
 * `listening` log line on stderr. `sigkill(i)` kills one at once (a node dying); `stop()`
 * ends them all (SIGTERM, then SIGKILL) and waits until every process is gone.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { onTestFinished } from 'vitest';
import { isAlive, waitUntilGone } from './processes.js';
import { TODO_SERVER } from './todo-server.js';

/** One node process. */
export interface ServerNode {
  readonly index: number;
  readonly port: number;
  /** `http://127.0.0.1:PORT` (append the endpoint's path). */
  readonly url: string;
  readonly pid: number;
  readonly child: ChildProcess;
  /** Its stderr so far (the last 64 kB). */
  stderr(): string;
  /** Resolves with its exit code (null when killed by a signal) once it has exited. */
  readonly exited: Promise<number | null>;
  /** Its resident memory now, in bytes (Linux `/proc`), or undefined once it is gone. */
  rssBytes(): number | undefined;
}

export interface NodeSetOptions {
  /** The script each node runs (an absolute path). */
  script: string;
  /** Its arguments, the same for all or per node. */
  args?: readonly string[] | ((index: number) => readonly string[]);
  /** Variables added to this process's environment, the same for all or per node. */
  env?: NodeJS.ProcessEnv | ((index: number) => NodeJS.ProcessEnv);
  /**
   * Reads a node's port from one line of its output; default: a `{"port":N}` line on stdout.
   * Return undefined for lines that do not tell it.
   */
  portFrom?: (line: string, stream: 'stdout' | 'stderr') => number | undefined;
  /** How long each node may take to report its port (default 30 s). */
  readyTimeoutMs?: number;
}

export interface NodeSet {
  readonly nodes: readonly ServerNode[];
  /** The nodes' URLs with `path` appended, in order (the proxy's targets). */
  urls(path?: string): string[];
  /** SIGKILLs node `i` and resolves once its process is gone. */
  sigkill(i: number): Promise<void>;
  /** SIGTERMs node `i`; resolves with its exit code once it is gone (SIGKILL after `graceMs`, default 10 s). */
  sigterm(i: number, graceMs?: number): Promise<number | null>;
  /** Ends every node still running (SIGTERM, SIGKILL after 5 s) and waits until all are gone. Idempotent. */
  stop(): Promise<void>;
}

const PAGE_BYTES = 4096;

/** Resident set size of `pid` from `/proc/<pid>/statm` (pages × 4 kB), or undefined. */
function residentBytes(pid: number): number | undefined {
  try {
    return Number(readFileSync(`/proc/${pid}/statm`, 'utf8').split(' ')[1]) * PAGE_BYTES;
  } catch {
    return undefined;
  }
}

function defaultPort(line: string, stream: 'stdout' | 'stderr'): number | undefined {
  if (stream !== 'stdout' || !line.startsWith('{"port":')) return undefined;
  return (JSON.parse(line) as { port: number }).port;
}

function pick<T>(value: T | ((index: number) => T) | undefined, index: number): T | undefined {
  return typeof value === 'function' ? (value as (index: number) => T)(index) : value;
}

async function startOne(index: number, options: NodeSetOptions): Promise<ServerNode> {
  const args = pick(options.args, index) ?? [];
  const env = pick(options.env, index);
  const child = spawn(process.execPath, [options.script, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let stderr = '';
  const portFrom = options.portFrom ?? defaultPort;
  const timeoutMs = options.readyTimeoutMs ?? 30_000;
  const name = `node ${index} (${options.script})`;
  try {
    const port = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`${name} did not report a port within ${timeoutMs} ms: ${stderr.slice(-2_000)}`)),
        timeoutMs,
      );
      const watch = (stream: 'stdout' | 'stderr') => {
        let partial = '';
        child[stream].setEncoding('utf8').on('data', (chunk: string) => {
          if (stream === 'stderr') stderr = (stderr + chunk).slice(-64_000);
          const lines = (partial + chunk).split('\n');
          partial = lines.pop()!;
          for (const line of lines) {
            let port: number | undefined;
            try {
              port = portFrom(line, stream);
            } catch {
              port = undefined;
            }
            if (port !== undefined) {
              clearTimeout(timer);
              resolve(port);
            }
          }
        });
      };
      watch('stdout');
      watch('stderr');
      child.once('exit', (code, signal) => {
        clearTimeout(timer);
        reject(new Error(`${name} exited (${code ?? signal}) before listening: ${stderr.slice(-2_000)}`));
      });
    });
    return {
      index,
      port,
      url: `http://127.0.0.1:${port}`,
      pid: child.pid!,
      child,
      stderr: () => stderr,
      exited,
      rssBytes: () => residentBytes(child.pid!),
    };
  } catch (error) {
    child.kill('SIGKILL');
    await exited;
    throw error;
  }
}

async function end(node: Pick<ServerNode, 'child' | 'pid' | 'exited'>, graceMs: number): Promise<number | null> {
  const { child, pid } = node;
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  if (!(await waitUntilGone(pid, graceMs))) {
    child.kill('SIGKILL');
    await waitUntilGone(pid, 10_000);
  }
  return node.exited;
}

/** Starts `count` nodes (all at once); the caller stops them. Rejects, leaving none running, if one fails to start. */
export async function launchNodes(count: number, options: NodeSetOptions): Promise<NodeSet> {
  const started = await Promise.allSettled(Array.from({ length: count }, (_, i) => startOne(i, options)));
  const nodes = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const failed = started.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failed) {
    await Promise.all(nodes.map((n) => end(n, 5_000)));
    throw failed.reason;
  }
  const node = (i: number): ServerNode => {
    const found = nodes[i];
    if (!found) throw new Error(`no node ${i} (${nodes.length} nodes)`);
    return found;
  };
  let stopped: Promise<void> | undefined;
  return {
    nodes,
    urls: (path = '') => nodes.map((n) => n.url + path),
    async sigkill(i) {
      const { child, pid } = node(i);
      if (isAlive(pid)) child.kill('SIGKILL');
      await waitUntilGone(pid, 10_000);
    },
    sigterm: (i, graceMs = 10_000) => end(node(i), graceMs),
    stop: () => (stopped ??= Promise.all(nodes.map((n) => end(n, 5_000))).then(() => undefined)),
  };
}

/** {@link launchNodes}, stopped when the test finishes (call it inside a test). */
export async function startNodes(count: number, options: NodeSetOptions): Promise<NodeSet> {
  const set = await launchNodes(count, options);
  onTestFinished(() => set.stop());
  return set;
}

/** The port in the todo server's `{"msg":"listening","url":…}` line on stderr. */
export function todoListeningPort(line: string, stream: 'stdout' | 'stderr'): number | undefined {
  if (stream !== 'stderr' || !line.includes('"listening"')) return undefined;
  return Number(new URL((JSON.parse(line) as { url: string }).url).port);
}

/**
 * `count` todo servers (`examples/todo-server/server.mjs --http 127.0.0.1:0 ...args`), stopped
 * when the test finishes. Give them one store (`DATABASE_URL` in `env`, or one `--db` file).
 */
export function startTodoNodes(
  count: number,
  args: readonly string[] | ((index: number) => readonly string[]) = [],
  env?: NodeSetOptions['env'],
): Promise<NodeSet> {
  return startNodes(count, {
    script: TODO_SERVER,
    args: (i) => ['--http', '127.0.0.1:0', ...(pick(args, i) ?? [])],
    ...(env ? { env } : {}),
    portFrom: todoListeningPort,
  });
}
