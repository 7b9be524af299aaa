/**
 * The nodes contract: what a server built on `mcpwire/server` must do on several processes
 * sharing one store (issue 20's cases 1–7), as a suite a test file runs for its store
 * (`describeNodesContract(fixture)`: `server-state-nodes-on-postgres.test.ts`,
 * `server-state-nodes-on-redis.test.ts`). One store per file; three todo server nodes
 * (`--state <store>`) and three `kit-node.mjs` nodes (tools the todo server has no reason to have:
 * an elicitation, a resource update, a tool registered at run time) on it, each set behind the
 * round-robin proxy, shared by the cases; cases that kill a node or need other settings start
 * their own. Leases are 2 s, so a dead node's streams and tasks end within seconds. Clients:
 * raw HTTP where a case needs a chosen node, and mcpwire's client, the official SDK v1 client and
 * the SDK v2 client over the proxy where a client is involved.
 */
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  CallToolResultSchema,
  ElicitRequestSchema,
  ResourceUpdatedNotificationSchema,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { connectClient } from './client.js';
import { exchange, modernRequest, sseEvents } from './kit-wire.js';
import { LegacyWire, rpc, sseMessages } from './legacy-wire.js';
import { launchCluster, type NodeCluster, type NodesStore, type NodesStoreFixture } from './node-cluster.js';
import { runCli } from './cli.js';
import { startNodes, todoListeningPort } from './nodes.js';
import { ALICE, tempDir, TODO_DIR } from './todo-server.js';
import { eventually, until, within } from './wait.js';

const LEASE_MS = 2_000;
const LOAD_BALANCER = path.join(TODO_DIR, '../load-balancer.mjs');
const TASKS = { extensions: { 'io.modelcontextprotocol/tasks': {} } };
const STOPPED = { code: -32603, message: 'the server running the request stopped' };

const titles = (n: number) => Array.from({ length: n }, (_, i) => ({ title: `task ${i + 1}` }));
const count = (text: string, what: string) => text.split(what).length - 1;
const range = (from: number, to: number) => Array.from({ length: Math.max(0, to - from + 1) }, (_, i) => from + i);

let nextModernId = 1;
/** A 2026-07-28 request to one node, answered as JSON. */
async function modern(
  url: string,
  method: string,
  params: Record<string, unknown>,
  capabilities: Record<string, unknown> = TASKS,
  token?: string,
): Promise<any> {
  const answer = await modernRequest(url, method, params, {
    id: nextModernId++,
    capabilities,
    headers: { accept: 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
  });
  return answer.json;
}

/** How many `gate` calls were aborted on each node (kit nodes). */
async function aborts(cluster: NodeCluster): Promise<number[]> {
  return Promise.all(
    cluster.urls.map(
      async (url) =>
        (await modern(url, 'tools/call', { name: 'aborts', arguments: {} })).result.structuredContent.aborts,
    ),
  );
}

/** The SDK v1 client over `url` (a legacy session), answering elicitations with `name`; closed at the test's end. */
async function sdkV1(url: string, name = 'Grace'): Promise<ClientV1> {
  const client = new ClientV1({ name: 'sdk-v1', version: '1.0.0' }, { capabilities: { elicitation: {} } });
  client.setRequestHandler(ElicitRequestSchema, () => ({ action: 'accept', content: { name } }));
  await client.connect(new TransportV1(new URL(url)));
  onTestFinished(() => client.close());
  return client;
}

/** The SDK v2 client over `url` (its default: a legacy session), answering elicitations with `name`. */
async function sdkV2(url: string, name = 'Hopper'): Promise<ClientV2> {
  const client = new ClientV2({ name: 'sdk-v2', version: '2.0.0' }, { capabilities: { elicitation: {} } });
  client.setRequestHandler('elicitation/create', () => ({ action: 'accept', content: { name } }));
  await client.connect(new TransportV2(new URL(url)));
  onTestFinished(() => client.close());
  return client;
}

/**
 * The SDK v2 client pinned to 2026-07-28 on `url`, listening to tool list changes and updates of
 * `note://a` (acknowledged before it resolves); what it hears (`tools`, the URI) comes in the array.
 */
async function listenV2(url: string): Promise<string[]> {
  const client = new ClientV2(
    { name: 'sdk-v2', version: '2.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  await client.connect(new TransportV2(new URL(url)));
  onTestFinished(() => client.close());
  const heard: string[] = [];
  client.setNotificationHandler('notifications/tools/list_changed', () => void heard.push('tools'));
  client.setNotificationHandler('notifications/resources/updated', (n) => void heard.push(n.params.uri));
  await within(client.listen({ toolsListChanged: true, resourceSubscriptions: ['note://a'] }), {
    what: `the SDK v2 listen on ${url}`,
  });
  return heard;
}

/** The backends the proxy sent session `id`'s requests to. */
const backendsOf = (cluster: NodeCluster, id: string | undefined) =>
  new Set(cluster.proxy.log.filter((r) => r.headers['mcp-session-id'] === id).map((r) => r.backend));

export function describeNodesContract(fixture: NodesStoreFixture): void {
  describe.skipIf(fixture.skip)(`three nodes on ${fixture.name}`, () => {
    let store: NodesStore;
    let todo: NodeCluster;
    let kit: NodeCluster;
    beforeAll(async () => {
      store = await fixture.start();
      [todo, kit] = await Promise.all([
        launchCluster('todo', 3, store, { args: ['--lease-ms', String(LEASE_MS), '--slow-ms', '50'] }),
        launchCluster('kit', 3, store, { env: { LEASE_MS: String(LEASE_MS), REQUEST_STATE_TTL_MS: '4000' } }),
      ]);
    }, 120_000);
    afterAll(async () => {
      await Promise.all([todo?.close(), kit?.close()]);
      await store?.stop();
    }, 60_000);

    describe('1: a legacy session', () => {
      it('works with initialize, initialized and a call each on another node', async () => {
        const [a, b, c] = todo.urls as [string, string, string];
        const session = await LegacyWire.open(a, { initializedAt: b });
        const added = await session.call(c, 'tools/call', {
          name: 'add_task',
          arguments: { user_id: ALICE, title: 'made on node 2' },
        });
        expect(added.result.structuredContent).toMatchObject({ success: true, task: { title: 'made on node 2' } });
        const listed = await session.call(a, 'tools/call', { name: 'list_tasks', arguments: { user_id: ALICE } });
        expect(listed.result.structuredContent.tasks.map((t: { title: string }) => t.title)).toContain(
          'made on node 2',
        );
      });

      it('is 404 on every node when unknown or closed, and a DELETE on one node ends its GET stream held on another', async () => {
        const [a, b, c] = todo.urls as [string, string, string];
        const session = await LegacyWire.open(a);
        const get = await session.stream(c, 'GET');
        expect(get.status).toBe(200);
        expect((await exchange(b, { method: 'DELETE', headers: session.headers() })).status).toBe(200);
        expect(await get.text.end()).toEqual({ broken: false });
        const unknown = new LegacyWire();
        unknown.id = randomUUID();
        for (const url of todo.urls) {
          expect((await session.post(url, rpc('ping'))).status).toBe(404);
          expect((await unknown.post(url, rpc('ping'))).status).toBe(404);
        }
      });

      it("serves mcpwire's client and the SDK v1 and v2 clients over the proxy, every session on all three nodes", async () => {
        const start = todo.proxy.log.length;
        const mcpwire = await connectClient({ url: todo.url }, { era: 'legacy' });
        const v1 = await sdkV1(todo.url);
        const v2 = await sdkV2(todo.url);
        const titlesSeen = async (list: () => Promise<any>) =>
          ((await list()).structuredContent.tasks as Array<{ title: string }>).map((t) => t.title);
        // Each client's i-th call goes to node i.
        for (let i = 0; i < 3; i++) {
          todo.proxy.sendNextTo(i);
          await mcpwire.callTool('add_task', { user_id: ALICE, title: `mcpwire ${i}` });
          todo.proxy.sendNextTo(i);
          await v1.callTool({ name: 'add_task', arguments: { user_id: ALICE, title: `v1 ${i}` } });
          todo.proxy.sendNextTo(i);
          await v2.callTool({ name: 'add_task', arguments: { user_id: ALICE, title: `v2 ${i}` } });
        }
        for (const list of [
          () => mcpwire.callTool('list_tasks', { user_id: ALICE }),
          () => v1.callTool({ name: 'list_tasks', arguments: { user_id: ALICE } }),
          () => v2.callTool({ name: 'list_tasks', arguments: { user_id: ALICE } }),
        ])
          expect(await titlesSeen(list)).toEqual(
            expect.arrayContaining(['mcpwire 2', 'v1 2', 'v2 2', 'mcpwire 0', 'v1 0', 'v2 0']),
          );
        const sessions = new Set(todo.proxy.log.slice(start).map((r) => r.headers['mcp-session-id'] as string));
        sessions.delete(undefined as never);
        expect(sessions.size).toBe(3);
        for (const id of sessions) expect(backendsOf(todo, id)).toEqual(new Set([0, 1, 2]));
      });
    });

    describe("the todo server README's recipe", () => {
      it('serves through examples/load-balancer.mjs: `mcpwire call import_tasks`, and a legacy session', async () => {
        const balancer = await startNodes(1, {
          script: LOAD_BALANCER,
          args: ['127.0.0.1:0', ...todo.set.nodes.map((node) => `127.0.0.1:${node.port}`)],
          portFrom: todoListeningPort,
        });
        const url = balancer.urls('/mcp')[0]!;
        const home = tempDir();
        onTestFinished(() => home.remove());
        const dirs = Object.fromEntries(
          ['HOME', 'XDG_CONFIG_HOME', 'XDG_DATA_HOME', 'XDG_STATE_HOME', 'XDG_CACHE_HOME'].map((name) => [
            name,
            home.dir,
          ]),
        );
        const user = randomUUID();
        const tasks = JSON.stringify(titles(3));
        const run = await runCli(
          ['call', 'import_tasks', '--url', url, '--arg', `user_id=${user}`, '--arg', `tasks=${tasks}`],
          { env: dirs },
        );
        expect(run.code, run.stderr).toBe(0);
        expect(JSON.parse(run.stdout)).toMatchObject({ success: true, count: 3 });
        const client = await connectClient({ url }, { era: 'legacy' });
        for (let i = 0; i < 3; i++)
          await client.callTool('add_task', { user_id: user, title: `through the balancer ${i}` });
        const listed = await client.callTool('list_tasks', { user_id: user });
        expect((listed.structuredContent as { count: number }).count).toBe(6);
      });
    });

    describe('2: import_tasks progress over a cut stream', () => {
      it("resumes on another node with Last-Event-ID: k+1…n, then the result, each once (mcpwire's client, SDK v1, SDK v2)", async () => {
        const n = 6;
        const k = 2;
        const cutAfterK = () => todo.proxy.dropNext({ when: (body) => count(body, 'notifications/progress') >= k });
        const resumedOn = async (cut: { backend: number }) => {
          todo.proxy.sendNextTo((cut.backend + 1) % 3);
          return cut;
        };
        const check = async (progress: number[], result: any, cut: { backend: number }) => {
          expect(progress).toEqual(range(1, n));
          expect(result.structuredContent.count).toBe(n);
          const after = todo.proxy.log.slice(todo.proxy.log.indexOf(cut as never) + 1);
          const resumed = after.find((r) => r.method === 'GET' && r.headers['last-event-id'] !== undefined);
          expect(resumed?.backend).toBeDefined();
          expect(resumed!.backend).not.toBe(cut.backend);
        };
        const args = { user_id: ALICE, tasks: titles(n) };

        const mcpwire = await connectClient({ url: todo.url }, { era: 'legacy' });
        let dropped = cutAfterK();
        let progress: number[] = [];
        let call: Promise<any> = mcpwire.callTool('import_tasks', args, {
          onProgress: (p) => progress.push(p.progress),
        });
        let cut = await resumedOn(await within(dropped, { what: "the cut of mcpwire's stream" }));
        await check(progress, await call, cut);

        const v1 = await sdkV1(todo.url);
        dropped = cutAfterK();
        progress = [];
        call = v1.callTool({ name: 'import_tasks', arguments: args }, CallToolResultSchema, {
          onprogress: (p) => progress.push(p.progress),
          resetTimeoutOnProgress: true,
        });
        cut = await resumedOn(await within(dropped, { what: "the cut of SDK v1's stream" }));
        await check(progress, await call, cut);

        const v2 = await sdkV2(todo.url);
        dropped = cutAfterK();
        progress = [];
        call = v2.callTool(
          { name: 'import_tasks', arguments: args },
          { onprogress: (p: { progress: number }) => progress.push(p.progress) },
        );
        cut = await resumedOn(await within(dropped, { what: "the cut of SDK v2's stream" }));
        await check(progress, await call, cut);
      });

      it('replays nothing for a forged, foreign or trimmed Last-Event-ID', async () => {
        const [a, b, c] = kit.urls as [string, string, string];
        const mine = await LegacyWire.open(a);
        const burst = await mine.post(
          a,
          rpc('tools/call', { name: 'burst', arguments: { n: 300 }, _meta: { progressToken: 'p' } }),
        );
        const ids = sseEvents(burst.text).map((event) => event.id!);
        expect(ids.length).toBeGreaterThan(300);
        const theirs = await LegacyWire.open(b);
        const streamOf = ids[0]!.slice(0, ids[0]!.lastIndexOf('.'));
        const resumes: Array<[string, LegacyWire, string]> = [
          ['malformed', mine, 'not an event id'],
          ['forged stream', mine, `${kit.ids[0]}.${randomUUID()}.3`],
          ['forged number', mine, `${streamOf}.99999`],
          ['foreign', theirs, ids.at(-2)!],
          ['trimmed', mine, ids[2]!],
        ];
        for (const [what, session, lastEventId] of resumes) {
          const get = await session.stream(c, 'GET', undefined, { 'last-event-id': lastEventId });
          expect(get.status, what).toBe(200);
          // A change after it proves the stream is the standalone one, and that nothing came before.
          // (The GET's head comes before the log was read: changes until one arrives.)
          await until(
            async () => {
              await modern(a, 'tools/call', { name: 'register', arguments: { name: `late-${randomUUID()}` } });
              return get.text.text.includes('list_changed');
            },
            { what: `list_changed on the ${what} GET` },
          );
          const methods = new Set(
            sseMessages(get.text.text.slice(0, get.text.text.lastIndexOf('\n\n'))).map((m) => m.method),
          );
          expect(methods, what).toEqual(new Set(['notifications/tools/list_changed']));
          await get.text.cancel();
        }
      });
    });

    describe('3: a legacy request on one node', () => {
      it('gets the elicitation answer and the cancel POSTed to other nodes (raw)', async () => {
        const [a, b, c] = kit.urls as [string, string, string];
        const session = await LegacyWire.open(a);
        const ask = await session.stream(a, 'POST', rpc('tools/call', { name: 'ask', arguments: {} }));
        const asked = await ask.text.until((t) => t.includes('elicitation/create'), 'the elicitation');
        const request = sseMessages(asked).find((m) => m.method === 'elicitation/create');
        expect(request.id).toMatch(new RegExp(`^s\\.${kit.ids[0]}\\.`));
        const answered = await session.post(b, {
          jsonrpc: '2.0',
          id: request.id,
          result: { action: 'accept', content: { name: 'Ada' } },
        });
        expect(answered.status).toBe(202);
        await ask.text.until((t) => t.includes(`hello Ada from ${kit.ids[0]}`), 'the answer on node 0');

        const before = (await aborts(kit))[0]!;
        const gate = rpc('tools/call', { name: 'gate', arguments: {}, _meta: { progressToken: 'g' } });
        const running = await session.stream(a, 'POST', gate);
        await running.text.until((t) => t.includes('notifications/progress'), 'the gate call running');
        const cancelled = await session.post(c, {
          jsonrpc: '2.0',
          method: 'notifications/cancelled',
          params: { requestId: gate.id, reason: 'through node 2' },
        });
        expect(cancelled.status).toBe(202);
        await until(async () => (await aborts(kit))[0] === before + 1, { what: 'the gate call aborted on node 0' });
      });

      it("gets answers and cancels from mcpwire's client and the SDK v1 and v2 clients over the proxy", async () => {
        const mcpwire = await connectClient(
          { url: kit.url },
          { era: 'legacy', handlers: { elicitation: () => ({ action: 'accept', content: { name: 'Ada' } }) } },
        );
        const v1 = await sdkV1(kit.url);
        const v2 = await sdkV2(kit.url);
        const text = (result: any): string => result.content[0].text;
        for (let i = 0; i < 3; i++) {
          expect(text(await mcpwire.callTool('ask', {}))).toMatch(/^hello Ada from kit-\d$/);
          expect(text(await v1.callTool({ name: 'ask', arguments: {} }))).toMatch(/^hello Grace from kit-\d$/);
          expect(text(await v2.callTool({ name: 'ask', arguments: {} }))).toMatch(/^hello Hopper from kit-\d$/);
        }
        const total = async () => (await aborts(kit)).reduce((x, y) => x + y, 0);
        const before = await total();
        const controller = new AbortController();
        const call = mcpwire.callTool('gate', {}, { signal: controller.signal, onProgress: () => controller.abort() });
        await expect(call).rejects.toMatchObject({ code: 'CANCELLED' });
        const v1Controller = new AbortController();
        const v1Call = v1.callTool({ name: 'gate', arguments: {} }, CallToolResultSchema, {
          signal: v1Controller.signal,
          onprogress: () => v1Controller.abort(),
        });
        await expect(v1Call).rejects.toThrow();
        await until(async () => (await total()) === before + 2, { what: 'both gate calls aborted where they ran' });
      });

      it("writes what a cancelled request still sends (its elicitation's withdrawal) to the GET stream held on another node", async () => {
        const [a, b, c] = kit.urls as [string, string, string];
        const session = await LegacyWire.open(a);
        const get = await session.stream(c, 'GET');
        expect(get.status).toBe(200);
        const call = rpc('tools/call', { name: 'ask', arguments: {} });
        const ask = await session.stream(a, 'POST', call);
        const asked = await ask.text.until((t) => t.includes('elicitation/create'), 'the elicitation');
        const elicitation = sseMessages(asked).find((m) => m.method === 'elicitation/create');
        await session.post(b, { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: call.id } });
        const heard = await get.text.until(
          (t) => sseMessages(t).some((m) => m.method === 'notifications/cancelled'),
          "the elicitation's withdrawal on node 2's GET stream",
        );
        expect(sseMessages(heard)).toEqual([
          {
            jsonrpc: '2.0',
            method: 'notifications/cancelled',
            params: expect.objectContaining({ requestId: elicitation.id }),
          },
        ]);
      });
    });

    describe('4: a change on one node', () => {
      it('reaches listens and GET streams on the others once, filtered as subscribed', async () => {
        const [a, , c] = kit.urls as [string, string, string];
        const v2Heard = await listenV2(kit.urls[1]!);
        const session = await LegacyWire.open(a, { capabilities: {} });
        await session.call(a, 'resources/subscribe', { uri: 'note://a' });
        const get = await session.stream(c, 'GET');
        const v1 = await sdkV1(kit.url);
        const v1Heard: string[] = [];
        v1.setNotificationHandler(ToolListChangedNotificationSchema, () => void v1Heard.push('tools'));
        v1.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void v1Heard.push(n.params.uri));
        await v1.subscribeResource({ uri: 'note://a' });
        const v1Session = v1.transport?.sessionId;
        await until(
          () =>
            kit.proxy.log.some(
              (r) => r.method === 'GET' && r.headers['mcp-session-id'] === v1Session && r.status === 200,
            ),
          { what: "the SDK v1 client's GET stream" },
        );

        await modern(a, 'tools/call', { name: 'register', arguments: { name: `late-${randomUUID()}` } });
        await modern(a, 'tools/call', { name: 'touch', arguments: { uri: 'note://b' } });
        await modern(a, 'tools/call', { name: 'touch', arguments: { uri: 'note://a' } });
        const both = (heard: string[]) => heard.includes('note://a') && heard.includes('tools');
        await until(() => both(v2Heard), { what: 'the update and the list_changed on the SDK v2 listen' });
        await until(() => both(v1Heard), { what: "the update and the list_changed on the SDK v1 client's GET stream" });
        const text = await get.text.until(
          (t) => t.includes('note://a') && t.includes('notifications/tools/list_changed'),
          'the update and the list_changed on the GET stream of node 2',
        );
        // Each once (a list_changed is sent a tick after its change, so the two may come either way round).
        expect([...v2Heard].sort()).toEqual(['note://a', 'tools']);
        expect([...v1Heard].sort()).toEqual(['note://a', 'tools']);
        expect(
          sseMessages(text)
            .map((m) => m.params?.uri ?? m.method)
            .sort(),
        ).toEqual(['note://a', 'notifications/tools/list_changed']);
      });
    });

    describe('5: a task', () => {
      it('made on one node is seen at once on the others, and a cancel through a second aborts it on the first', async () => {
        const [a, b, c] = kit.urls as [string, string, string];
        const before = (await aborts(kit))[0]!;
        const task = (await modern(a, 'tools/call', { name: 'gate', arguments: {} })).result;
        expect(task).toMatchObject({ resultType: 'task', status: 'working' });
        for (const url of [b, c])
          expect((await modern(url, 'tasks/get', { taskId: task.taskId })).result).toMatchObject({ status: 'working' });
        expect((await modern(b, 'tasks/cancel', { taskId: task.taskId })).result.resultType).toBe('complete');
        await until(async () => (await aborts(kit))[0] === before + 1, { what: 'the task aborted on node 0' });
        expect((await modern(c, 'tasks/get', { taskId: task.taskId })).result.status).toBe('cancelled');
      });
    });

    describe('6: a requestState', () => {
      it('minted on one node is accepted on another; a tampered or expired one is refused', async () => {
        const [a, b, c] = kit.urls as [string, string, string];
        const asking = { elicitation: {} };
        const round1 = (await modern(a, 'tools/call', { name: 'ask', arguments: {} }, asking)).result;
        expect(round1.resultType).toBe('input_required');
        const [key] = Object.keys(round1.inputRequests);
        const round2 = (requestState: string, url: string) =>
          modern(
            url,
            'tools/call',
            {
              name: 'ask',
              arguments: {},
              requestState,
              inputResponses: { [key!]: { action: 'accept', content: { name: 'Ada' } } },
            },
            asking,
          );
        expect((await round2(round1.requestState, b)).result.content).toEqual([
          { type: 'text', text: `hello Ada from ${kit.ids[1]}` },
        ]);
        const flipped = round1.requestState.at(-3) === 'A' ? 'B' : 'A';
        const tampered = `${round1.requestState.slice(0, -3)}${flipped}${round1.requestState.slice(-2)}`;
        expect((await round2(tampered, c)).error).toMatchObject({ code: -32602 });
        // The nodes accept a requestState for 4 s.
        await until(async () => expect((await round2(round1.requestState, c)).error).toMatchObject({ code: -32602 }), {
          what: 'the requestState to expire',
          timeoutMs: 20_000,
        });
      });

      it("carries mcpwire's multi-round-trip input across nodes behind the proxy", async () => {
        const client = await connectClient(
          { url: kit.url },
          { handlers: { elicitation: () => ({ action: 'accept', content: { name: 'Lin' } }) } },
        );
        expect(client.era).toBe('modern');
        const before = kit.proxy.log.length;
        const result = await client.callTool('ask', {});
        expect((result.content[0] as { text: string }).text).toMatch(/^hello Lin from kit-\d$/);
        const calls = kit.proxy.log.slice(before).filter((r) => r.headers['mcp-method'] === 'tools/call');
        expect(new Set(calls.map((r) => r.backend)).size).toBe(2);
      });
    });

    describe('of another principal, and past its TTL (two nodes taking bearer tokens)', () => {
      it('a session is 404, a task not found, a requestState refused; a task expires on every node', async () => {
        const bound = await launchCluster('kit', 2, store, {
          name: 'bound',
          env: { BEARER: '1', LEASE_MS: String(LEASE_MS), TASK_TTL_MS: '4000' },
        });
        onTestFinished(() => bound.close());
        const [a, b] = bound.urls as [string, string];
        const alice = await LegacyWire.open(a, { token: 'alice' });
        const bob = new LegacyWire('bob');
        bob.id = alice.id;
        for (const url of bound.urls) {
          expect((await bob.post(url, rpc('ping'))).status).toBe(404);
          expect((await alice.post(url, rpc('ping'))).status).toBe(200);
        }
        const task = (await modern(a, 'tools/call', { name: 'gate', arguments: {} }, TASKS, 'alice')).result;
        expect((await modern(b, 'tasks/get', { taskId: task.taskId }, TASKS, 'bob')).error).toMatchObject({
          code: -32602,
        });
        expect((await modern(b, 'tasks/cancel', { taskId: task.taskId }, TASKS, 'bob')).error).toMatchObject({
          code: -32602,
        });
        const asking = { elicitation: {} };
        const round1 = (await modern(a, 'tools/call', { name: 'ask', arguments: {} }, asking, 'alice')).result;
        const [key] = Object.keys(round1.inputRequests);
        const stolen = await modern(
          b,
          'tools/call',
          {
            name: 'ask',
            arguments: {},
            requestState: round1.requestState,
            inputResponses: { [key!]: { action: 'accept', content: { name: 'Mallory' } } },
          },
          asking,
          'bob',
        );
        expect(stolen.error).toMatchObject({ code: -32602 });
        expect((await modern(b, 'tasks/get', { taskId: task.taskId }, TASKS, 'alice')).result.status).toBe('working');
        await until(
          async () =>
            expect((await modern(b, 'tasks/get', { taskId: task.taskId }, TASKS, 'alice')).error).toMatchObject({
              code: -32602,
            }),
          { what: 'the task to expire on node 1', timeoutMs: 20_000 },
        );
        expect((await modern(a, 'tasks/get', { taskId: task.taskId }, TASKS, 'alice')).error).toMatchObject({
          code: -32602,
        });
      });
    });

    describe('when a node dies (four todo nodes of their own, --slow-ms 300)', () => {
      it("ends its resumed streams with an error within the lease, after what was logged (raw, mcpwire's client, SDK v1)", async () => {
        const dying = await launchCluster('todo', 4, store, {
          name: 'dying',
          args: ['--lease-ms', String(LEASE_MS), '--slow-ms', '300'],
        });
        onTestFinished(() => dying.close());
        const k = 2;
        const args = { user_id: ALICE, tasks: titles(40) };

        // Raw: node 0 runs the import; SIGKILLed after k progress events, its stream resumed on node 1.
        const session = await LegacyWire.open(dying.urls[0]!);
        const post = await session.stream(
          dying.urls[0]!,
          'POST',
          rpc('tools/call', { name: 'import_tasks', arguments: args, _meta: { progressToken: 'raw' } }),
        );
        const read = await post.text.until((t) => count(t, 'notifications/progress') >= k, `${k} progress events`);
        const seen = read.slice(0, read.lastIndexOf('\n\n') + 2); // whole events only
        const last = sseEvents(seen).at(-1)!;
        await dying.proxy.kill(0);
        const started = Date.now();
        const replay = await exchange(dying.urls[1]!, {
          method: 'GET',
          headers: session.headers({ accept: 'text/event-stream', 'last-event-id': last.id! }),
          timeoutMs: LEASE_MS + 20_000,
        });
        expect(replay.status).toBe(200);
        const messages = sseMessages(replay.text);
        const before = sseMessages(seen)
          .filter((m) => m.method === 'notifications/progress')
          .map((m) => m.params.progress);
        const replayed = messages.slice(0, -1).map((m) => m.params.progress);
        expect([...before, ...replayed]).toEqual(range(1, before.length + replayed.length));
        expect(messages.at(-1)).toMatchObject({ error: STOPPED });
        expect(Date.now() - started).toBeLessThan(LEASE_MS + 15_000);

        // mcpwire's client and SDK v1 over the proxy: the proxy kills the node streaming their import.
        const mcpwire = await connectClient({ url: dying.url }, { era: 'legacy' });
        const v1 = await sdkV1(dying.url);
        const calls: Array<[string, (onProgress: (p: number) => void) => Promise<unknown>]> = [
          ['mcpwire', (on) => mcpwire.callTool('import_tasks', args, { onProgress: (p) => on(p.progress) })],
          [
            'SDK v1',
            (on) =>
              v1.callTool({ name: 'import_tasks', arguments: args }, CallToolResultSchema, {
                onprogress: (p) => on(p.progress),
                resetTimeoutOnProgress: true,
              }),
          ],
        ];
        for (const [who, start] of calls) {
          const progress: number[] = [];
          const call = start((p) => progress.push(p));
          const failed = expect(call).rejects.toThrow(/the server running the request stopped/);
          await until(() => progress.length >= k, { what: `${who}'s first progress` });
          const owner = [...dying.proxy.log].reverse().find((r) => r.method === 'POST' && r.end === undefined)!.backend;
          await dying.proxy.kill(owner);
          await within(failed, { what: `${who}'s call to fail`, timeoutMs: LEASE_MS + 20_000 });
          expect(progress).toEqual(range(1, progress.length));
        }
      });

      it('keeps its task working while it renews the lease, and leaves it failed within the lease once killed', async () => {
        const dying = await launchCluster('todo', 2, store, {
          name: 'tasked',
          args: ['--lease-ms', String(LEASE_MS), '--slow-ms', '300'],
        });
        onTestFinished(() => dying.close());
        const [a, b] = dying.urls as [string, string];
        const user = randomUUID();
        const task = (
          await modern(a, 'tools/call', { name: 'import_tasks', arguments: { user_id: user, tasks: titles(40) } })
        ).result;
        expect(task).toMatchObject({ resultType: 'task', status: 'working' });
        // Ten tasks imported 300 ms apart: the 2 s lease ran out once already, and was renewed.
        await until(
          async () =>
            (await modern(b, 'tools/call', { name: 'list_tasks', arguments: { user_id: user } }, {})).result
              .structuredContent.count >= 10,
          { what: 'ten tasks imported', timeoutMs: 30_000 },
        );
        expect((await modern(b, 'tasks/get', { taskId: task.taskId })).result.status).toBe('working');
        await dying.set.sigkill(0);
        const failed = await eventually(
          async () => {
            const seen = (await modern(b, 'tasks/get', { taskId: task.taskId })).result;
            return seen.status === 'working' ? undefined : seen;
          },
          { what: 'the task to fail on node 1', timeoutMs: LEASE_MS + 20_000 },
        );
        expect(failed).toMatchObject({
          status: 'failed',
          error: { code: -32603, message: 'the server running the task stopped' },
        });
      });
    });

    // These break the store: they run last.
    describe('when the store breaks', () => {
      it('4: resyncs listens and GET streams after the bus connection is cut, and delivers again', async () => {
        const [a, b, c] = kit.urls as [string, string, string];
        const heard = await listenV2(b);
        const session = await LegacyWire.open(a, { capabilities: {} });
        const get = await session.stream(c, 'GET');
        await store.cutBus();
        await until(() => heard.includes('tools'), { what: 'the resync on the SDK v2 listen', timeoutMs: 30_000 });
        await get.text.until((t) => t.includes('list_changed'), 'the resync on the GET stream of node 2', 30_000);
        await until(
          async () => {
            await modern(a, 'tools/call', { name: 'touch', arguments: { uri: 'note://a' } }).catch(() => undefined);
            return heard.includes('note://a');
          },
          { what: 'an update on node 0 to reach node 1 again', timeoutMs: 30_000 },
        );
      });

      it('7: answers fast with clear errors while the store is down, and serves again once it is back', async () => {
        const [a, b] = todo.urls as [string, string];
        await store.down();
        try {
          const bound = { timeoutMs: 20_000 };
          const initialize = await within(
            LegacyWire.open(a).catch((error: unknown) => error),
            {
              what: 'initialize while the store is down',
              ...bound,
            },
          );
          expect(String(initialize)).toMatch(/5\d\d/);
          const task = await within(
            modern(b, 'tools/call', { name: 'import_tasks', arguments: { user_id: ALICE, tasks: titles(1) } }),
            { what: 'a task-run call while the store is down', ...bound },
          );
          // Said as every other call says it (HTTP: 503 once the core maps STATE_UNAVAILABLE), naming no internals.
          expect(task.error.message).toMatch(/the state store is unavailable; try again$/);
          const stateless = await within(
            modern(
              a,
              'tools/call',
              { name: 'add_task', arguments: { user_id: ALICE, title: 'during the outage' } },
              {},
            ),
            { what: 'a stateless call while the store is down', ...bound },
          );
          if (store.dataOutlivesOutage) expect(stateless.result.structuredContent).toMatchObject({ success: true });
          else expect(stateless.result.structuredContent).toMatchObject({ error: { code: 'DATABASE_ERROR' } });
        } finally {
          await store.up();
        }
        const client = await eventually(
          () => connectClient({ url: todo.url }, { era: 'legacy', connectTimeoutMs: 10_000 }).catch(() => undefined),
          { what: 'a legacy session once the store is back', timeoutMs: 30_000 },
        );
        const progress: number[] = [];
        const imported = await client.callTool(
          'import_tasks',
          { user_id: ALICE, tasks: titles(3) },
          { onProgress: (p) => progress.push(p.progress) },
        );
        expect((imported.structuredContent as { count: number }).count).toBe(3);
        expect(progress).toEqual([1, 2, 3]);
        const task = (
          await modern(b, 'tools/call', { name: 'import_tasks', arguments: { user_id: ALICE, tasks: titles(1) } })
        ).result;
        expect(task.resultType).toBe('task');
      });

      it('stops every node on SIGTERM with nothing left open (exit 0)', async () => {
        for (let i = 0; i < 3; i++) {
          expect(await todo.set.sigterm(i, 15_000)).toBe(0);
          expect(await kit.set.sigterm(i, 15_000)).toBe(0);
        }
      });
    });
  });
}
