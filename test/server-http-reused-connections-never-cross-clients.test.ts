/**
 * The kit's HTTP handler runs each POST without a session (2026-07-28, stateless legacy) on a
 * per-POST engine connection and keeps it, once the POST ended, for a later POST of any client.
 * Nothing of one POST reaches another through it: a call whose client closed its response (the
 * cancel) ends at once while its handler, ignoring its signal, runs on; when that handler later
 * sends progress and a log message and returns, none of it shows in the answers or SSE streams of
 * another client's calls with the same id and progress token on the reused connection, and the
 * server goes on answering. Per-POST facts stay per POST: on a protected endpoint, clients of
 * two subjects alternating (and at once) each see their own `context.auth`; stateless legacy
 * POSTs of alternating revisions are each answered at their own. Real loopback HTTP. Reuse is not
 * observable from outside: POSTs made one after the other leave one idle connection, which every
 * such POST after the first takes.
 */
import http from 'node:http';
import { describe, expect, it, onTestFinished } from 'vitest';
import {
  BearerTokenError,
  McpServer,
  type AuthInfo,
  type HttpHandlerOptions,
  type ServerLogRecord,
} from '../src/server/index.js';
import { listenKitAt, startKitHttp, type KitHttp } from './support/kit-http.js';
import { exchange, modernMeta, sseEvents, type Exchange } from './support/kit-wire.js';
import { until, within } from './support/wait.js';

/** What only the cancelled call's handler ever sends. */
const MARKER = 'late-A-7f3c';
/** The progress token every call carries (A's and B's alike). */
const TOKEN = 'shared-token';

/** How one era's stateless POST of a `tools/call` is made. */
interface Era {
  name: string;
  options: HttpHandlerOptions;
  headers(tool: string): Record<string, string>;
  /** `_meta` beside the progress token (the 2026 envelope, with a log level so log messages go out). */
  meta(): Record<string, unknown>;
}

const ERAS: Era[] = [
  {
    name: '2026-07-28',
    options: { path: '/mcp' },
    headers: (tool) => ({ 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': tool }),
    meta: () => ({ ...modernMeta(), 'io.modelcontextprotocol/logLevel': 'info' }),
  },
  {
    name: 'stateless 2025-06-18',
    options: { path: '/mcp', sessions: false },
    headers: () => ({ 'mcp-protocol-version': '2025-06-18' }),
    meta: () => ({}),
  },
];

/** A `tools/call` with id 1 and the shared progress token. */
function call(era: Era, tool: string, args: Record<string, unknown>): Record<string, unknown> {
  return {
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name: tool, arguments: args, _meta: { ...era.meta(), progressToken: TOKEN } },
  };
}

interface Deferred {
  promise: Promise<void>;
  resolve: () => void;
}

function deferred(): Deferred {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

/**
 * A kit server with `late` (ignores its signal, waits for `lateGate`, then sends progress and a
 * log message with {@link MARKER} and returns it) and `steady` (sends progress and a log message
 * naming its call `n`, waits for `steadyGate` when `hold`, returns `B-n`).
 */
function crossServer(): {
  server: McpServer;
  logs: ServerLogRecord[];
  late: { entered: Deferred; gate: Deferred; returned: Deferred; sawAbort: boolean | undefined };
  steady: { holding: Deferred; gate: Deferred };
} {
  const logs: ServerLogRecord[] = [];
  const server = new McpServer({ name: 'pooled', version: '1', logger: (record) => logs.push(record) });
  const late = {
    entered: deferred(),
    gate: deferred(),
    returned: deferred(),
    sawAbort: undefined as boolean | undefined,
  };
  const steady = { holding: deferred(), gate: deferred() };
  server.registerTool({
    name: 'late',
    inputSchema: { type: 'object' },
    handler: async (_args, context) => {
      late.entered.resolve();
      await late.gate.promise;
      late.sawAbort = context.signal.aborted;
      context.progress(1, 1, MARKER);
      context.log('info', MARKER);
      late.returned.resolve();
      return { content: [{ type: 'text', text: MARKER }] };
    },
  });
  server.registerTool<{ n: number; hold?: boolean }>({
    name: 'steady',
    inputSchema: { type: 'object' },
    handler: async ({ n, hold }, context) => {
      context.progress(1, 1, `B-${n}`);
      context.log('info', `B-${n}`);
      if (hold) {
        steady.holding.resolve();
        await steady.gate.promise;
      }
      return { content: [{ type: 'text', text: `B-${n}` }] };
    },
  });
  return { server, logs, late, steady };
}

/** A POST whose response the test closes before it is answered (the client's cancel). */
function openPost(url: string, headers: Record<string, string>, body: unknown): { close(): void } {
  const req = http.request(url, {
    method: 'POST',
    headers: { accept: 'application/json, text/event-stream', 'content-type': 'application/json', ...headers },
  });
  // The test destroys the request: the socket error that follows is the point, not a failure.
  req.on('error', () => undefined);
  req.end(JSON.stringify(body));
  return { close: () => req.destroy() };
}

/** `answer` is B's call `n`, whole: its progress, its log message, its result; nothing else. */
function expectOwn(answer: Exchange, n: number): void {
  expect(answer.text).not.toContain(MARKER);
  expect(answer.status).toBe(200);
  expect(answer.headers['content-type']).toBe('text/event-stream');
  const messages = sseEvents(answer.text).map((event) => JSON.parse(event.data) as Record<string, unknown>);
  expect(messages).toEqual([
    {
      jsonrpc: '2.0',
      method: 'notifications/progress',
      params: { progressToken: TOKEN, progress: 1, total: 1, message: `B-${n}` },
    },
    { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: `B-${n}` } },
    {
      jsonrpc: '2.0',
      id: 1,
      result: expect.objectContaining({ content: [{ type: 'text', text: `B-${n}` }] }) as unknown,
    },
  ]);
}

describe.each(ERAS)('$name, stateless: a reused per-POST connection', (era) => {
  it("never carries a cancelled call's late progress, log or answer to another client's same id", async () => {
    const { server, logs, late, steady } = crossServer();
    const kit = await startKitHttp(server, era.options);
    const post = (n: number, hold = false): Promise<Exchange> =>
      exchange(kit.url, { headers: era.headers('steady'), body: call(era, 'steady', hold ? { n, hold } : { n }) });

    // Client A: the first POST (so its connection is the only one), closed while its handler runs.
    const a = openPost(kit.url, era.headers('late'), call(era, 'late', {}));
    await within(late.entered.promise, { what: "A's call to start" });
    a.close();
    // Its POST ended (the cancel): its connection is idle now, the handler still waiting.
    await until(() => kit.handler.inFlight === 0, { what: "A's POST to end after the close" });

    // Client B, one POST after the other: each takes the one idle connection, A's.
    const answers: Exchange[] = [];
    for (let n = 1; n <= 5; n++) answers.push(await post(n));
    // B's last call holds id 1 on that connection while A's handler wakes up and finishes.
    const held = post(6, true);
    await within(steady.holding.promise, { what: "B's held call to start" });
    late.gate.resolve();
    await within(late.returned.promise, { what: "A's handler to return" });
    // What follows A's return (its answer, dropped) runs in microtasks, with no I/O: one turn of
    // the event loop has run all of it, so a leaked answer would be in B's route before B's.
    await new Promise<void>((resolve) => setImmediate(resolve));
    steady.gate.resolve();
    answers.push(await held);

    expect(late.sawAbort).toBe(true);
    answers.forEach((answer, index) => expectOwn(answer, index + 1));
    // The server goes on: a later call is answered, and nothing is left in flight.
    expectOwn(await post(7), 7);
    await until(() => kit.handler.inFlight === 0, { what: 'no POST in flight' });
    expect(logs.filter((record) => record.level === 'error')).toEqual([]);
  });
});

/** Two bearer tokens, each for its own subject. */
const SUBJECTS: Record<string, string> = { 'token-alice': 'alice', 'token-bob': 'bob' };

function verifyToken(token: string): Promise<AuthInfo> {
  const subject = SUBJECTS[token];
  if (!subject) return Promise.reject(new BearerTokenError('invalid_token', 'unknown token'));
  return Promise.resolve({ subject, clientId: `client-${subject}`, scopes: [] });
}

/** A protected kit whose `whoami` answers with the subject its `context.auth` names. */
async function protectedKit(era: Era): Promise<KitHttp> {
  const server = new McpServer({ name: 'pooled-auth', version: '1', logger: () => undefined });
  server.registerTool({
    name: 'whoami',
    inputSchema: { type: 'object' },
    handler: (_args, context) => ({ content: [{ type: 'text', text: context.auth?.subject ?? 'nobody' }] }),
  });
  onTestFinished(() => server.close());
  const kit = await listenKitAt(server, (url) => ({
    ...era.options,
    auth: { resource: url, authorizationServers: ['https://as.example'], verifyToken },
  }));
  onTestFinished(() => kit.close());
  return kit;
}

describe.each(ERAS)('$name, stateless, protected: a reused per-POST connection', (era) => {
  it('gives each POST its own token facts, clients alternating and at once', async () => {
    const kit = await protectedKit(era);
    const whoami = async (token: string): Promise<string> => {
      const answer = await exchange(kit.url, {
        headers: { ...era.headers('whoami'), authorization: `Bearer ${token}`, accept: 'application/json' },
        body: call(era, 'whoami', {}),
      });
      expect(answer.status).toBe(200);
      return (answer.json as { result: { content: Array<{ text: string }> } }).result.content[0]!.text;
    };
    const tokens = Object.keys(SUBJECTS);
    for (let round = 0; round < 8; round++) {
      const token = tokens[round % 2]!;
      expect(await whoami(token)).toBe(SUBJECTS[token]);
    }
    const together = Array.from({ length: 12 }, (_, index) => tokens[index % 2]!);
    expect(await Promise.all(together.map(whoami))).toEqual(together.map((token) => SUBJECTS[token]));
    for (let round = 0; round < 8; round++) {
      const token = tokens[(round + 1) % 2]!;
      expect(await whoami(token)).toBe(SUBJECTS[token]);
    }
  });
});

describe('stateless legacy: a reused per-POST connection', () => {
  it('answers each POST at its own MCP-Protocol-Version, revisions alternating', async () => {
    const server = new McpServer({ name: 'pooled-revisions', version: '1', logger: () => undefined });
    server.registerTool({
      name: 'shaped',
      inputSchema: { type: 'object' },
      handler: () => ({ content: [{ type: 'text', text: 'shaped' }], structuredContent: { shaped: true } }),
    });
    const kit = await startKitHttp(server, { path: '/mcp', sessions: false });
    for (let round = 0; round < 8; round++) {
      const revision = round % 2 === 0 ? '2025-06-18' : '2025-03-26';
      const answer = await exchange(kit.url, {
        headers: { 'mcp-protocol-version': revision, accept: 'application/json' },
        body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'shaped', arguments: {} } },
      });
      // Structured output came with 2025-06-18: a 2025-03-26 answer leaves it out.
      expect(answer.json.result.structuredContent).toEqual(revision === '2025-06-18' ? { shaped: true } : undefined);
    }
  });
});
