/**
 * mcpwire's diagnostics channels on every runtime: where `node:diagnostics_channel` exists they are
 * Node's own (a subscriber through Node's module hears what mcpwire publishes); elsewhere a plain
 * subscriber list gives the same five events, `hasSubscribers`, `runStores` and unsubscribing.
 */
import diagnostics from 'node:diagnostics_channel';
import { expect, it } from 'vitest';
import { listTracingChannel, tracingChannel } from '../src/observe/tracing-channel.js';

it('uses Node’s channels where the runtime has them', () => {
  const name = 'mcpwire-test:shared';
  const heard: unknown[] = [];
  const listener = (event: unknown) => heard.push(event);
  diagnostics.tracingChannel(name).subscribe({ start: listener } as never);
  const channel = tracingChannel<{ n: number }>(name);
  expect(channel.hasSubscribers).toBe(true);
  channel.start.publish({ n: 1 });
  diagnostics.tracingChannel(name).unsubscribe({ start: listener } as never);
  expect(channel.hasSubscribers).toBe(false);
  expect(heard).toEqual([{ n: 1 }]);
});

it('publishes the five events to subscriber lists where there is no Node module', () => {
  const channel = listTracingChannel<{ n: number }>('mcpwire-test:list');
  expect(channel.hasSubscribers).toBe(false);
  const heard: string[] = [];
  const listeners = {
    start: (event: { n: number }, name: string | symbol) => heard.push(`${String(name)} ${event.n}`),
    asyncEnd: (event: { n: number }) => heard.push(`asyncEnd ${event.n}`),
  };
  channel.subscribe(listeners);
  expect(channel.hasSubscribers).toBe(true);
  expect(channel.end.hasSubscribers).toBe(false);
  expect(channel.start.runStores({ n: 1 }, () => 'ran')).toBe('ran');
  channel.end.publish({ n: 2 });
  channel.asyncEnd.publish({ n: 3 });
  expect(heard).toEqual(['tracing:mcpwire-test:list:start 1', 'asyncEnd 3']);
  expect(channel.unsubscribe(listeners)).toBe(true);
  expect(channel.unsubscribe(listeners)).toBe(false);
  expect(channel.hasSubscribers).toBe(false);
  channel.start.publish({ n: 4 });
  expect(heard).toHaveLength(2);
});

it('runs the send inside the stores bound to a list channel, as Node’s runStores does', () => {
  const channel = listTracingChannel<{ n: number }>('mcpwire-test:stores');
  const entered: string[] = [];
  const store = (label: string) => ({
    run<T>(value: string, fn: () => T): T {
      entered.push(`${label} ${value}`);
      return fn();
    },
  });
  const outer = store('outer');
  const inner = store('inner');
  channel.start.bindStore(inner, (event) => `n=${event.n}`);
  expect(channel.start.hasSubscribers).toBe(true);
  channel.start.bindStore(outer, (event) => `n=${event.n * 10}`);
  channel.start.subscribe(() => entered.push('published'));
  expect(channel.start.runStores({ n: 2 }, () => 'ran')).toBe('ran');
  // The store bound last is entered first; the event is published inside every store.
  expect(entered).toEqual(['outer n=20', 'inner n=2', 'published']);
  expect(channel.start.unbindStore(outer)).toBe(true);
  expect(channel.start.unbindStore(outer)).toBe(false);
  entered.length = 0;
  channel.start.runStores({ n: 3 }, () => undefined);
  expect(entered).toEqual(['inner n=3', 'published']);
});
