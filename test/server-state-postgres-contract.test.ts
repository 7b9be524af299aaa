/**
 * The PostgreSQL state (`mcpwire/server/postgres`) keeps the contract every implementation of the
 * state seams must keep (`test/support/state-contract.ts`), on a real cluster the test starts:
 * node `a` and node `b` are two states with pools of their own on one database (fresh tables per
 * case), and the bus interruption is every backend terminated (`pg_terminate_backend`).
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe } from 'vitest';
import { postgresState, type PostgresState } from '../src/server/postgres/index.js';
import { skipWithoutPostgres, startPostgres, type PostgresCluster } from './support/postgres-cluster.js';
import { describeStateContract } from './support/state-contract.js';

describe.skipIf(skipWithoutPostgres())('PostgreSQL state', () => {
  let cluster: PostgresCluster;
  beforeAll(async () => {
    cluster = await startPostgres();
  }, 120_000);
  afterAll(() => cluster?.stop());

  describeStateContract({
    name: 'PostgreSQL',
    async open(limits) {
      const tablePrefix = `c${randomBytes(4).toString('hex')}_`;
      const node = (): PostgresState =>
        postgresState({
          connectionString: cluster.url,
          tablePrefix,
          maxConnections: 4,
          sessionIdleMs: limits.sessionIdleMs,
          maxEventsPerStream: limits.maxEventsPerStream,
          eventTtlMs: limits.eventTtlMs,
          logger: () => undefined,
        });
      const a = node();
      const b = node();
      await Promise.all([a.migrate(), b.migrate()]);
      return { a, b, close: async () => void (await Promise.all([a.close(), b.close()])) };
    },
    async interruptBus() {
      await cluster.terminateBackends();
    },
  });
});
