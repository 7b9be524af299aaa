/**
 * A stateless 2026-07-28 request touches no store (the scale-out target: shared stores cost a
 * stateless call nothing): over a real loopback listener, `server/discover`, `tools/list`, a
 * `tools/call` and both rounds of multi-round-trip input (`input_required`, then the signed
 * `requestState` back) make no call to the change bus, the task store, the session store or the
 * event log. A task-run call does use the task store (the count is not blind).
 */
import { describe, expect, it } from 'vitest';
import {
  McpServer,
  MemoryChangeBus,
  MemoryEventLog,
  MemorySessionStore,
  MemoryTaskStore,
} from '../src/server/index.js';
import type { ServerStateOptions } from '../src/server/index.js';
import { startKitHttp } from './support/kit-http.js';
import { modernRequest } from './support/kit-wire.js';
import { greetAnsweredAda, registerGreetTool } from './support/kit-tools.js';

/** `store` with every method call after `counting.on` counted in `calls`. */
function counted<T extends object>(store: T, calls: string[], name: string, counting: { on: boolean }): T {
  return new Proxy(store, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver) as unknown;
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        if (counting.on) calls.push(`${name}.${String(key)}`);
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}

describe('a stateless 2026 request', () => {
  it('touches no store; a task-run call does', async () => {
    const calls: string[] = [];
    const counting = { on: false };
    const state: ServerStateOptions = {
      bus: counted(new MemoryChangeBus(), calls, 'bus', counting),
      tasks: counted(new MemoryTaskStore(), calls, 'tasks', counting),
      sessions: counted(new MemorySessionStore(), calls, 'sessions', counting),
      events: counted(new MemoryEventLog(), calls, 'events', counting),
    };
    const server = new McpServer({ name: 'stateless', version: '1', logger: () => undefined, state });
    registerGreetTool(server, { taskSupport: 'optional' });
    const kit = await startKitHttp(server, { sessions: true });
    const asking = { elicitation: {} };
    const call = async (method: string, params: Record<string, unknown>, capabilities = asking): Promise<any> =>
      (await modernRequest(kit.url, method, params, { capabilities, headers: { accept: 'application/json' } })).json;

    counting.on = true;
    expect((await call('server/discover', {})).result).toBeDefined();
    expect((await call('tools/list', {})).result.tools).toHaveLength(1);
    const round1 = (await call('tools/call', { name: 'greet', arguments: {} })).result;
    expect(round1.resultType).toBe('input_required');
    const round2 = await call('tools/call', greetAnsweredAda(round1.requestState));
    expect(round2.result.content).toEqual([{ type: 'text', text: 'hello Ada' }]);
    expect(calls).toEqual([]);

    const withTasks = { ...asking, extensions: { 'io.modelcontextprotocol/tasks': {} } };
    expect((await call('tools/call', { name: 'greet', arguments: {} }, withTasks)).result.resultType).toBe('task');
    expect(calls).toContain('tasks.create');
  });
});
