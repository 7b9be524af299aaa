/**
 * A PostgreSQL cluster of a test's own: `initdb` in a temporary directory, the server on a free
 * loopback port (its socket in that directory too), trust authentication, and `stop()` that shuts
 * it down and removes everything. Runs the binaries as the `postgres` user when the tests run as
 * root (PostgreSQL refuses to run as root). `available()` says whether the machine has them.
 */
import { spawn } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { freePort } from './ports.js';

const BIN = process.env.PG_BIN ?? '/usr/lib/postgresql/15/bin';

export interface PostgresCluster {
  url: string;
  port: number;
  stop(): Promise<void>;
}

export function postgresAvailable(): boolean {
  return existsSync(path.join(BIN, 'initdb')) && existsSync(path.join(BIN, 'pg_ctl'));
}

function postgresUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
  const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
  return { uid, gid };
}

function run(command: string, args: string[], user: { uid: number; gid: number } | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(path.join(BIN, command), args, { stdio: ['ignore', 'pipe', 'pipe'], ...(user ?? {}) });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`${command} exited with ${code}: ${output.slice(-2000)}`)),
    );
  });
}

/** Starts a cluster; the database `todo` exists, user `test`, no password. */
export async function startPostgres(): Promise<PostgresCluster> {
  const user = postgresUser();
  const dir = mkdtempSync(path.join(tmpdir(), 'mcpwire-pg-'));
  if (user) chownSync(dir, user.uid, user.gid);
  const data = path.join(dir, 'data');
  const log = path.join(dir, 'server.log');
  try {
    await run('initdb', ['-D', data, '-U', 'test', '--auth=trust', '--no-sync', '-E', 'UTF8'], user);
    // A port picked free may be taken before the server binds it: try a few.
    for (let attempt = 1; ; attempt++) {
      const port = await freePort();
      try {
        await run(
          'pg_ctl',
          [
            'start',
            '-D',
            data,
            '-l',
            log,
            '-w',
            '-t',
            '60',
            '-o',
            `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=100`,
          ],
          user,
        );
      } catch (error) {
        if (attempt < 3) continue;
        throw new Error(
          `${(error as Error).message}\n${existsSync(log) ? readFileSync(log, 'utf8').slice(-2000) : ''}`,
          { cause: error },
        );
      }
      await run('createdb', ['-h', '127.0.0.1', '-p', String(port), '-U', 'test', 'todo'], user);
      let stopped: Promise<void> | undefined;
      return {
        port,
        url: `postgres://test@127.0.0.1:${port}/todo`,
        stop: () =>
          (stopped ??= run('pg_ctl', ['stop', '-D', data, '-m', 'fast', '-w', '-t', '60'], user)
            .catch(() => undefined)
            .then(() => rmSync(dir, { recursive: true, force: true }))),
      };
    }
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}
