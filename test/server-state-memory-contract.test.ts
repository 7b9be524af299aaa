/**
 * The in-memory state seams keep the contract every implementation must keep
 * (`test/support/state-contract.ts`): one set of stores, seen by both "nodes" of one process.
 */
import { describeStateContract } from './support/state-contract.js';
import { MemoryChangeBus } from '../src/server/state/memory-change-bus.js';
import { MemoryEventLog } from '../src/server/state/memory-event-log.js';
import { MemorySessionStore } from '../src/server/state/memory-session-store.js';
import { MemoryTaskStore } from '../src/server/state/memory-task-store.js';

describeStateContract({
  name: 'in memory',
  open(limits) {
    const set = {
      bus: new MemoryChangeBus(),
      tasks: new MemoryTaskStore(),
      sessions: new MemorySessionStore({ idleMs: limits.sessionIdleMs }),
      events: new MemoryEventLog({ maxEvents: limits.maxEventsPerStream, ttlMs: limits.eventTtlMs }),
    };
    const close = async (): Promise<void> => {
      await Promise.all([set.bus.close(), set.tasks.close(), set.sessions.close(), set.events.close()]);
    };
    return Promise.resolve({ a: set, b: set, close });
  },
  interruptBus(b) {
    (b.bus as MemoryChangeBus).resync();
    return Promise.resolve();
  },
});
