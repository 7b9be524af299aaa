/**
 * A scaled-out server for the nodes contract (`nodes-contract.ts`): N node processes of the todo
 * server (`--state postgres|redis`) or of `kit-node.mjs`, on one shared store, each on its own
 * loopback port, behind the round-robin proxy (a proxy `kill(i)` SIGKILLs node i). A store fixture
 * ({@link NodesStore}) says how a node reaches the store and how to break it.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchNodes, todoListeningPort, type NodeSet } from './nodes.js';
import { listenRoundRobinProxy, type RoundRobinProxy } from './round-robin-proxy.js';
import { TODO_SERVER } from './todo-server.js';

export const KIT_NODE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'kit-node.mjs');
/** The secret every node of a cluster shares. */
export const STATE_SECRET = 'the secret every node shares';

/** A running shared store, as the nodes contract uses it. */
export interface NodesStore {
  /** A todo node's arguments after `--http` (its `--state`, where its tasks live) and environment. */
  todo(): { args: string[]; env: NodeJS.ProcessEnv };
  /** A `kit-node.mjs` node's environment (`STORE`, the store's URL). */
  kit(): NodeJS.ProcessEnv;
  /** True when the todo server's tasks stay reachable while this store is down (they live elsewhere). */
  readonly dataOutlivesOutage: boolean;
  /** Cuts every node's connection to the change bus (`pg_terminate_backend`, a Redis restart). */
  cutBus(): Promise<void>;
  /** Takes the store down (connections refused) until {@link up}. */
  down(): Promise<void>;
  up(): Promise<void>;
  /** Stops it and removes what it left. */
  stop(): Promise<void>;
}

/** How a test file starts its store. */
export interface NodesStoreFixture {
  /** `postgres` or `redis`: names the suite. */
  readonly name: string;
  /** True when the store's binaries are missing outside CI (`skipWithoutPostgres`, `skipWithoutRedis`). */
  readonly skip: boolean;
  start(): Promise<NodesStore>;
}

export interface NodeCluster {
  readonly set: NodeSet;
  readonly proxy: RoundRobinProxy;
  /** Each node's endpoint (`…/mcp`), in order. */
  readonly urls: string[];
  /** The proxy's endpoint. */
  readonly url: string;
  /** Each node's id (`MCP_NODE_ID`): `<name>-<i>`. */
  readonly ids: string[];
  /** Closes the proxy and stops the nodes still running. Idempotent. */
  close(): Promise<void>;
}

let clusters = 0;

/**
 * Starts `count` nodes of `kind` on `store` behind a proxy. Each cluster has its own table or key
 * prefix, so clusters on one store do not hear each other. `args` and `env` are added to every node's.
 */
export async function launchCluster(
  kind: 'todo' | 'kit',
  count: number,
  store: NodesStore,
  extra: { name?: string; args?: string[]; env?: NodeJS.ProcessEnv } = {},
): Promise<NodeCluster> {
  const name = extra.name ?? kind;
  const prefix = `c${++clusters}_${process.pid}_`;
  const shared = { MCP_STATE_SECRET: STATE_SECRET, MCP_STATE_PREFIX: prefix, STATE_PREFIX: prefix, ...extra.env };
  const ids = Array.from({ length: count }, (_, i) => `${name}-${i}`);
  const todo = store.todo();
  const set = await launchNodes(
    count,
    kind === 'todo'
      ? {
          script: TODO_SERVER,
          args: ['--http', '127.0.0.1:0', ...todo.args, ...(extra.args ?? [])],
          env: (i) => ({ ...todo.env, ...shared, MCP_NODE_ID: ids[i] }),
          portFrom: todoListeningPort,
        }
      : { script: KIT_NODE, env: (i) => ({ ...store.kit(), ...shared, MCP_NODE_ID: ids[i] }) },
  );
  let proxy: RoundRobinProxy;
  try {
    proxy = await listenRoundRobinProxy(set.nodes.map((node, i) => ({ url: node.url, kill: () => set.sigkill(i) })));
  } catch (error) {
    await set.stop();
    throw error;
  }
  let closed: Promise<void> | undefined;
  return {
    set,
    proxy,
    urls: set.urls('/mcp'),
    url: `${proxy.url}/mcp`,
    ids,
    close: () => (closed ??= proxy.close().then(() => set.stop())),
  };
}
