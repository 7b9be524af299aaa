/**
 * The in-memory state several kit servers of one test share, as scale-out tests set it up when
 * no external store is needed (each call makes a fresh set).
 */
import { MemoryChangeBus } from '../../src/server/state/memory-change-bus.js';
import type { ServerStateOptions } from '../../src/server/state/server-state.js';
import { MemoryEventLog } from '../../src/server/state/memory-event-log.js';
import { MemorySessionStore } from '../../src/server/state/memory-session-store.js';
import { MemoryTaskStore } from '../../src/server/state/memory-task-store.js';

/** A change bus, task store, session store and event log, all in memory, to hand every node. */
export function sharedMemoryState(): ServerStateOptions {
  return {
    bus: new MemoryChangeBus(),
    tasks: new MemoryTaskStore(),
    sessions: new MemorySessionStore(),
    events: new MemoryEventLog(),
  };
}
