/**
 * The behaviours every implementation of the server kit's state seams must have (change bus, task
 * store, session store, event log; `src/server/state/`), and the shared `stateSecret`'s: a
 * contract suite a test file runs against one implementation by giving a factory of a fresh
 * store set seen from two nodes. The in-memory set runs it in
 * `test/server-state-memory-contract.test.ts`; a PostgreSQL or Redis set runs the same suite with
 * its own factory (two connections to one database for the two nodes).
 *
 * Times: every seam method takes `now`, so the suite moves time by passing later values (no
 * sleeps); deliveries that cross a bus are awaited with bounded waits.
 */
import { describe, expect, it, onTestFinished } from 'vitest';
import { createHmac, randomUUID } from 'node:crypto';
import type { ChangeBus, Change } from '../../src/server/state/change-bus.js';
import {
  eventId,
  newStreamId,
  parseEventId,
  type EventLog,
  type LoggedEvent,
} from '../../src/server/state/event-log.js';
import type { SessionStore } from '../../src/server/state/session-store.js';
import type { TaskStore } from '../../src/server/state/task-store.js';
import { InputStateSigner } from '../../src/server/input/input-state.js';
import { until, within } from './wait.js';

/** One node's handles on the shared state. */
export interface StateSet {
  bus: ChangeBus;
  tasks: TaskStore;
  sessions: SessionStore;
  events: EventLog;
}

/** What the suite is given. */
export interface StateContractFactory {
  /** Names the implementation in the suite's title. */
  name: string;
  /**
   * A fresh, empty state seen from two nodes (`a` and `b` may be the same objects in one
   * process), configured with the limits below; `close` releases both.
   */
  open(limits: StateLimits): Promise<{ a: StateSet; b: StateSet; close(): Promise<void> }>;
  /**
   * Makes the bus of node `b` lose its connection and come back (its subscribers must be told to
   * resync). Omitted where a bus cannot lose messages: that case is then not run.
   */
  interruptBus?: (b: StateSet) => Promise<void>;
}

/** The limits the suite needs the set to be configured with. */
export interface StateLimits {
  /** Sessions unseen this long are gone. */
  sessionIdleMs: number;
  /** Events kept per stream (the older trimmed). */
  maxEventsPerStream: number;
  /** Streams unused this long are gone. */
  eventTtlMs: number;
}

const LIMITS: StateLimits = { sessionIdleMs: 60_000, maxEventsPerStream: 8, eventTtlMs: 120_000 };
const T0 = 1_700_000_000_000;
const ALICE = JSON.stringify(['client', 'alice']);
const BOB = JSON.stringify(['client', 'bob']);

/** Runs the contract suite against the implementation `factory` makes. */
export function describeStateContract(factory: StateContractFactory): void {
  async function open(): Promise<{ a: StateSet; b: StateSet }> {
    const state = await factory.open(LIMITS);
    onTestFinished(() => state.close());
    return state;
  }

  describe(`state seams contract: ${factory.name}`, () => {
    describe('event log', () => {
      async function stream(log: EventLog, sessionId: string, count: number): Promise<string> {
        const id = newStreamId('node-a');
        await log.open(id, sessionId, 'node-a', T0);
        for (let seq = 1; seq <= count; seq++) await log.append(id, { seq, data: `{"n":${seq}}` }, T0 + seq);
        return id;
      }

      /** Reads `count` events from an iterable, bounded. */
      async function take(iterator: AsyncIterator<LoggedEvent>, count: number): Promise<LoggedEvent[]> {
        const out: LoggedEvent[] = [];
        while (out.length < count) {
          const next = await within(iterator.next(), { what: `event ${out.length + 1} of ${count}` });
          if (next.done) break;
          out.push(next.value);
        }
        return out;
      }

      function abortOnFinish(): AbortSignal {
        const controller = new AbortController();
        onTestFinished(() => controller.abort());
        return controller.signal;
      }

      it('follows a stream from another node: the events after the id, then live ones, finishing at its end', async () => {
        const { a, b } = await open();
        const id = await stream(a.events, 's1', 3);
        const events = await b.events.follow(eventId(id, 1), 's1', T0 + 10, abortOnFinish());
        expect(events).toBeDefined();
        const iterator = events![Symbol.asyncIterator]();
        expect((await take(iterator, 2)).map((e) => [e.id, e.data])).toEqual([
          [eventId(id, 2), '{"n":2}'],
          [eventId(id, 3), '{"n":3}'],
        ]);
        const next = iterator.next();
        await a.events.append(id, { seq: 4, data: '{"n":4}' }, T0 + 11);
        expect((await within(next, { what: 'the live event' })).value).toMatchObject({ id: eventId(id, 4) });
        const last = iterator.next();
        await a.events.end(id, T0 + 12);
        expect(await within(last, { what: 'the end of the stream' })).toMatchObject({ done: true });
      });

      it('reads the events after an id from another node, and whether the stream ended', async () => {
        const { a, b } = await open();
        const id = await stream(a.events, 's1', 3);
        expect(await b.events.after(eventId(id, 1), 's1', T0 + 10)).toEqual({
          events: [
            { id: eventId(id, 2), data: '{"n":2}' },
            { id: eventId(id, 3), data: '{"n":3}' },
          ],
          ended: false,
        });
        expect(await b.events.after(eventId(id, 3), 's1', T0 + 10)).toEqual({ events: [], ended: false });
        await a.events.end(id, T0 + 11);
        expect(await b.events.after(eventId(id, 2), 's1', T0 + 12)).toEqual({
          events: [{ id: eventId(id, 3), data: '{"n":3}' }],
          ended: true,
        });
      });

      it('keeps the retry of a priming event and replays an ended stream, then finishes', async () => {
        const { a, b } = await open();
        const id = newStreamId('node-a');
        await a.events.open(id, 's1', 'node-a', T0);
        await a.events.append(id, { seq: 1, data: '', retryMs: 500 }, T0);
        await a.events.append(id, { seq: 2, data: '{"answer":true}' }, T0);
        await a.events.end(id, T0);
        const events = await b.events.follow(eventId(id, 1), 's1', T0, abortOnFinish());
        const iterator = events![Symbol.asyncIterator]();
        expect(await take(iterator, 5)).toEqual([{ id: eventId(id, 2), data: '{"answer":true}' }]);
        const again = await b.events.follow(`${id}.0`, 's1', T0, abortOnFinish());
        expect((await take(again![Symbol.asyncIterator](), 5))[0]).toEqual({
          id: eventId(id, 1),
          data: '',
          retryMs: 500,
        });
        await expect(a.events.append(id, { seq: 3, data: '{}' }, T0)).rejects.toMatchObject({ code: 'INVALID_STATE' });
      });

      it('stops following when the signal aborts', async () => {
        const { a, b } = await open();
        const id = await stream(a.events, 's1', 1);
        const controller = new AbortController();
        const events = await b.events.follow(eventId(id, 1), 's1', T0, controller.signal);
        const next = events![Symbol.asyncIterator]().next();
        controller.abort();
        expect(await within(next, { what: 'the follower to stop' })).toMatchObject({ done: true });
      });

      it('reads and replays nothing for a malformed, forged, foreign, trimmed, dropped or expired Last-Event-ID', async () => {
        const { a, b } = await open();
        const id = await stream(a.events, 's1', LIMITS.maxEventsPerStream + 3);
        const signal = abortOnFinish();
        // Both reads refuse alike: `after` answers undefined exactly when `follow` does.
        const follow = async (lastEventId: string, sessionId = 's1', now = T0 + 100) => {
          const read = await b.events.after(lastEventId, sessionId, now);
          const followed = await b.events.follow(lastEventId, sessionId, now, signal);
          expect(read === undefined).toBe(followed === undefined);
          return followed;
        };
        expect(await follow('not an id')).toBeUndefined();
        expect(await follow('')).toBeUndefined();
        expect(await follow(eventId(newStreamId('node-a'), 1))).toBeUndefined(); // a stream that never was
        expect(await follow(eventId(id, LIMITS.maxEventsPerStream + 4))).toBeUndefined(); // a seq not yet written
        expect(await follow(eventId(id, 2), 's2')).toBeUndefined(); // another session's stream
        expect(await follow(eventId(id, 1))).toBeUndefined(); // trimmed: events 2 and 3 are gone
        // The oldest position still complete: everything kept follows.
        const kept = await follow(eventId(id, 3));
        expect(kept).toBeDefined();
        const events = await take(kept![Symbol.asyncIterator](), LIMITS.maxEventsPerStream);
        expect(events.map((e) => parseEventId(e.id)!.seq)).toEqual(
          Array.from({ length: LIMITS.maxEventsPerStream }, (_, i) => i + 4),
        );
        // Unused past its TTL, the stream is gone.
        expect(
          await follow(eventId(id, 5), 's1', T0 + LIMITS.maxEventsPerStream + 3 + LIMITS.eventTtlMs),
        ).toBeUndefined();
        const other = await stream(a.events, 's3', 2);
        await a.events.dropSession('s3');
        expect(await follow(eventId(other, 1), 's3')).toBeUndefined();
      });

      it("orphans a stream whose owner's lease ran out: after names its requests; renewal by the owner keeps it", async () => {
        const { a, b } = await open();
        const lease = (until: number) => ({ leaseUntil: until, requestIds: [7, 'x'] });
        const kept = newStreamId('node-a');
        const lost = newStreamId('node-a');
        const plain = newStreamId('node-a');
        const done = newStreamId('node-a');
        await a.events.open(kept, 's1', 'node-a', T0, lease(T0 + 1_000));
        await a.events.open(lost, 's1', 'node-a', T0, lease(T0 + 1_000));
        await a.events.open(plain, 's1', 'node-a', T0);
        await a.events.open(done, 's1', 'node-a', T0, lease(T0 + 1_000));
        for (const id of [kept, lost, plain, done]) await a.events.append(id, { seq: 1, data: '{}' }, T0);
        await a.events.end(done, T0 + 1);
        await a.events.renew('node-a', [kept, plain, done], T0 + 5_000, T0 + 500);
        await b.events.renew('node-b', [lost], T0 + 5_000, T0 + 500); // not its owner
        expect(await b.events.after(eventId(kept, 0), 's1', T0 + 2_000)).toEqual({
          events: [{ id: eventId(kept, 1), data: '{}' }],
          ended: false,
        });
        expect(await b.events.after(eventId(lost, 1), 's1', T0 + 2_000)).toEqual({
          events: [],
          ended: false,
          orphaned: [7, 'x'],
        });
        expect(await b.events.after(eventId(plain, 1), 's1', T0 + 10_000)).toEqual({ events: [], ended: false });
        expect(await b.events.after(eventId(done, 0), 's1', T0 + 10_000)).toMatchObject({ ended: true });
        expect(await b.events.after(eventId(kept, 1), 's1', T0 + 5_000)).toMatchObject({ orphaned: [7, 'x'] });
        // Orphaned stays orphaned: a late renewal does not revive it.
        await a.events.renew('node-a', [lost], T0 + 60_000, T0 + 2_001);
        expect(await b.events.after(eventId(lost, 1), 's1', T0 + 2_002)).toMatchObject({ orphaned: [7, 'x'] });
      });

      it("finishes a follower once the stream's lease runs out unrenewed (on the log's clock)", async () => {
        const { a, b } = await open();
        const id = newStreamId('node-a');
        const now = Date.now();
        await a.events.open(id, 's1', 'node-a', now, { leaseUntil: now + 200, requestIds: [1] });
        await a.events.append(id, { seq: 1, data: '{}' }, now);
        const events = await b.events.follow(eventId(id, 0), 's1', now, abortOnFinish());
        const iterator = events![Symbol.asyncIterator]();
        expect(await take(iterator, 1)).toEqual([{ id: eventId(id, 1), data: '{}' }]);
        expect(await within(iterator.next(), { what: 'the follower to finish after the lease' })).toMatchObject({
          done: true,
        });
        expect((await b.events.after(eventId(id, 1), 's1', Date.now()))?.orphaned).toEqual([1]);
      });

      it('makes ids that never collide across nodes and parse back', () => {
        const ids = new Set(Array.from({ length: 100 }, () => newStreamId('node-a')));
        ids.add(newStreamId('node-b'));
        expect(ids.size).toBe(101);
        const id = newStreamId('node-a');
        expect(parseEventId(eventId(id, 42))).toEqual({ streamId: id, seq: 42 });
        expect(id.startsWith('node-a.')).toBe(true);
      });
    });

    describe('task store', () => {
      const task = (overrides: Partial<Parameters<TaskStore['create']>[0]> = {}) => ({
        taskId: randomUUID(),
        principal: ALICE,
        owner: 'node-a',
        ttlMs: 60_000,
        pollIntervalMs: 500,
        leaseMs: 10_000,
        ...overrides,
      });

      it('stores a task before create resolves: another node finds it at once, another principal does not', async () => {
        const { a, b } = await open();
        const made = await a.tasks.create(task(), T0);
        const seen = await b.tasks.get(made.taskId, ALICE, T0);
        expect(seen).toMatchObject({
          taskId: made.taskId,
          status: 'working',
          createdAt: T0,
          lastUpdatedAt: T0,
          ttlMs: 60_000,
          pollIntervalMs: 500,
          expiresAt: T0 + 60_000,
          principal: ALICE,
          owner: 'node-a',
          leaseUntil: T0 + 10_000,
          cancelRequested: false,
        });
        expect(await b.tasks.get(made.taskId, BOB, T0)).toBeUndefined();
        expect(await b.tasks.get(made.taskId, undefined, T0)).toBeUndefined();
        expect(await b.tasks.get(randomUUID(), ALICE, T0)).toBeUndefined();
      });

      it('records input requests and takes answers from any node, working again once all are answered', async () => {
        const { a, b } = await open();
        const { taskId } = await a.tasks.create(task(), T0);
        const form = { method: 'elicitation/create', params: { message: 'name?' } };
        expect(await a.tasks.ask(taskId, 'x', form, T0 + 1)).toBe(true);
        expect(await a.tasks.ask(taskId, 'y', form, T0 + 1)).toBe(true);
        expect(await b.tasks.get(taskId, ALICE, T0 + 2)).toMatchObject({
          status: 'input_required',
          inputRequests: { x: form, y: form },
        });
        const half = await b.tasks.respond(
          taskId,
          { x: { action: 'accept' }, nope: { a: 1 }, y: 'not an object' },
          T0 + 3,
        );
        expect(half).toMatchObject({ status: 'input_required', inputResponses: { x: { action: 'accept' } } });
        expect(Object.keys(half!.inputRequests)).toEqual(['y']);
        const done = await b.tasks.respond(taskId, { y: { action: 'decline' } }, T0 + 4);
        expect(done).toMatchObject({
          status: 'working',
          inputRequests: {},
          inputResponses: { x: { action: 'accept' }, y: { action: 'decline' } },
          lastUpdatedAt: T0 + 4,
        });
      });

      it('settles once: a later outcome or a cancel leaves a terminal task as it is', async () => {
        const { a, b } = await open();
        const { taskId } = await a.tasks.create(task(), T0);
        expect(await a.tasks.settle(taskId, { status: 'completed', result: { content: [] } }, T0 + 1)).toBe(true);
        expect(await a.tasks.settle(taskId, { status: 'failed', error: { code: -32603, message: 'x' } }, T0 + 2)).toBe(
          false,
        );
        expect((await b.tasks.cancel(taskId, T0 + 3))?.status).toBe('completed');
        expect(await b.tasks.get(taskId, ALICE, T0 + 4)).toMatchObject({
          status: 'completed',
          result: { content: [] },
        });
        const failing = await a.tasks.create(task(), T0);
        await a.tasks.settle(failing.taskId, { status: 'failed', error: { code: -32603, message: 'boom' } }, T0 + 1);
        expect(await b.tasks.get(failing.taskId, ALICE, T0 + 2)).toMatchObject({
          status: 'failed',
          error: { code: -32603, message: 'boom' },
        });
        expect(await a.tasks.ask(failing.taskId, 'x', { method: 'roots/list', params: {} }, T0 + 3)).toBe(false);
      });

      it('cancels from another node: cancel requested, cancelled, input requests dropped, idempotent', async () => {
        const { a, b } = await open();
        const { taskId } = await a.tasks.create(task(), T0);
        await a.tasks.ask(taskId, 'x', { method: 'roots/list', params: {} }, T0 + 1);
        const cancelled = await b.tasks.cancel(taskId, T0 + 2);
        expect(cancelled).toMatchObject({ status: 'cancelled', cancelRequested: true, inputRequests: {} });
        expect(await a.tasks.get(taskId, ALICE, T0 + 3)).toMatchObject({ status: 'cancelled', cancelRequested: true });
        expect((await b.tasks.cancel(taskId, T0 + 4))?.status).toBe('cancelled');
        expect(await a.tasks.settle(taskId, { status: 'completed', result: {} }, T0 + 5)).toBe(false);
      });

      it("fails an unfinished task whose owner's lease ran out; renewal by the owner keeps it", async () => {
        const { a, b } = await open();
        const kept = await a.tasks.create(task(), T0);
        const lost = await a.tasks.create(task(), T0);
        await a.tasks.renew('node-a', [kept.taskId], T0 + 15_000, T0 + 5_000);
        await b.tasks.renew('node-b', [lost.taskId], T0 + 15_000, T0 + 5_000); // not its owner
        expect((await b.tasks.get(kept.taskId, ALICE, T0 + 12_000))?.status).toBe('working');
        expect(await b.tasks.get(lost.taskId, ALICE, T0 + 10_000)).toMatchObject({
          status: 'failed',
          error: { code: -32603 },
        });
        // Failed is terminal, as stored: a late renewal or outcome does not revive it.
        await a.tasks.renew('node-a', [lost.taskId], T0 + 30_000, T0 + 10_001);
        expect(await a.tasks.settle(lost.taskId, { status: 'completed', result: {} }, T0 + 10_002)).toBe(false);
        expect((await a.tasks.get(lost.taskId, ALICE, T0 + 10_003))?.status).toBe('failed');
      });

      it('forgets a task at its TTL, on every node and for every method', async () => {
        const { a, b } = await open();
        const { taskId } = await a.tasks.create(task({ ttlMs: 1_000, leaseMs: 60_000 }), T0);
        expect(await b.tasks.get(taskId, ALICE, T0 + 999)).toBeDefined();
        expect(await b.tasks.get(taskId, ALICE, T0 + 1_000)).toBeUndefined();
        expect(await b.tasks.respond(taskId, { x: {} }, T0 + 1_001)).toBeUndefined();
        expect(await b.tasks.cancel(taskId, T0 + 1_001)).toBeUndefined();
        expect(await a.tasks.settle(taskId, { status: 'completed', result: {} }, T0 + 1_001)).toBe(false);
      });
    });

    describe('session store', () => {
      const session = (overrides: { principal?: string } = { principal: ALICE }) => ({
        sessionId: randomUUID(),
        principal: overrides.principal,
        owner: 'node-a',
        revision: undefined,
        clientCapabilities: {},
        clientInfo: undefined,
        logLevel: 'info' as const,
        subscriptions: [],
      });

      it('finds a session on another node once created, for its principal only', async () => {
        const { a, b } = await open();
        const made = session();
        await a.sessions.create(made, T0);
        expect(await b.sessions.get(made.sessionId, ALICE, T0 + 1)).toEqual({ ...made, createdAt: T0, lastSeen: T0 });
        expect(await b.sessions.get(made.sessionId, BOB, T0 + 1)).toBeUndefined();
        expect(await b.sessions.get(made.sessionId, undefined, T0 + 1)).toBeUndefined();
        const open2 = session({});
        await a.sessions.create(open2, T0);
        expect(await b.sessions.get(open2.sessionId, undefined, T0 + 1)).toBeDefined();
        expect(await b.sessions.get(open2.sessionId, ALICE, T0 + 1)).toBeUndefined();
      });

      it('stores what initialize and later requests set, seen from another node', async () => {
        const { a, b } = await open();
        const made = session();
        await a.sessions.create(made, T0);
        const facts = {
          revision: '2025-11-25',
          clientCapabilities: { sampling: {} },
          clientInfo: { name: 'c', version: '1' },
          logLevel: 'debug' as const,
          subscriptions: ['test://a', 'test://b'],
        };
        expect(await a.sessions.update(made.sessionId, facts, T0 + 5)).toBe(true);
        expect(await b.sessions.get(made.sessionId, ALICE, T0 + 6)).toMatchObject({ ...facts, lastSeen: T0 + 5 });
      });

      it('forgets a session unseen for its idle time; being seen keeps it', async () => {
        const { a, b } = await open();
        const idle = session();
        const seen = session();
        await a.sessions.create(idle, T0);
        await a.sessions.create(seen, T0);
        await b.sessions.touch(seen.sessionId, T0 + LIMITS.sessionIdleMs - 1);
        expect(await b.sessions.get(idle.sessionId, ALICE, T0 + LIMITS.sessionIdleMs)).toBeUndefined();
        expect(await b.sessions.get(seen.sessionId, ALICE, T0 + LIMITS.sessionIdleMs)).toBeDefined();
      });

      it('ends a session on every node: gone, updates refused, a second end says it was not live', async () => {
        const { a, b } = await open();
        const made = session();
        await a.sessions.create(made, T0);
        expect(await b.sessions.end(made.sessionId, T0 + 1)).toBe(true);
        expect(await a.sessions.get(made.sessionId, ALICE, T0 + 2)).toBeUndefined();
        expect(await a.sessions.update(made.sessionId, { ...made }, T0 + 2)).toBe(false);
        expect(await a.sessions.end(made.sessionId, T0 + 3)).toBe(false);
      });
    });

    describe('change bus', () => {
      function listen(bus: ChangeBus): { heard: Change[]; resyncs: number[]; subscribed: Promise<() => void> } {
        const heard: Change[] = [];
        const resyncs: number[] = [];
        const subscribed = bus.subscribe({ change: (c) => heard.push(c), resync: () => resyncs.push(1) });
        onTestFinished(async () => (await subscribed)());
        return { heard, resyncs, subscribed };
      }

      it('delivers a change to subscribers on every node, the publisher included, in order', async () => {
        const { a, b } = await open();
        const onA = listen(a.bus);
        const onB = listen(b.bus);
        await Promise.all([onA.subscribed, onB.subscribed]);
        const changes: Change[] = [
          { type: 'list_changed', list: 'tools' },
          { type: 'resource_updated', uri: 'test://doc' },
          { type: 'task', taskId: 't1' },
          { type: 'session_ended', sessionId: 's1' },
          { type: 'session', sessionId: 's1' },
          {
            type: 'session_message',
            sessionId: 's1',
            from: 'node-b',
            node: 'node-a',
            message: '{"jsonrpc":"2.0","id":"s.node-a.1","result":{"action":"accept"}}',
          },
          { type: 'session_message', sessionId: 's1', from: 'node-b', message: '{"jsonrpc":"2.0","method":"x"}' },
          { type: 'session_notice', sessionId: 's1', from: 'node-a', message: '{"jsonrpc":"2.0","method":"y"}' },
        ];
        for (const change of changes) await a.bus.publish(change);
        await until(() => expect(onB.heard).toEqual(changes), { what: 'node b to hear the changes' });
        await until(() => expect(onA.heard).toEqual(changes), { what: 'node a to hear its own changes' });
      });

      it('stops delivering to a disposed subscriber', async () => {
        const { a, b } = await open();
        const gone = listen(b.bus);
        const stays = listen(b.bus);
        (await gone.subscribed)();
        await stays.subscribed;
        await a.bus.publish({ type: 'list_changed', list: 'prompts' });
        await until(() => stays.heard.length === 1, { what: 'the remaining subscriber to hear the change' });
        expect(gone.heard).toEqual([]);
      });

      it.runIf(factory.interruptBus !== undefined)(
        'tells subscribers to resync after the bus lost its connection, and delivers again',
        async () => {
          const { a, b } = await open();
          const onB = listen(b.bus);
          await onB.subscribed;
          await factory.interruptBus!(b);
          await until(() => onB.resyncs.length >= 1, { what: 'the resync' });
          await until(
            async () => {
              await a.bus.publish({ type: 'list_changed', list: 'resources' });
              return onB.heard.length >= 1;
            },
            { what: 'a change after the resync' },
          );
        },
      );
    });

    describe('requestState (shared stateSecret)', () => {
      const SECRET = 'a shared secret of the contract suite';
      const state = { target: 'tools/call:book', responses: { who: { action: 'accept' } } };

      it('is accepted by another node with the same secret, for the same target and principal', async () => {
        const token = await new InputStateSigner(SECRET, 60_000).sign(state, ALICE, T0);
        expect(await new InputStateSigner(SECRET, 60_000).verify(token, state.target, ALICE, T0 + 59_999)).toEqual(
          state,
        );
        const open3 = await new InputStateSigner(SECRET).sign(state, undefined, T0);
        expect(await new InputStateSigner(SECRET).verify(open3, state.target, undefined, T0 + 1)).toEqual(state);
      });

      it('is byte-identical to the HMAC-SHA256 tokens Node signed before (an empty secret too)', async () => {
        for (const secret of [SECRET, '']) {
          const body = Buffer.from(JSON.stringify({ ...state, principal: ALICE, exp: T0 + 60_000 }), 'utf8').toString(
            'base64url',
          );
          const before = `${body}.${createHmac('sha256', Buffer.from(secret, 'utf8')).update(body).digest('base64url')}`;
          const signer = new InputStateSigner(secret, 60_000);
          expect(await signer.sign(state, ALICE, T0)).toBe(before);
          expect(await signer.verify(before, state.target, ALICE, T0 + 1)).toEqual(state);
        }
      });

      it('is refused tampered, expired, for another principal, target or secret', async () => {
        const signer = new InputStateSigner(SECRET, 60_000);
        const token = await signer.sign(state, ALICE, T0);
        const [body, mac] = token.split('.') as [string, string];
        const forged = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Record<string, unknown>;
        forged.principal = BOB;
        const reSigned = `${Buffer.from(JSON.stringify(forged)).toString('base64url')}.${mac}`;
        const flipped = `${body.slice(0, -2)}${body.at(-2) === 'A' ? 'B' : 'A'}${body.at(-1)}.${mac}`;
        for (const bad of [reSigned, flipped, `${body}.`, body, '', 42, undefined])
          expect(await signer.verify(bad, state.target, ALICE, T0 + 1)).toBeUndefined();
        expect(await signer.verify(token, state.target, ALICE, T0 + 60_000)).toBeUndefined();
        expect(await signer.verify(token, state.target, BOB, T0 + 1)).toBeUndefined();
        expect(await signer.verify(token, state.target, undefined, T0 + 1)).toBeUndefined();
        expect(await signer.verify(token, 'tools/call:other', ALICE, T0 + 1)).toBeUndefined();
        expect(
          await new InputStateSigner('another secret of 16+').verify(token, state.target, ALICE, T0 + 1),
        ).toBeUndefined();
      });
    });
  });
}
