/**
 * The nodes contract (`test/support/nodes-contract.ts`, issue 20's cases 1–7) on Redis: todo
 * server nodes with `--state redis` (their tasks in one SQLite file) and kit nodes on
 * `mcpwire/server/redis`, on a `redis-server` of the test's own. The bus is cut by a Redis
 * restart (empty: nothing is persisted); an outage is the server stopped. Needs `npm run build`.
 */
import path from 'node:path';
import { describeNodesContract } from './support/nodes-contract.js';
import { skipWithoutRedis, startRedis } from './support/redis-server.js';
import { tempDir } from './support/todo-server.js';

describeNodesContract({
  name: 'Redis',
  skip: skipWithoutRedis(),
  async start() {
    const redis = await startRedis();
    const temp = tempDir();
    const db = path.join(temp.dir, 'tasks.db');
    return {
      todo: () => ({ args: ['--state', 'redis', '--db', db], env: { REDIS_URL: redis.url, DATABASE_URL: '' } }),
      kit: () => ({ STORE: 'redis', REDIS_URL: redis.url }),
      dataOutlivesOutage: true,
      cutBus: () => redis.restart(),
      down: () => redis.down(),
      up: () => redis.up(),
      stop: async () => {
        await redis.stop();
        temp.remove();
      },
    };
  },
});
