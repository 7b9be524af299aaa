/**
 * The nodes contract (`test/support/nodes-contract.ts`, issue 20's cases 1–7) on PostgreSQL: todo
 * server nodes with `--state postgres` (their tasks in the same database) and kit nodes on
 * `mcpwire/server/postgres`, on a cluster of the test's own. The bus is cut with
 * `pg_terminate_backend`; an outage is the server stopped. Needs `npm run build`.
 */
import { describeNodesContract } from './support/nodes-contract.js';
import { skipWithoutPostgres, startPostgres } from './support/postgres-cluster.js';

describeNodesContract({
  name: 'PostgreSQL',
  skip: skipWithoutPostgres(),
  async start() {
    const cluster = await startPostgres();
    return {
      todo: () => ({ args: ['--state', 'postgres'], env: { DATABASE_URL: cluster.url } }),
      kit: () => ({ STORE: 'postgres', DATABASE_URL: cluster.url }),
      dataOutlivesOutage: false,
      cutBus: async () => void (await cluster.terminateBackends()),
      down: () => cluster.down(),
      up: () => cluster.up(),
      stop: () => cluster.stop(),
    };
  },
});
