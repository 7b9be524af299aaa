/**
 * Three kit nodes in one process, each with its own `postgresState` (its own pool and LISTEN
 * connection) on one database the test starts, behind the round-robin proxy (no stickiness: each
 * request goes to the next node): mcpwire's client pinned to the legacy era and the official SDK
 * v1 client (legacy, with a session) initialize, list, call and answer an elicitation whose answer
 * lands on another node than the one that asked (it crosses the bus as NOTIFY), a log level set
 * through one node governs the others, a call's cancel reaches the node running it, and a call
 * whose stream the proxy cuts resumes on another node from the PostgreSQL event log with the rest
 * of its progress and its result, each once.
 */
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema, LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { McpServer } from '../src/server/index.js';
import { postgresState } from '../src/server/postgres/index.js';
import { connectClient } from './support/client.js';
import { startKitHttp } from './support/kit-http.js';
import { skipWithoutPostgres, startPostgres, type PostgresCluster } from './support/postgres-cluster.js';
import { startRoundRobinProxy, type RoundRobinProxy } from './support/round-robin-proxy.js';
import { until, within } from './support/wait.js';

const NAME_SCHEMA = { type: 'object', properties: { name: { type: 'string' } } } as const;

interface Nodes {
  proxy: RoundRobinProxy;
  url: string;
  /** Why each `gate` call was aborted, on any node. */
  aborted: unknown[];
  /** Lets every `steps` call waiting after its first step go on. */
  release(): void;
}

let cluster: PostgresCluster;

async function threeNodes(): Promise<Nodes> {
  const tablePrefix = `r${randomBytes(4).toString('hex')}_`;
  const aborted: unknown[] = [];
  const urls: string[] = [];
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  for (const nodeId of ['node-a', 'node-b', 'node-c']) {
    const state = postgresState({
      connectionString: cluster.url,
      tablePrefix,
      nodeId,
      stateSecret: 'the secret every node shares',
      maxConnections: 4,
      logger: () => undefined,
    });
    onTestFinished(() => state.close());
    const server = new McpServer({ name: 'scaled', version: '1', logger: () => undefined, state });
    server.registerTool({
      name: 'ask',
      inputSchema: { type: 'object' },
      handler: async (_args, context) => {
        const answer = await context.elicit({ message: 'Your name?', requestedSchema: NAME_SCHEMA });
        return { content: [{ type: 'text', text: `hello ${String(answer.content?.name)} from ${nodeId}` }] };
      },
    });
    server.registerTool({
      name: 'chatty',
      inputSchema: { type: 'object' },
      handler: (_args, context) => {
        context.log('debug', `debug from ${nodeId}`);
        return { content: [{ type: 'text', text: nodeId }] };
      },
    });
    server.registerTool({
      name: 'gate',
      inputSchema: { type: 'object' },
      handler: (_args, context) =>
        new Promise((resolve) => {
          context.progress(1);
          context.signal.addEventListener('abort', () => {
            aborted.push(context.signal.reason);
            resolve({ content: [] });
          });
        }),
    });
    server.registerTool({
      name: 'steps',
      inputSchema: { type: 'object' },
      handler: async (_args, context) => {
        context.progress(1, 3);
        await released;
        context.progress(2, 3);
        context.progress(3, 3);
        return { content: [{ type: 'text', text: `steps done on ${nodeId}` }] };
      },
    });
    const kit = await startKitHttp(server, { path: '/mcp', sessions: true });
    urls.push(kit.url.replace(/\/mcp$/, ''));
  }
  const proxy = await startRoundRobinProxy(urls);
  return { proxy, url: `${proxy.url}/mcp`, aborted, release };
}

const text = (result: object): string => (result as { content: Array<{ text: string }> }).content[0]!.text;

describe.skipIf(skipWithoutPostgres())(
  'a legacy session over three nodes on PostgreSQL behind a round-robin proxy',
  () => {
    beforeAll(async () => {
      cluster = await startPostgres();
    }, 120_000);
    afterAll(() => cluster?.stop());

    it("serves mcpwire's client: calls, an elicitation answered through another node, a cancel", async () => {
      const nodes = await threeNodes();
      const client = await connectClient(
        { url: nodes.url },
        { era: 'legacy', handlers: { elicitation: () => ({ action: 'accept', content: { name: 'Ada' } }) } },
      );
      expect(client.era).toBe('legacy');
      const answered = new Set<string>();
      for (let i = 0; i < 3; i++) {
        expect((await client.listTools()).map((t) => t.name)).toContain('ask');
        answered.add(text(await client.callTool('ask', {})));
      }
      expect([...answered].every((answer) => /^hello Ada from node-[abc]$/.test(answer))).toBe(true);
      const controller = new AbortController();
      const call = client.callTool('gate', {}, { signal: controller.signal, onProgress: () => controller.abort() });
      await expect(call).rejects.toMatchObject({ code: 'CANCELLED' });
      await until(() => nodes.aborted.length === 1, { what: 'the gate call to be aborted where it runs' });
      expect(nodes.proxy.backends.every((backend) => backend.served > 2)).toBe(true);
    });

    it('resumes a call whose stream the proxy cut on another node: the rest of its progress, then its result, each once', async () => {
      const nodes = await threeNodes();
      const client = await connectClient({ url: nodes.url }, { era: 'legacy' });
      const dropped = nodes.proxy.dropNext({ when: (body) => body.includes('notifications/progress') });
      const progress: number[] = [];
      const call = client.callTool('steps', {}, { onProgress: (p) => progress.push(p.progress) });
      const cut = await within(dropped, { what: 'the cut of the call stream' });
      nodes.proxy.sendNextTo((cut.backend + 1) % 3);
      nodes.release();
      expect(text(await call)).toBe(`steps done on node-${'abc'[cut.backend]}`);
      expect(progress).toEqual([1, 2, 3]);
      const after = nodes.proxy.log.slice(nodes.proxy.log.indexOf(cut) + 1);
      const resumed = after.find((r) => r.method === 'GET' && r.headers['last-event-id'] !== undefined);
      // The stream's end is stored after its answer: the GET ends once a follower reads it.
      await until(() => expect(resumed).toMatchObject({ status: 200, end: 'done' }), {
        what: 'the resumed GET to end',
      });
      expect(resumed!.backend).not.toBe(cut.backend);
    });

    it('serves the official SDK v1 client: initialize, initialized and calls on different nodes, an elicitation, a log level', async () => {
      const nodes = await threeNodes();
      const client = new ClientV1({ name: 'sdk-v1', version: '1.0.0' }, { capabilities: { elicitation: {} } });
      client.setRequestHandler(ElicitRequestSchema, () => ({ action: 'accept', content: { name: 'Grace' } }));
      const logged: string[] = [];
      client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
        logged.push(String(n.params.data));
      });
      await client.connect(new TransportV1(new URL(nodes.url)));
      onTestFinished(() => client.close());
      await client.setLoggingLevel('debug');
      const answers = new Set<string>();
      for (let i = 0; i < 3; i++) {
        answers.add(text(await client.callTool({ name: 'ask', arguments: {} })));
        answers.add(`ran on ${text(await client.callTool({ name: 'chatty', arguments: {} }))}`);
      }
      const hellos = [...answers].filter((answer) => answer.startsWith('hello Grace from node-'));
      expect(hellos.length).toBeGreaterThan(0);
      expect(hellos.length + [...answers].filter((answer) => answer.startsWith('ran on node-')).length).toBe(
        answers.size,
      );
      expect(logged.length).toBeGreaterThanOrEqual(3);
      expect(new Set(nodes.proxy.log.map((record) => record.backend))).toEqual(new Set([0, 1, 2]));
    });
  },
);
