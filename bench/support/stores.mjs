// Throwaway stores for the scaled bench, started as the tests start theirs
// (test/support/postgres-cluster.ts, redis-server.ts): a PostgreSQL cluster in a temporary
// directory (initdb, pg_ctl as the `postgres` user when run as root, trust auth, fsync off, a
// loopback port) and a redis-server without persistence on a loopback port. Each `stop()`
// shuts its store down and removes its directory; `pids()` lists the store's processes, so the
// bench can read their CPU. `postgresMissing()`/`redisMissing()` say what is not installed.
import { execFileSync, spawn } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

const PG_BIN = process.env.PG_BIN ?? '/usr/lib/postgresql/15/bin';
const REDIS_SERVER = process.env.REDIS_SERVER ?? '/usr/bin/redis-server';

/** Why PostgreSQL cannot be started here, or undefined when it can. */
export function postgresMissing() {
  const missing = ['initdb', 'pg_ctl', 'createdb'].filter((bin) => !existsSync(path.join(PG_BIN, bin)));
  return missing.length ? `${missing.join(', ')} not found in ${PG_BIN} (Debian package postgresql)` : undefined;
}

/** Why Redis cannot be started here, or undefined when it can. */
export function redisMissing() {
  return existsSync(REDIS_SERVER) ? undefined : `${REDIS_SERVER} not found (Debian package redis-server)`;
}

/** A loopback port nothing listens on at the moment. */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer().once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Runs `file args` (as `user` when given); resolves once it exited 0, rejects with its output otherwise. */
function run(file, args, user) {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { stdio: ['ignore', 'pipe', 'pipe'], ...(user ?? {}) });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolve(output) : reject(new Error(`${path.basename(file)} exited ${code}: ${output.slice(-1500)}`)),
    );
  });
}

/** Pids of `root` and every process whose parent is `root` (a postmaster's backends). */
function withChildren(root) {
  const pids = [root];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const fields = readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1].split(' ');
      if (Number(fields[1]) === root) pids.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

/** A PostgreSQL cluster of the bench's own: `{ url, pids(), stop() }`. */
export async function startPostgres() {
  const user =
    process.getuid?.() === 0
      ? {
          uid: Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' })),
          gid: Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' })),
        }
      : undefined;
  const dir = mkdtempSync(path.join(tmpdir(), 'mcpwire-bench-pg-'));
  if (user) chownSync(dir, user.uid, user.gid);
  const data = path.join(dir, 'data');
  const pgCtl = (...args) => run(path.join(PG_BIN, 'pg_ctl'), args, user);
  const stop = async () => {
    await pgCtl('stop', '-D', data, '-m', 'fast', '-w', '-t', '30').catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await run(
      path.join(PG_BIN, 'initdb'),
      ['-D', data, '-U', 'bench', '--auth=trust', '--no-sync', '-E', 'UTF8'],
      user,
    );
    const port = await freePort();
    const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`;
    await pgCtl('start', '-D', data, '-l', path.join(dir, 'server.log'), '-w', '-t', '60', '-o', options);
    await run(path.join(PG_BIN, 'createdb'), ['-h', '127.0.0.1', '-p', String(port), '-U', 'bench', 'bench'], user);
    const postmaster = Number(readFileSync(path.join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
    return { url: `postgres://bench@127.0.0.1:${port}/bench`, pids: () => withChildren(postmaster), stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Resolves with the first reply line of one RESP command to the server on `port`, rejecting after 2 s. */
function redisCommand(port, args) {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port });
    let reply = '';
    const timer = setTimeout(() => socket.destroy(new Error(`redis on ${port}: no answer to ${args[0]}`)), 2_000);
    socket.once('error', (error) => (clearTimeout(timer), reject(error)));
    socket.on('data', (chunk) => {
      reply += chunk;
      if (!reply.includes('\r\n')) return;
      clearTimeout(timer);
      socket.destroy();
      resolve(reply.split('\r\n')[0]);
    });
    socket.write(`*${args.length}\r\n${args.map((a) => `$${Buffer.byteLength(a)}\r\n${a}\r\n`).join('')}`);
  });
}

/** A redis-server of the bench's own: `{ url, pids(), stop() }`. */
export async function startRedis() {
  const dir = mkdtempSync(path.join(tmpdir(), 'mcpwire-bench-redis-'));
  const port = await freePort();
  const child = spawn(
    REDIS_SERVER,
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir],
    { stdio: 'ignore' },
  );
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
    rmSync(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 20_000;
  while ((await redisCommand(port, ['PING']).catch(() => '')) !== '+PONG') {
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`redis-server on port ${port} did not answer PING`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { url: `redis://127.0.0.1:${port}`, pids: () => [child.pid], stop };
}
