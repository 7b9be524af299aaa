/**
 * A PostgreSQL cluster of a test's own: `initdb` in a temporary directory, the server on a free
 * loopback port (its socket in that directory too), trust authentication, and `stop()` that shuts
 * it down and removes everything. Runs the binaries as the `postgres` user when the tests run as
 * root (PostgreSQL refuses to run as root). `postgresAvailable()` says whether the machine has
 * them; {@link skipWithoutPostgres} is the `skipIf` condition that never skips in CI, where a
 * missing binary fails the test instead (a test skipped in CI is a test that cannot fail).
 */
import { execFileSync, spawn } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from './ports.js';
import { dies } from './processes.js';

const BIN = process.env.PG_BIN ?? '/usr/lib/postgresql/15/bin';

/** One running cluster; the database `todo` exists, user `test`, no password. */
export interface PostgresCluster {
  url: string;
  port: number;
  /** Its temporary directory (data, socket, log), removed by {@link stop}. */
  dir: string;
  /** The postmaster's pid (a new one after {@link restart}). */
  readonly pid: number;
  /**
   * Ends every other client connection to the cluster (`pg_terminate_backend`), as a server
   * restart or a network cut would; resolves with how many were ended.
   */
  terminateBackends(): Promise<number>;
  /** Stops the server (fast shutdown: connections cut) and starts it again on the same port, data kept. */
  restart(): Promise<void>;
  /** Stops the server (fast shutdown), data kept, connections refused until {@link up}: a store outage. */
  down(): Promise<void>;
  /** Starts the server again on the same port after {@link down}. */
  up(): Promise<void>;
  /** Stops the server (SIGKILL to the postmaster if it lingers) and removes its directory. Idempotent. */
  stop(): Promise<void>;
}

export function postgresAvailable(): boolean {
  return ['initdb', 'pg_ctl', 'createdb', 'psql'].every((bin) => existsSync(path.join(BIN, bin)));
}

/**
 * True when tests needing PostgreSQL should be skipped: the binaries are missing and this is not
 * CI (`process.env.CI` unset). In CI they run, and {@link startPostgres} fails them, naming what is missing.
 */
export function skipWithoutPostgres(): boolean {
  return !postgresAvailable() && !process.env.CI;
}

function postgresUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
  const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
  return { uid, gid };
}

/** Runs one of the binaries; resolves with its stdout, rejects with its exit code and output. */
function run(command: string, args: string[], user: { uid: number; gid: number } | undefined): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(path.join(BIN, command), args, { stdio: ['ignore', 'pipe', 'pipe'], ...(user ?? {}) });
    let stdout = '';
    let output = '';
    child.stdout.on('data', (c: Buffer) => ((stdout += c.toString()), (output += c.toString())));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolve(stdout) : reject(new Error(`${command} exited with ${code}: ${output.slice(-2000)}`)),
    );
  });
}

/** The postmaster's pid from `postmaster.pid`, or undefined when the server is not running. */
function postmasterPid(data: string): number | undefined {
  try {
    const pid = Number(readFileSync(path.join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // gone already
  }
}

/** Data directories of clusters still running, shut down (SIGQUIT, immediate) and removed if the worker exits first. */
const running = new Map<string, string>();
let exitGuard = false;

function guardExit(dir: string, data: string): void {
  running.set(dir, data);
  if (exitGuard) return;
  exitGuard = true;
  process.once('exit', () => {
    for (const [d, dataDir] of running) {
      const pid = postmasterPid(dataDir);
      if (pid !== undefined) signal(pid, 'SIGQUIT');
      rmSync(d, { recursive: true, force: true });
    }
  });
}

/** Starts a cluster; the caller stops it (`afterAll`). Rejects, naming the directory, when the binaries are missing. */
export async function startPostgres(): Promise<PostgresCluster> {
  if (!postgresAvailable())
    throw new Error(`PostgreSQL binaries not found in ${BIN} (Debian package postgresql; .ci/run installs it)`);
  const user = postgresUser();
  const dir = mkdtempSync(path.join(tmpdir(), 'mcpwire-pg-'));
  if (user) chownSync(dir, user.uid, user.gid);
  const data = path.join(dir, 'data');
  const log = path.join(dir, 'server.log');
  const logTail = (): string => (existsSync(log) ? readFileSync(log, 'utf8').slice(-2000) : '');
  guardExit(dir, data);
  /** Ends the postmaster `pid` (SIGQUIT: immediate shutdown, backends too; SIGKILL if that hangs) and waits for it. */
  const kill = async (pid = postmasterPid(data)): Promise<void> => {
    if (pid === undefined || (await dies(pid, 0))) return;
    signal(pid, 'SIGQUIT');
    if (await dies(pid, 10_000)) return;
    signal(pid, 'SIGKILL');
    await dies(pid, 10_000);
  };
  try {
    await run('initdb', ['-D', data, '-U', 'test', '--auth=trust', '--no-sync', '-E', 'UTF8'], user);
    // A port picked free may be taken before the server binds it: try a few.
    for (let attempt = 1; ; attempt++) {
      const port = await freePort();
      const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=100`;
      try {
        await run('pg_ctl', ['start', '-D', data, '-l', log, '-w', '-t', '60', '-o', options], user);
      } catch (error) {
        await kill();
        if (attempt < 3) continue;
        throw new Error(`${(error as Error).message}\n${logTail()}`, { cause: error });
      }
      const pgCtl = (args: string[]): Promise<void> =>
        run('pg_ctl', args, user).then(
          () => undefined,
          (error: Error) => {
            throw new Error(`${error.message}\n${logTail()}`, { cause: error });
          },
        );
      const psql = (sql: string): Promise<string> =>
        run('psql', ['-h', '127.0.0.1', '-p', String(port), '-U', 'test', '-d', 'todo', '-tAq', '-c', sql], user);
      await run('createdb', ['-h', '127.0.0.1', '-p', String(port), '-U', 'test', 'todo'], user);
      let stopped: Promise<void> | undefined;
      return {
        port,
        dir,
        url: `postgres://test@127.0.0.1:${port}/todo`,
        get pid() {
          return postmasterPid(data) ?? 0;
        },
        async terminateBackends() {
          const out = await psql(
            "SELECT count(*) FILTER (WHERE pg_terminate_backend(pid)) FROM pg_stat_activity WHERE pid <> pg_backend_pid() AND backend_type = 'client backend'",
          );
          return Number(out.trim());
        },
        async restart() {
          if (stopped) throw new Error('restart() after stop()');
          await pgCtl(['restart', '-D', data, '-l', log, '-m', 'fast', '-w', '-t', '60', '-o', options]);
        },
        async down() {
          if (stopped) throw new Error('down() after stop()');
          const pid = postmasterPid(data);
          await pgCtl(['stop', '-D', data, '-m', 'fast', '-w', '-t', '60']);
          if (pid !== undefined && !(await dies(pid, 10_000))) await kill(pid);
        },
        async up() {
          if (stopped) throw new Error('up() after stop()');
          await pgCtl(['start', '-D', data, '-l', log, '-w', '-t', '60', '-o', options]);
        },
        stop: () =>
          (stopped ??= (async () => {
            const pid = postmasterPid(data);
            await run('pg_ctl', ['stop', '-D', data, '-m', 'fast', '-w', '-t', '30'], user).catch(() => undefined);
            // pg_ctl returns once postmaster.pid is gone, which may be a moment before the process is.
            if (pid !== undefined && !(await dies(pid, 10_000))) await kill(pid);
          })().finally(() => {
            rmSync(dir, { recursive: true, force: true });
            running.delete(dir);
          })),
      };
    }
  } catch (error) {
    await kill().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
    running.delete(dir);
    throw error;
  }
}
