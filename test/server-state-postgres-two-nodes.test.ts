/**
 * Two kit servers in one process, each behind its own HTTP handler on a real loopback listener and
 * each with its own `postgresState` (its own pool) on one database the test starts, behave as two
 * nodes of one service: a task made on one is seen and cancelled through the other (its handler
 * aborted where it runs, woken by NOTIFY); a listen on one hears a tool registered on the other,
 * and every list again after the bus's connection is killed; a `requestState` minted on one is
 * accepted on the other; a legacy session made on one is served by the other, and a DELETE
 * through the other ends it (its GET stream ended at once); a legacy call whose stream the server
 * closed resumes from the PostgreSQL event log; with the database down a node answers at once with
 * an internal error (its log names the store) and serves again once it is back; a DPoP proof
 * accepted by one is refused as a replay by the other.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as jose from 'jose';
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { McpClient } from '../src/client/mcp-client.js';
import { jwtBearer, McpServer, type ServerLogger } from '../src/server/index.js';
import { postgresState, type PostgresState } from '../src/server/postgres/index.js';
import { listenKitAt, startKitHttp, type KitHttp } from './support/kit-http.js';
import { exchange, modernRequest } from './support/kit-wire.js';
import { skipWithoutPostgres, startPostgres, type PostgresCluster } from './support/postgres-cluster.js';
import { until, within } from './support/wait.js';

const SECRET = 'the secret both nodes share';
const WITH_TASKS = { extensions: { 'io.modelcontextprotocol/tasks': {} } };

interface Node {
  server: McpServer;
  kit: KitHttp;
  state: PostgresState;
  aborted: unknown[];
}

describe.skipIf(skipWithoutPostgres())('two kit nodes sharing one PostgreSQL state', () => {
  let cluster: PostgresCluster;
  beforeAll(async () => {
    cluster = await startPostgres();
  }, 120_000);
  afterAll(() => cluster?.stop());

  /** A fresh prefix (fresh tables) per test. */
  const prefix = (): string => `n${randomBytes(4).toString('hex')}_`;

  function pgState(nodeId: string, tablePrefix: string): PostgresState {
    const state = postgresState({
      connectionString: cluster.url,
      tablePrefix,
      nodeId,
      stateSecret: SECRET,
      maxConnections: 4,
      logger: () => undefined,
    });
    onTestFinished(() => state.close());
    return state;
  }

  async function node(nodeId: string, tablePrefix: string, logger: ServerLogger = () => undefined): Promise<Node> {
    const state = pgState(nodeId, tablePrefix);
    const server = new McpServer({ name: 'node', version: '1', logger, state });
    const aborted: unknown[] = [];
    server.registerTool({
      name: 'gate',
      inputSchema: { type: 'object' },
      taskSupport: 'optional',
      handler: (_args, context) =>
        new Promise((resolve) => {
          context.signal.addEventListener('abort', () => {
            aborted.push(context.signal.reason);
            resolve({ content: [] });
          });
        }),
    });
    server.registerTool({
      name: 'poll_me',
      inputSchema: { type: 'object' },
      handler: async (_args, context) => {
        context.progress(1);
        context.closeStream();
        await within(resumed.promise, { what: 'the test to let the call go on' });
        context.progress(2);
        return { content: [{ type: 'text', text: 'resumed result' }] };
      },
    });
    server.registerTool({
      name: 'greet',
      inputSchema: { type: 'object' },
      handler: async (_args, context) => {
        const answer = await context.elicit({ message: 'Your name?', requestedSchema: { type: 'object' } });
        return { content: [{ type: 'text', text: `hello ${String(answer.content?.name)}` }] };
      },
    });
    return { server, kit: await startKitHttp(server, { sessions: true }), state, aborted };
  }

  /** Lets `poll_me` go on after it closed its stream (one per test). */
  let resumed: { promise: Promise<void>; resolve(): void };
  beforeEach(() => {
    let resolve!: () => void;
    resumed = { promise: new Promise<void>((r) => (resolve = r)), resolve: () => resolve() };
  });

  let nextId = 1;
  async function call(
    at: Node,
    method: string,
    params: Record<string, unknown>,
    capabilities: Record<string, unknown> = WITH_TASKS,
  ): Promise<any> {
    const answer = await modernRequest(at.kit.url, method, params, {
      id: nextId++,
      capabilities,
      headers: { accept: 'application/json' },
    });
    return answer.json;
  }

  it('see a task made on the other at once, and a cancel through one aborts the handler on the other', async () => {
    const p = prefix();
    const a = await node('node-a', p);
    const b = await node('node-b', p);
    const task = (await call(a, 'tools/call', { name: 'gate', arguments: {} })).result;
    expect(task.resultType).toBe('task');
    expect((await call(b, 'tasks/get', { taskId: task.taskId })).result).toMatchObject({
      taskId: task.taskId,
      status: 'working',
    });
    expect((await call(b, 'tasks/cancel', { taskId: task.taskId })).result.resultType).toBe('complete');
    await until(() => a.aborted.length === 1, { what: 'the handler on node a to be aborted' });
    expect((await call(a, 'tasks/get', { taskId: task.taskId })).result.status).toBe('cancelled');
  });

  it('carry a tool registered on one node to a listen on the other, and resync it after the bus connection dies', async () => {
    const p = prefix();
    const a = await node('node-a', p);
    const b = await node('node-b', p);
    const client = await McpClient.connect({ url: b.kit.url });
    try {
      await until(() => b.kit.handler.openListens === 1, { what: "the client's listen on node b" });
      let changed = 0;
      client.on('toolsChanged', () => changed++);
      a.server.registerTool({ name: 'late', inputSchema: { type: 'object' }, handler: () => ({ content: [] }) });
      await until(() => changed >= 1, { what: 'the toolsChanged event from node a' });
      const before = changed;
      expect(await cluster.terminateBackends()).toBeGreaterThan(0);
      // Messages may have been lost while the LISTEN connection was down: every list counts as changed.
      await until(() => changed > before, { what: 'the toolsChanged event after the resync' });
    } finally {
      await client.close();
    }
  });

  it('accept a requestState minted on the other', async () => {
    const p = prefix();
    const a = await node('node-a', p);
    const b = await node('node-b', p);
    const asking = { elicitation: {} };
    const round1 = (await call(a, 'tools/call', { name: 'greet', arguments: {} }, asking)).result;
    expect(round1.resultType).toBe('input_required');
    const again = {
      name: 'greet',
      arguments: {},
      requestState: round1.requestState,
      inputResponses: { 'input-1': { action: 'accept', content: { name: 'Ada' } } },
    };
    expect((await call(b, 'tools/call', again, asking)).result.content).toEqual([{ type: 'text', text: 'hello Ada' }]);
  });

  it('serve a legacy session made on one node on the other too, which ends it with a DELETE', async () => {
    const p = prefix();
    const a = await node('node-a', p);
    const b = await node('node-b', p);
    const made = await exchange(a.kit.url, {
      body: {
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
      },
    });
    const session = made.headers['mcp-session-id'] as string;
    const headers = { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' };
    await exchange(a.kit.url, { headers, body: { jsonrpc: '2.0', method: 'notifications/initialized' } });
    expect(await b.state.sessions.get(session, undefined, Date.now())).toMatchObject({
      owner: 'node-a',
      revision: '2025-11-25',
      clientInfo: { name: 'raw', version: '1' },
    });
    // Node b serves the session too (it adopts it from the store).
    const listed = await exchange(b.kit.url, { headers, body: { jsonrpc: '2.0', id: 1, method: 'tools/list' } });
    expect(listed.status).toBe(200);
    expect(JSON.stringify(listed.json ?? listed.text)).toContain('"gate"');
    const stream = await fetch(a.kit.url, { headers: { ...headers, accept: 'text/event-stream' } });
    expect(stream.status).toBe(200);
    await until(() => a.kit.handler.openStreams === 1, { what: 'the GET stream on node a' });
    expect((await exchange(b.kit.url, { method: 'DELETE', headers })).status).toBe(200);
    // Node a hears of it through NOTIFY: its GET stream ends at once, and the session is gone there.
    expect(await within(stream.text(), { what: 'the GET stream on node a to end' })).toBe('');
    expect((await exchange(a.kit.url, { headers, body: { jsonrpc: '2.0', id: 2, method: 'ping' } })).status).toBe(404);
    expect(await a.state.sessions.get(session, undefined, Date.now())).toBeUndefined();
  });

  it('answer fast with an error while the database is down, and serve the same task again once it is back', async () => {
    const p = prefix();
    const a = await node('node-a', p);
    const logged: string[] = [];
    const b = await node('node-b', p, (record) => logged.push(JSON.stringify(record)));
    const task = (await call(a, 'tools/call', { name: 'gate', arguments: {} })).result;
    await cluster.down();
    try {
      const answer = await within(call(b, 'tasks/get', { taskId: task.taskId }), {
        what: 'the answer while the database is down',
        timeoutMs: 15_000,
      });
      // The client is told an internal error; the node's log names the store and what failed.
      expect(answer.error).toMatchObject({ code: -32603 });
      expect(logged.join('\n')).toMatch(/PostgreSQL state \(task store[^)]*\): connect ECONNREFUSED/);
    } finally {
      await cluster.up();
    }
    await until(
      async () => expect((await call(b, 'tasks/get', { taskId: task.taskId })).result?.status).toBeDefined(),
      {
        what: 'node b to serve the task again',
        timeoutMs: 20_000,
      },
    );
  });

  it("resume a legacy call whose stream the server closed from the event log (mcpwire's client, Last-Event-ID)", async () => {
    const p = prefix();
    const a = await node('node-a', p);
    const client = await McpClient.connect({ url: a.kit.url }, { era: 'legacy' });
    try {
      const progress: number[] = [];
      const call = client.callTool('poll_me', {}, { onProgress: (update) => progress.push(update.progress) });
      await until(() => progress.length === 1, { what: 'the progress before the stream closed' });
      const kept = await a.state.pool.query<{ n: string }>({ text: `SELECT count(*) AS n FROM "${p}event"` });
      expect(Number(kept.rows[0]!.n)).toBeGreaterThanOrEqual(2); // the priming event and the progress
      resumed.resolve();
      const result = await within(call, { what: 'the resumed call to settle' });
      expect(result.content).toEqual([{ type: 'text', text: 'resumed result' }]);
      expect(progress).toEqual([1, 2]);
    } finally {
      await client.close();
    }
  });

  it('refuse on one node a DPoP proof the other accepted', async () => {
    const p = prefix();
    const keys = await keyServer();
    const kit = async (nodeId: string, resource?: string): Promise<KitHttp> => {
      const state = pgState(nodeId, p);
      const server = new McpServer({ name: 'dpop', version: '1', logger: () => undefined, state });
      server.registerTool({ name: 'whoami', inputSchema: { type: 'object' }, handler: () => ({ content: [] }) });
      onTestFinished(() => server.close());
      const made = await listenKitAt(server, (url) => ({
        auth: {
          resource: resource ?? url,
          authorizationServers: [ISSUER],
          verifyToken: jwtBearer({ issuer: ISSUER, jwksUrl: keys.jwksUrl }),
          dpop: { replayCache: state.replayCache },
        },
      }));
      onTestFinished(() => made.close());
      return made;
    };
    const first = await kit('node-a');
    // The second node serves the same resource (behind one load balancer): proofs name its URL.
    const second = await kit('node-b', first.url);
    const key = await clientKey();
    const token = await keys.token(first.url, key.jkt);
    const proof = await key.proof(first.url, token);
    const once = await whoami(first.url, token, proof);
    expect(once.status, once.body).toBe(200);
    const replayed = await whoami(second.url, token, proof);
    expect(replayed.status).toBe(401);
    expect(replayed.body).toContain('has been used before');
    const fresh = await whoami(second.url, token, await key.proof(first.url, token));
    expect(fresh.status, fresh.body).toBe(200);
  });
});

const ISSUER = 'https://as.example';

/** An authorization server's keys on a real listener, and access tokens bound to a DPoP key. */
async function keyServer(): Promise<{ jwksUrl: string; token(audience: string, jkt: string): Promise<string> }> {
  const { privateKey, publicKey } = await jose.generateKeyPair('ES256', { extractable: true });
  const jwks = { keys: [{ ...(await jose.exportJWK(publicKey)), kid: 'as-key', alg: 'ES256', use: 'sig' }] };
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(jwks));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onTestFinished(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return {
    jwksUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/jwks`,
    token: (audience, jkt) =>
      new jose.SignJWT({ scope: 'mcp:tools', client_id: 'app', cnf: { jkt } })
        .setProtectedHeader({ alg: 'ES256', kid: 'as-key', typ: 'at+jwt' })
        .setIssuer(ISSUER)
        .setSubject('alice')
        .setAudience(audience)
        .setIssuedAt()
        .setExpirationTime('10m')
        .sign(privateKey),
  };
}

/** A client's DPoP key: its thumbprint, and fresh proofs for a POST to `htu` with `token`. */
async function clientKey(): Promise<{ jkt: string; proof(htu: string, token: string): Promise<string> }> {
  const { privateKey, publicKey } = await jose.generateKeyPair('ES256');
  const jwk = await jose.exportJWK(publicKey);
  return {
    jkt: await jose.calculateJwkThumbprint(jwk, 'sha256'),
    proof: (htu, token) =>
      new jose.SignJWT({ htm: 'POST', htu, ath: createHash('sha256').update(token).digest('base64url') })
        .setProtectedHeader({ alg: 'ES256', typ: 'dpop+jwt', jwk })
        .setIssuedAt()
        .setJti(randomUUID())
        .sign(privateKey),
  };
}

/** A modern `tools/call whoami` POST with a DPoP-bound token and its proof. */
async function whoami(url: string, token: string, proof: string): Promise<{ status: number; body: string }> {
  const response = await modernRequest(
    url,
    'tools/call',
    { name: 'whoami', arguments: {} },
    { id: 1, headers: { accept: 'application/json', authorization: `DPoP ${token}`, dpop: proof } },
  );
  return { status: response.status, body: response.text };
}
