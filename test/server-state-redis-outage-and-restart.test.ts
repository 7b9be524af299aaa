/**
 * The Redis state seams through an outage of a real `redis-server`: while it is down every
 * operation fails at once with an error naming the store and the operation (never a hang), and
 * once it is back they serve again on the same connections; the pub/sub connection comes back
 * by itself and the bus tells its subscribers to resync, so a kit's listen hears every list as
 * changed after a Redis restart and hears the other node's changes again. `redisState` refuses a
 * Redis it cannot reach, and bad options, naming them; `close()` leaves no connection behind.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { Redis } from 'ioredis';
import { McpClient } from '../src/client/mcp-client.js';
import { McpServer } from '../src/server/index.js';
import { redisState, type RedisState, type RedisStateOptions } from '../src/server/redis/index.js';
import type { Change } from '../src/server/state/change-bus.js';
import { newStreamId } from '../src/server/state/event-log.js';
import { startKitHttp } from './support/kit-http.js';
import { freePort } from './support/ports.js';
import { testRedis } from './support/redis-state.js';
import { taskRecord } from './support/task-records.js';
import { skipWithoutRedis, startRedis, type RedisServer } from './support/redis-server.js';
import { until, within } from './support/wait.js';

const SECRET = 'the secret every node shares';

describe.skipIf(skipWithoutRedis())('Redis state through an outage', () => {
  let server: RedisServer;
  beforeAll(async () => {
    server = await startRedis();
  });
  afterAll(() => server?.stop());

  async function open(options: Omit<RedisStateOptions, 'url'> = {}): Promise<RedisState> {
    const state = await redisState({ url: server.url, keyPrefix: `outage:${randomUUID()}:`, ...options });
    onTestFinished(() => state.close());
    return state;
  }

  it('fails every operation at once while Redis is down, naming the store, and serves again once it is back', async () => {
    const state = await open({ nodeId: 'node-a', commandTimeoutMs: 2_000 });
    const { bus, tasks, sessions, events } = state;
    const heard: Change[] = [];
    let resyncs = 0;
    const dispose = await bus.subscribe({ change: (c) => heard.push(c), resync: () => resyncs++ });
    onTestFinished(dispose);
    await server.down();
    try {
      const now = Date.now();
      const task = taskRecord();
      const attempts: Array<[string, () => Promise<unknown>]> = [
        ['tasks.create', () => tasks.create(task, now)],
        ['tasks.get', () => tasks.get(task.taskId, undefined, now)],
        ['sessions.get', () => sessions.get('s1', undefined, now)],
        ['events.open', () => events.open(newStreamId('node-a'), 's1', 'node-a', now)],
        ['events.after', () => events.after(`${newStreamId('node-a')}.1`, 's1', now)],
        ['bus.publish', () => bus.publish({ type: 'list_changed', list: 'tools' })],
        ['replayCache.seen', () => state.replayCache.seen('jkt.jti', now + 60_000)],
      ];
      for (const [operation, attempt] of attempts) {
        await expect(within(attempt(), { what: `${operation} to fail`, timeoutMs: 5_000 })).rejects.toMatchObject({
          code: 'TRANSPORT',
          message: expect.stringContaining(`the Redis state store at ${server.url} failed (${operation})`),
        });
      }
    } finally {
      await server.up();
    }
    const task = await until(
      async () => {
        await tasks.create(taskRecord(), Date.now());
      },
      { what: 'the task store to serve again', timeoutMs: 20_000 },
    );
    expect(task).toBeUndefined();
    await until(() => resyncs >= 1, { what: 'the bus to resync after its connection came back', timeoutMs: 20_000 });
    await bus.publish({ type: 'resource_updated', uri: 'test://after' });
    await until(() => expect(heard).toEqual([{ type: 'resource_updated', uri: 'test://after' }]), {
      what: 'a change after the outage',
    });
  });

  it("tells a kit's listen that every list changed after a Redis restart, and carries the other node's changes again", async () => {
    const keyPrefix = `restart:${randomUUID()}:`;
    const nodes = await Promise.all(
      ['node-a', 'node-b'].map(async (nodeId) => {
        const state = await redisState({ url: server.url, nodeId, keyPrefix, stateSecret: SECRET });
        onTestFinished(() => state.close());
        const kit = new McpServer({
          name: nodeId,
          version: '1',
          logger: () => undefined,
          state,
        });
        return { kit, http: await startKitHttp(kit) };
      }),
    );
    const [a, b] = nodes as [(typeof nodes)[0], (typeof nodes)[0]];
    const client = await McpClient.connect({ url: b.http.url });
    onTestFinished(() => client.close());
    await until(() => b.http.handler.openListens === 1, { what: "the client's listen on node b" });
    let changed = 0;
    client.on('toolsChanged', () => changed++);
    await server.restart();
    await until(() => changed >= 1, { what: 'toolsChanged on node b after the restart (a resync)', timeoutMs: 20_000 });
    const before = changed;
    a.kit.registerTool({ name: 'late', inputSchema: { type: 'object' }, handler: () => ({ content: [] }) });
    await until(() => changed > before, { what: "node a's new tool reaching node b's listen" });
  });

  it('owes every node a resync after a change it failed to publish, and pays it once Redis answers', async () => {
    const keyPrefix = `owed:${randomUUID()}:`;
    const a = await open({ keyPrefix, commandTimeoutMs: 300 });
    const b = await open({ keyPrefix });
    let resyncs = 0;
    const heard: Change[] = [];
    onTestFinished(await b.bus.subscribe({ change: (c) => heard.push(c), resync: () => resyncs++ }));
    const redis = testRedis(server.port);
    await redis.client('PAUSE', 1_000, 'WRITE'); // PUBLISH waits: node a's times out
    await expect(a.bus.publish({ type: 'list_changed', list: 'prompts' })).rejects.toMatchObject({
      code: 'TRANSPORT',
      message: expect.stringContaining('(bus.publish)'),
    });
    await until(() => resyncs >= 1, { what: 'the resync node a owed to reach node b' });
  });

  it("releases a follower's subscription when its signal aborts, even if never read, and when the log closes", async () => {
    const state = await open();
    const { events } = state;
    const redis = testRedis(server.port);
    const stream = newStreamId('node-a');
    await events.open(stream, 's1', 'node-a', Date.now());
    await events.append(stream, { seq: 1, data: '{}' }, Date.now());
    const subscribers = async (): Promise<number> => {
      const channels = (await redis.pubsub('CHANNELS', '*wake:*')) as string[];
      if (channels.length === 0) return 0;
      const reply = (await redis.call('PUBSUB', 'NUMSUB', ...channels)) as Array<string | number>;
      return reply.filter((_, i) => i % 2 === 1).reduce<number>((sum, n) => sum + Number(n), 0);
    };
    const aborted = new AbortController();
    expect(await events.follow(`${stream}.0`, 's1', Date.now(), aborted.signal)).toBeDefined();
    expect(await subscribers()).toBe(1);
    aborted.abort();
    await until(async () => (await subscribers()) === 0, { what: 'the aborted follower to unsubscribe' });
    expect(await events.follow(`${stream}.0`, 's1', Date.now(), new AbortController().signal)).toBeDefined();
    expect(await subscribers()).toBe(1);
    await events.close();
    await until(async () => (await subscribers()) === 0, { what: 'the closed log to unsubscribe' });
  });

  it('refuses a Redis it cannot reach, naming it, and leaves nothing open', async () => {
    const port = await freePort();
    await expect(redisState({ url: `redis://127.0.0.1:${port}`, connectTimeoutMs: 1_000 })).rejects.toMatchObject({
      code: 'TRANSPORT',
      message: expect.stringContaining(`the Redis state store at redis://127.0.0.1:${port}`),
    });
  });

  it('leaves no connection open after close()', async () => {
    const state = await redisState({ url: server.url, nodeId: 'closing-node' });
    const redis = testRedis(server.port);
    const named = async () =>
      ((await redis.client('LIST')) as string)
        .split('\n')
        .filter((line) => line.includes('name=mcpwire:closing-node:'));
    expect(await named()).toHaveLength(2);
    await state.close();
    await state.close();
    await until(async () => (await named()).length === 0, { what: 'both connections to be gone' });
  });

  it('serves on an ioredis client given, leaves it open after close(), and closes the pub/sub connection it made', async () => {
    const client = new Redis(server.url, { lazyConnect: true, connectionName: 'the-callers-client' });
    onTestFinished(() => void client.disconnect());
    const state = await redisState({ client, nodeId: 'client-node', keyPrefix: `client:${randomUUID()}:` });
    const task = await state.tasks.create(taskRecord({ owner: 'client-node' }), Date.now());
    expect((await state.tasks.get(task.taskId, undefined, Date.now()))?.status).toBe('working');
    const heard: Change[] = [];
    onTestFinished(await state.bus.subscribe({ change: (c) => heard.push(c), resync: () => undefined }));
    await state.bus.publish({ type: 'task', taskId: task.taskId });
    await until(() => heard.length === 1, { what: 'the change on the bus' });
    await state.close();
    expect(await client.ping()).toBe('PONG');
    const names = ((await client.client('LIST')) as string).split('\n').map((line) => /\bname=(\S*)/.exec(line)?.[1]);
    await until(async () => !((await client.client('LIST')) as string).includes('name=mcpwire:client-node:pubsub'), {
      what: 'the pub/sub connection to be gone',
    });
    expect(names).toContain('the-callers-client');
  });

  it.each([
    [{}, '"url" or "client"'],
    [{ url: 'http://x' }, '"url"'],
    [{ url: 'redis://x', nodeId: 'a.b' }, '"nodeId"'],
    [{ url: 'redis://x', followPollMs: 0 }, '"followPollMs"'],
    [{ url: 'redis://x', keyprefix: 'x' }, '"keyprefix"'],
  ])('refuses the options %j, naming %s', async (options, named) => {
    await expect(redisState(options as RedisStateOptions)).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: expect.stringContaining(named),
    });
  });
});
