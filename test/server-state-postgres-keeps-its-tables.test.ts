/**
 * What the PostgreSQL state does beyond the seams' contract, on a real cluster the test starts:
 * `migrate()` is idempotent and safe when several nodes run it at once; expired and trimmed rows
 * are really deleted (tasks past their TTL, idle sessions, unused SSE streams with their events,
 * old DPoP proofs, events beyond a stream's bound); a DPoP proof given to two nodes at once is
 * recorded by exactly one; a change too large for a notification crosses through a row, in
 * order; the change bus tells its subscribers to resync after its connection is
 * killed, or after it went silent without a reset (a TCP proxy that freezes it); with the database
 * down every seam fails fast with an error naming the store, and service (the bus included)
 * resumes when it is back; `close()` finishes followers and leaves no connection or timer, and
 * leaves a caller's pool open; bad options are refused, naming the option.
 */
import { createRequire } from 'node:module';
import net from 'node:net';
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { postgresState, type PostgresState, type PostgresStateOptions } from '../src/server/postgres/index.js';
import type { Change } from '../src/server/state/change-bus.js';
import { eventId, newStreamId } from '../src/server/state/event-log.js';
import { skipWithoutPostgres, startPostgres, type PostgresCluster } from './support/postgres-cluster.js';
import { until, within } from './support/wait.js';
import { sessionRecord } from './support/session-records.js';

// `pg` has no type declarations here: the test's own inspection pool, typed as used.
const require = createRequire(import.meta.url);
const pg = require('pg') as { Pool: new (options: object) => InspectPool };
interface InspectPool {
  on(event: 'error', listener: () => void): void;
  query(text: string, values?: unknown[]): Promise<{ rows: Array<Record<string, unknown>> }>;
  end(): Promise<void>;
}

const T0 = 1_700_000_000_000;
const ALICE = JSON.stringify(['client', 'alice']);

describe.skipIf(skipWithoutPostgres())('the PostgreSQL state', () => {
  let cluster: PostgresCluster;
  let inspect: InspectPool;
  beforeAll(async () => {
    cluster = await startPostgres();
    inspect = new pg.Pool({ connectionString: cluster.url, max: 1 });
    inspect.on('error', () => undefined); // its idle connection is killed by terminateBackends() too
  }, 120_000);
  afterAll(async () => {
    await inspect?.end();
    await cluster?.stop();
  });

  /** A fresh prefix (fresh tables) per test. */
  const prefix = (): string => `t${randomBytes(4).toString('hex')}_`;

  function state(tablePrefix: string, options: Partial<PostgresStateOptions> = {}): PostgresState {
    const made = postgresState({
      connectionString: cluster.url,
      tablePrefix,
      maxConnections: 3,
      logger: () => undefined,
      ...options,
    });
    onTestFinished(() => made.close());
    return made;
  }

  async function count(table: string): Promise<number> {
    return Number((await inspect.query(`SELECT count(*) AS n FROM "${table}"`)).rows[0]!.n);
  }

  it('makes its tables once, however often and however many nodes run migrate at once', async () => {
    const p = prefix();
    const nodes = [state(p), state(p), state(p), state(p)];
    await Promise.all(nodes.flatMap((node) => [node.migrate(), node.migrate()]));
    await nodes[0]!.migrate();
    const { rows } = await inspect.query(
      `SELECT table_name FROM information_schema.tables WHERE table_name LIKE $1 ORDER BY table_name`,
      [`${p}%`],
    );
    expect(rows.map((row) => row.table_name)).toEqual(
      ['bus_message', 'event', 'replay', 'session', 'stream', 'task'].map((t) => p + t),
    );
  });

  it('makes its tables on first use unless told not to; then a call says what failed', async () => {
    const p = prefix();
    const lazy = state(p);
    await lazy.sessions.touch('nobody', T0);
    expect(await count(`${p}session`)).toBe(0);
    const manual = state(prefix(), { autoMigrate: false });
    await expect(manual.tasks.get(randomUUID(), ALICE, T0)).rejects.toMatchObject({
      code: 'TRANSPORT',
      message: expect.stringMatching(/^PostgreSQL state \(task store\): relation .* does not exist/),
    });
  });

  it('deletes tasks past their TTL, idle sessions, unused streams with their events, and expired DPoP proofs', async () => {
    const p = prefix();
    const s = state(p, { sessionIdleMs: 1_000, eventTtlMs: 1_000, sweepEveryMs: 1_000 });
    // The replay cache goes by the clock: proofs already expired, swept by the next node's first call.
    const [proofs, sweeper] = [state(p), state(p)];
    for (let i = 0; i < 3; i++)
      await s.tasks.create(
        { taskId: randomUUID(), principal: ALICE, owner: 'n', ttlMs: 1_000, pollIntervalMs: 500, leaseMs: 1_000 },
        T0,
      );
    const session = () => sessionRecord({ owner: 'n', principal: ALICE });
    for (let i = 0; i < 3; i++) await s.sessions.create(session(), T0);
    for (let i = 0; i < 3; i++) {
      const id = newStreamId('n');
      await s.events.open(id, `session-${i}`, 'n', T0);
      await s.events.append(id, { seq: 1, data: '{}' }, T0);
    }
    for (let i = 0; i < 3; i++) expect(await proofs.replayCache.seen(`proof-${i}`, Date.now() - 1)).toBe(false);
    expect([await count(`${p}task`), await count(`${p}session`), await count(`${p}stream`)]).toEqual([3, 3, 3]);
    expect([await count(`${p}event`), await count(`${p}replay`)]).toEqual([3, 3]);
    // Later, making one of each sweeps the expired ones: only the new ones are left.
    const later = T0 + 1_000;
    await s.tasks.create(
      { taskId: randomUUID(), principal: ALICE, owner: 'n', ttlMs: 1_000, pollIntervalMs: 500, leaseMs: 1_000 },
      later,
    );
    await s.sessions.create(session(), later);
    await s.events.open(newStreamId('n'), 'session-new', 'n', later);
    expect(await sweeper.replayCache.seen('proof-new', Date.now() + 60_000)).toBe(false);
    expect([await count(`${p}task`), await count(`${p}session`), await count(`${p}stream`)]).toEqual([1, 1, 1]);
    expect([await count(`${p}event`), await count(`${p}replay`)]).toEqual([0, 1]);
  });

  it('keeps at most the bound of events and bytes per stream, and of streams per session', async () => {
    const p = prefix();
    const s = state(p, { maxEventsPerStream: 5, maxEventBytesPerStream: 1_000, maxStreamsPerSession: 2 });
    const id = newStreamId('n');
    await s.events.open(id, 's', 'n', T0);
    for (let seq = 1; seq <= 20; seq++) await s.events.append(id, { seq, data: `{"n":${seq}}` }, T0);
    expect(await count(`${p}event`)).toBe(5);
    // Each event of 400 characters counts 464 bytes: two fit in 1000.
    for (let seq = 21; seq <= 24; seq++) await s.events.append(id, { seq, data: 'x'.repeat(400) }, T0);
    const { rows } = await inspect.query(`SELECT seq FROM "${p}event" ORDER BY seq`);
    expect(rows.map((row) => Number(row.seq))).toEqual([23, 24]);
    expect(await s.events.after(eventId(id, 22), 's', T0)).toMatchObject({ events: [{ id: eventId(id, 23) }, {}] });
    expect(await s.events.after(eventId(id, 21), 's', T0)).toBeUndefined();
    const ended = newStreamId('n');
    await s.events.open(ended, 's', 'n', T0);
    await s.events.end(ended, T0);
    await s.events.open(newStreamId('n'), 's', 'n', T0);
    const streams = await inspect.query(`SELECT stream_id FROM "${p}stream" ORDER BY opened_at`);
    expect(streams.rows).toHaveLength(2);
    expect(streams.rows.map((row) => row.stream_id)).not.toContain(ended);
  });

  it('records a DPoP proof on exactly one of two nodes given it at once', async () => {
    const p = prefix();
    const [a, b] = [state(p), state(p)];
    await Promise.all([a.migrate(), b.migrate()]);
    for (let i = 0; i < 20; i++) {
      const key = `jkt.${randomUUID()}`;
      const answers = await Promise.all([
        a.replayCache.seen(key, Date.now() + 60_000),
        b.replayCache.seen(key, Date.now() + 60_000),
      ]);
      expect(answers.sort()).toEqual([false, true]);
    }
  });

  it('carries a change too large for a notification through a row, in order with the others', async () => {
    const p = prefix();
    const [a, b] = [state(p), state(p)];
    const heard: Change[] = [];
    await b.bus.subscribe({ change: (change) => heard.push(change), resync: () => undefined });
    const answer = JSON.stringify({ jsonrpc: '2.0', id: 's.node-a.1', result: { text: 'x'.repeat(20_000) } });
    const changes: Change[] = [
      { type: 'list_changed', list: 'tools' },
      { type: 'session_message', sessionId: 's1', from: 'node-b', node: 'node-a', message: answer },
      { type: 'resource_updated', uri: 'test://after' },
    ];
    for (const change of changes) await a.bus.publish(change);
    await until(() => expect(heard).toEqual(changes), { what: 'node b to hear the three changes in order' });
    expect(await count(`${p}bus_message`)).toBe(1);
  });

  it('tells bus subscribers to resync after its connection is killed, and delivers again', async () => {
    const p = prefix();
    const a = state(p);
    const b = state(p);
    const heard = await listenTo(b);
    expect(await cluster.terminateBackends()).toBeGreaterThan(0);
    await until(() => heard.resyncs >= 1, { what: 'the resync after pg_terminate_backend' });
    await publishUntilHeard(
      a,
      { type: 'resource_updated', uri: 'test://after' },
      heard.changes,
      'after the reconnection',
    );
    expect(heard.changes[0]).toEqual({ type: 'resource_updated', uri: 'test://after' });
  });

  it('replaces a listening connection that went silent (no reset), and tells subscribers to resync', async () => {
    const proxy = await freezableProxy(cluster.port);
    const p = prefix();
    const url = cluster.url.replace(`:${cluster.port}/`, `:${proxy.port}/`);
    const b = postgresState({ connectionString: url, tablePrefix: p, listenCheckMs: 300, logger: () => undefined });
    onTestFinished(async () => {
      proxy.close(); // the frozen connections end, so the pool can end
      await b.close();
    });
    const a = state(p);
    const heard = await listenTo(b);
    proxy.freeze(); // every connection open now stops carrying bytes, both ways, and stays open
    await until(() => heard.resyncs >= 1, { what: 'the resync after the silent connection was replaced' });
    await publishUntilHeard(a, { type: 'list_changed', list: 'prompts' }, heard.changes, 'on the new connection');
  });

  it('fails fast, naming the store, while the database is down, and serves again once it is back', async () => {
    const p = prefix();
    const s = state(p, { connectTimeoutMs: 2_000 });
    let resyncs = 0;
    await s.bus.subscribe({ change: () => undefined, resync: () => resyncs++ });
    const { taskId } = await s.tasks.create(
      { taskId: randomUUID(), principal: ALICE, owner: 'n', ttlMs: 600_000, pollIntervalMs: 500, leaseMs: 600_000 },
      Date.now(),
    );
    await cluster.down();
    try {
      const now = Date.now();
      const failures: Array<[Promise<unknown>, string]> = [
        [s.tasks.get(taskId, ALICE, now), 'task store'],
        [s.tasks.cancel(taskId, now), 'task store'],
        [s.sessions.get(randomUUID(), ALICE, now), 'session store'],
        [s.events.after(eventId(newStreamId('n'), 1), 's', now), 'event log'],
        [s.bus.publish({ type: 'list_changed', list: 'tools' }), 'change bus'],
        [s.replayCache.seen('proof', now + 60_000), 'DPoP replay cache'],
      ];
      for (const [failure, store] of failures)
        await expect(within(failure, { what: `the ${store} to fail`, timeoutMs: 15_000 })).rejects.toMatchObject({
          code: 'TRANSPORT',
          message: expect.stringContaining(`PostgreSQL state (${store}): `),
        });
    } finally {
      await cluster.up();
    }
    await until(async () => expect((await s.tasks.get(taskId, ALICE, Date.now()))?.status).toBe('working'), {
      what: 'the task store to serve again',
      timeoutMs: 20_000,
    });
    await until(() => resyncs >= 1, { what: 'the bus to resync once back', timeoutMs: 20_000 });
  });

  it('finishes its followers and leaves no connection or timer after close()', async () => {
    const appConnections = async (): Promise<number> =>
      Number(
        (await inspect.query(`SELECT count(*) AS n FROM pg_stat_activity WHERE application_name = 'mcpwire'`)).rows[0]!
          .n,
      );
    const timers = (): number => process.getActiveResourcesInfo().filter((what) => what === 'Timeout').length;
    const before = await appConnections();
    const timersBefore = timers();
    const s = postgresState({ connectionString: cluster.url, tablePrefix: prefix(), logger: () => undefined });
    await s.bus.subscribe({ change: () => undefined, resync: () => undefined });
    const id = newStreamId('n');
    await s.events.open(id, 's', 'n', T0);
    await s.events.append(id, { seq: 1, data: '{}' }, T0);
    const following = await s.events.follow(eventId(id, 1), 's', T0, new AbortController().signal);
    const next = following![Symbol.asyncIterator]().next();
    expect(await appConnections()).toBeGreaterThan(before);
    await s.close();
    await s.close();
    expect(await within(next, { what: 'the follower to finish' })).toMatchObject({ done: true });
    await until(async () => (await appConnections()) === before, { what: 'the connections to close' });
    expect(timers()).toBeLessThanOrEqual(timersBefore);
    await expect(s.sessions.touch('nobody', T0)).rejects.toMatchObject({ code: 'TRANSPORT' });
  });

  it("runs on a caller's pool, and leaves it open after close()", async () => {
    const pool = new pg.Pool({ connectionString: cluster.url, max: 3 });
    pool.on('error', () => undefined);
    onTestFinished(() => pool.end());
    const p = prefix();
    const s = postgresState({ pool: pool as unknown as PostgresStateOptions['pool'], tablePrefix: p });
    let heard = 0;
    await s.bus.subscribe({ change: () => heard++, resync: () => undefined });
    const made = await s.tasks.create(
      { taskId: randomUUID(), principal: ALICE, owner: 'n', ttlMs: 60_000, pollIntervalMs: 500, leaseMs: 60_000 },
      T0,
    );
    await s.bus.publish({ type: 'task', taskId: made.taskId });
    expect(heard).toBe(1);
    await s.close();
    expect((await pool.query(`SELECT count(*) AS n FROM "${p}task"`)).rows[0]!.n).toBe('1');
  });

  it.each([
    [{}, '"pool" and "connectionString"'],
    [{ connectionString: 'postgres://x', pool: {} }, '"pool" and "connectionString"'],
    [{ connectionString: 'postgres://x', tablePrefix: 'Bad-Prefix' }, '"tablePrefix"'],
    [{ connectionString: 'postgres://x', schema: 'a"; DROP' }, '"schema"'],
    [{ connectionString: 'postgres://x', sessionIdleMs: 0 }, '"sessionIdleMs"'],
    [{ connectionString: 'postgres://x', maxConnections: 1 }, '"maxConnections"'],
    [{ connectionString: 'postgres://x', connectionstring: 'x' }, '"connectionstring"'],
  ])('refuses the options %j, naming %s', (options, named) => {
    expect(() => postgresState(options as PostgresStateOptions)).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT', message: expect.stringContaining(named) }),
    );
  });
});

/** A TCP proxy to `port` on 127.0.0.1 whose open connections can be frozen (no bytes either way, no reset). */
/** Subscribes to the bus of `node`: the changes it hears, and how many resyncs it is told. */
async function listenTo(node: PostgresState): Promise<{ changes: Change[]; readonly resyncs: number }> {
  const heard = { changes: [] as Change[], resyncs: 0 };
  await node.bus.subscribe({ change: (change) => heard.changes.push(change), resync: () => heard.resyncs++ });
  return heard;
}

/** Publishes `change` from `node` again until `heard` holds a change (one sent while reconnecting may be lost). */
async function publishUntilHeard(node: PostgresState, change: Change, heard: Change[], when: string): Promise<void> {
  await until(
    async () => {
      await node.bus.publish(change);
      return heard.length > 0;
    },
    { what: `a change heard ${when}` },
  );
}

async function freezableProxy(port: number): Promise<{ port: number; freeze(): void; close(): void }> {
  const pairs = new Set<[net.Socket, net.Socket]>();
  const server = net.createServer((downstream) => {
    const upstream = net.connect(port, '127.0.0.1');
    const pair: [net.Socket, net.Socket] = [downstream, upstream];
    pairs.add(pair);
    const end = (): void => {
      pairs.delete(pair);
      downstream.destroy();
      upstream.destroy();
    };
    for (const socket of pair) socket.on('error', end).on('close', end);
    downstream.pipe(upstream);
    upstream.pipe(downstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    freeze() {
      for (const [downstream, upstream] of pairs) {
        downstream.unpipe(upstream);
        upstream.unpipe(downstream);
        downstream.pause();
        upstream.pause();
      }
    },
    close() {
      server.close();
      for (const pair of [...pairs]) for (const socket of pair) socket.destroy();
    },
  };
}
