/**
 * The todo server's `--state memory|postgres|redis` and `--lease-ms` (examples/todo-server/config.mjs):
 * a shared store needs `--http`, its URL (`DATABASE_URL`, `REDIS_URL`) and `MCP_STATE_SECRET`, each
 * refused by name when missing or malformed, before anything is opened (exit 2 with the usage);
 * `MCP_NODE_ID` names the node in its `listening` line; a store's module (and its driver) is
 * loaded only when chosen, and closed on SIGTERM. The nodes on real stores are in
 * `server-state-nodes-{postgres,redis}.test.ts`.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it, onTestFinished } from 'vitest';
import { RECORDER } from './support/loaded-modules.js';
import { skipWithoutRedis, startRedis } from './support/redis-server.js';
import { startTodoHttp, tempDir, TODO_SERVER } from './support/todo-server.js';
import { within } from './support/wait.js';

interface StateConfig {
  store: string;
  url?: string;
  secret?: string;
  nodeId?: string;
  prefix?: string;
  leaseMs?: number;
}
const { readConfig } = (await import(pathToFileURL(path.join(path.dirname(TODO_SERVER), 'config.mjs')).href)) as {
  readConfig: (argv: string[], env: Record<string, string>) => { state: StateConfig };
};

const HTTP = ['--http', '127.0.0.1:0'];
const SECRET = 'a secret of sixteen+ characters';

describe('the todo server state flags', () => {
  it('keep the state in memory by default, and take a node id, a secret and a lease', () => {
    expect(readConfig([], {}).state).toMatchObject({ store: 'memory' });
    expect(readConfig([...HTTP, '--state', 'memory', '--lease-ms', '2000'], { MCP_NODE_ID: 'n-1' }).state).toEqual({
      store: 'memory',
      url: undefined,
      secret: undefined,
      nodeId: 'n-1',
      prefix: undefined,
      leaseMs: 2000,
    });
    expect(
      readConfig([...HTTP, '--state', 'postgres'], { DATABASE_URL: 'postgres://db/todo', MCP_STATE_SECRET: SECRET })
        .state,
    ).toMatchObject({ store: 'postgres', url: 'postgres://db/todo', secret: SECRET });
    expect(
      readConfig([...HTTP, '--state', 'redis'], {
        REDIS_URL: 'redis://127.0.0.1:6379',
        MCP_STATE_SECRET: SECRET,
        MCP_STATE_PREFIX: 'todo_',
      }).state,
    ).toMatchObject({ store: 'redis', url: 'redis://127.0.0.1:6379', prefix: 'todo_' });
  });

  it('refuse a shared store without --http, its URL or the secret, naming what is missing', () => {
    const both = { DATABASE_URL: 'postgres://db/todo', REDIS_URL: 'redis://r', MCP_STATE_SECRET: SECRET };
    const refusals: Array<[string[], Record<string, string>, RegExp]> = [
      [['--state', 'postgres'], both, /--state needs --http/],
      [['--lease-ms', '2000'], both, /--lease-ms needs --http/],
      [[...HTTP, '--state', 'postgres'], { MCP_STATE_SECRET: SECRET }, /--state postgres needs DATABASE_URL/],
      [[...HTTP, '--state', 'redis'], { MCP_STATE_SECRET: SECRET }, /--state redis needs REDIS_URL/],
      [[...HTTP, '--state', 'redis'], { REDIS_URL: 'redis://r' }, /--state redis needs MCP_STATE_SECRET/],
      [[...HTTP, '--state', 'postgres'], { ...both, MCP_STATE_SECRET: 'short' }, /MCP_STATE_SECRET needs 16\+/],
      [[...HTTP, '--state', 'postgres'], { ...both, MCP_NODE_ID: 'a b' }, /MCP_NODE_ID needs/],
      [[...HTTP, '--state', 'redis'], { ...both, MCP_STATE_PREFIX: 'Bad-Prefix' }, /MCP_STATE_PREFIX needs/],
      [[...HTTP, '--state', 'mongo'], both, /--state needs memory, postgres or redis, got "mongo"/],
      [[...HTTP, '--lease-ms', '10'], both, /--lease-ms needs a whole number/],
      [[...HTTP, '--state'], both, /--state needs a value/],
    ];
    for (const [argv, env, message] of refusals) expect(() => readConfig(argv, env), argv.join(' ')).toThrow(message);
  });

  it('make the server exit 2 with the problem and the usage before opening anything', async () => {
    const child = spawn(process.execPath, [TODO_SERVER, ...HTTP, '--state', 'redis'], {
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, REDIS_URL: 'redis://127.0.0.1:1', MCP_STATE_SECRET: '' },
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const code = await within(new Promise((resolve) => child.once('exit', resolve)), { what: 'the server to exit' });
    expect(code).toBe(2);
    expect(stderr).toMatch(/^todo-server: --state redis needs MCP_STATE_SECRET .*\nusage: /);
  });

  it('name the node and its state in the listening line', async () => {
    const temp = tempDir();
    try {
      const server = await startTodoHttp(
        ['--db', path.join(temp.dir, 'tasks.db'), ...HTTP, '--state', 'memory', '--lease-ms', '2000'],
        { ...process.env, MCP_NODE_ID: 'todo-7', MCP_STATE_SECRET: SECRET },
      );
      expect(JSON.parse(server.stderr.find((line) => line.includes('"listening"'))!)).toMatchObject({
        state: 'memory',
        node: 'todo-7',
      });
      server.child.kill('SIGTERM');
      const code = await within(server.exited, { what: 'the server to stop' });
      expect(code, `${server.child.signalCode} ${server.stderr.join('\n')}`).toBe(0);
    } finally {
      temp.remove();
    }
  });

  /** The modules a todo server loaded (run with `args`, `env`), once it listened and stopped on SIGTERM. */
  async function loaded(args: string[], env: NodeJS.ProcessEnv): Promise<string> {
    const temp = tempDir();
    try {
      const trace = path.join(temp.dir, 'modules.txt');
      const server = await startTodoHttp(['--db', path.join(temp.dir, 'tasks.db'), ...HTTP, ...args], {
        ...process.env,
        ...env,
        NODE_OPTIONS: `--import=${RECORDER}`,
        MCPWIRE_RECORD_LOADS: trace,
      });
      server.child.kill('SIGTERM');
      const code = await within(server.exited, { what: 'the server to stop' });
      expect(code, `${server.child.signalCode} ${server.stderr.join('\n')}`).toBe(0);
      return readFileSync(trace, 'utf8');
    } finally {
      temp.remove();
    }
  }

  it('load no store module with the state in memory', async () => {
    const modules = await loaded([], {});
    expect(modules).toContain('/dist/server/index.js');
    expect(modules).not.toMatch(/\/dist\/server\/(postgres|redis)\/|\/node_modules\/(pg|ioredis)\//);
  });

  it.skipIf(skipWithoutRedis())(
    'load the Redis module and driver only with --state redis, and stop cleanly',
    async () => {
      const redis = await startRedis();
      onTestFinished(() => redis.stop());
      const modules = await loaded(['--state', 'redis'], {
        REDIS_URL: redis.url,
        MCP_STATE_SECRET: SECRET,
        DATABASE_URL: '',
      });
      expect(modules).toMatch(/\/dist\/server\/redis\/index\.js/);
      expect(modules).toMatch(/\/node_modules\/ioredis\//);
      expect(modules).not.toMatch(/\/dist\/server\/postgres\/|\/node_modules\/pg\//);
    },
  );
});
