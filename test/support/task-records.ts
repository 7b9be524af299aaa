/**
 * Task records as a server kit's task store takes them, for the state store tests.
 */
import { randomUUID } from 'node:crypto';
import type { NewTask } from '../../src/server/state/task-store.js';

/**
 * A fresh task (a new id) owned by node-a for no principal, polled every 100 ms, living 60 s
 * under a 10 s lease, unless `options` say otherwise.
 */
export function taskRecord(options: Partial<Omit<NewTask, 'taskId'>> = {}): NewTask {
  return {
    taskId: randomUUID(),
    principal: undefined,
    owner: 'node-a',
    ttlMs: 60_000,
    pollIntervalMs: 100,
    leaseMs: 10_000,
    ...options,
  };
}
