/**
 * A `redis-server` of a test's own (Debian's package): on a free loopback port, no persistence
 * (`--save '' --appendonly no`, its working directory a temporary one), ready once it answers
 * PING. `stop()` shuts it down and waits until the process is gone; `down()`/`up()` make an
 * outage; `restart()` brings it back on
 * the same port (empty: nothing is persisted), for tests of a bus that loses its connection.
 * `redisAvailable()` says whether the machine has the binary; {@link skipWithoutRedis} is the
 * `skipIf` condition that never skips in CI, where a missing binary fails the test instead.
 *
 * PING and SHUTDOWN are spoken in RESP over `node:net` (no Redis client is a dependency yet).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from './ports.js';
import { isAlive, waitUntilGone } from './processes.js';

const BIN = process.env.REDIS_SERVER ?? '/usr/bin/redis-server';

/** One running `redis-server`. */
export interface RedisServer {
  readonly port: number;
  /** `redis://127.0.0.1:PORT`. */
  readonly url: string;
  /** The current process's pid (a new one after {@link restart}). */
  readonly pid: number;
  /** Its output so far (the last 8 kB), for failure messages. */
  output(): string;
  /** `SHUTDOWN NOSAVE`, SIGKILL if it lingers; resolves once the process is gone. Idempotent. */
  stop(): Promise<void>;
  /** Stops it and starts a new, empty server on the same port; resolves once that answers PING. */
  restart(): Promise<void>;
  /** Takes it down (the process gone, connections refused) until {@link up}: a store outage. */
  down(): Promise<void>;
  /** Starts a new, empty server on the same port after {@link down}; resolves once it answers PING. */
  up(): Promise<void>;
}

export function redisAvailable(): boolean {
  return existsSync(BIN);
}

/**
 * True when tests needing Redis should be skipped: the binary is missing and this is not CI
 * (`process.env.CI` unset). In CI they run, and {@link startRedis} fails them, naming what is missing.
 */
export function skipWithoutRedis(): boolean {
  return !redisAvailable() && !process.env.CI;
}

/** Sends one command (RESP array of bulk strings); resolves with the first reply line, or "" when the server closes. */
export function redisCommand(port: number, args: readonly string[], timeoutMs = 5_000): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port });
    let reply = '';
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`redis on port ${port} did not answer ${args[0]} within ${timeoutMs} ms`));
    }, timeoutMs);
    const done = (error?: Error): void => {
      clearTimeout(timer);
      socket.destroy();
      if (error) reject(error);
      else resolve(reply.split('\r\n')[0] ?? '');
    };
    socket.once('error', done);
    socket.once('close', () => done());
    socket.on('data', (chunk: Buffer) => {
      reply += chunk.toString('utf8');
      if (reply.includes('\r\n')) done();
    });
    socket.write(`*${args.length}\r\n${args.map((a) => `$${Buffer.byteLength(a)}\r\n${a}\r\n`).join('')}`);
  });
}

/** Every server started here still running, killed if the worker exits without stopping it. */
const running = new Set<ChildProcess>();
let exitGuard = false;

function launch(port: number, dir: string, log: { text: string }): ChildProcess {
  const child = spawn(
    BIN,
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const keep = (chunk: Buffer): void => void (log.text = (log.text + chunk.toString('utf8')).slice(-8_000));
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  running.add(child);
  child.once('exit', () => running.delete(child));
  if (!exitGuard) {
    exitGuard = true;
    process.once('exit', () => {
      for (const c of running) c.kill('SIGKILL');
    });
  }
  return child;
}

/** Resolves once the server on `port` answers PING; rejects as soon as `child` exits, or after 20 s. */
async function ready(child: ChildProcess, port: number, log: { text: string }): Promise<void> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`redis-server on port ${port} exited before answering PING: ${log.text.slice(-2_000)}`);
    if ((await redisCommand(port, ['PING'], 2_000).catch(() => '')) === '+PONG') return;
    if (Date.now() > deadline)
      throw new Error(`redis-server on port ${port} did not answer PING within 20 s: ${log.text.slice(-2_000)}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function shutdown(child: ChildProcess, port: number): Promise<void> {
  const pid = child.pid!;
  if (!isAlive(pid) || child.exitCode !== null || child.signalCode !== null) return;
  await redisCommand(port, ['SHUTDOWN', 'NOSAVE'], 2_000).catch(() => undefined);
  if (await waitUntilGone(pid, 5_000)) return;
  child.kill('SIGKILL');
  await waitUntilGone(pid, 5_000);
}

/**
 * Starts a server; the caller stops it (in `afterAll`, or `onTestFinished(redis.stop)` inside a
 * test). Rejects, naming the binary, when it is missing.
 */
export async function startRedis(): Promise<RedisServer> {
  if (!redisAvailable())
    throw new Error(`redis-server not found at ${BIN} (Debian package redis-server; .ci/run installs it)`);
  const dir = mkdtempSync(path.join(tmpdir(), 'mcpwire-redis-'));
  const log = { text: '' };
  let child: ChildProcess | undefined;
  let port = 0;
  try {
    // A port picked free may be taken before the server binds it: try a few.
    for (let attempt = 1; ; attempt++) {
      port = await freePort();
      child = launch(port, dir, log);
      try {
        await ready(child, port, log);
        break;
      } catch (error) {
        await shutdown(child, port);
        if (attempt >= 3) throw error;
      }
    }
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  let stopped: Promise<void> | undefined;
  const server: RedisServer = {
    port,
    url: `redis://127.0.0.1:${port}`,
    get pid() {
      return child!.pid!;
    },
    output: () => log.text,
    stop: () => (stopped ??= shutdown(child!, port).finally(() => rmSync(dir, { recursive: true, force: true }))),
    async down() {
      if (stopped) throw new Error('down() after stop()');
      await shutdown(child!, port);
    },
    async up() {
      if (stopped) throw new Error('up() after stop()');
      if (isAlive(child!.pid!)) return;
      child = launch(port, dir, log);
      await ready(child, port, log);
    },
    async restart() {
      await server.down();
      await server.up();
    },
  };
  return server;
}
