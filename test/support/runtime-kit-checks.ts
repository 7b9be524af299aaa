/**
 * What every runtime's test asks of the kit it serves (test/runtimes/kit.mjs behind
 * `createFetchHandler`, reached at `url`): the official SDK v1 client on a legacy session (its
 * GET stream hears `list_changed`, DELETE ends the session), the SDK v2 client and mcpwire's
 * client on 2026-07-28 with progress and cancel (the tool sees the abort). Each check is the body
 * of one test and closes what it opened; {@link servesTheKit} makes them a runtime's tests.
 */
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, expect, it, onTestFinished } from 'vitest';
import { McpClient } from '../../src/client/mcp-client.js';
import { connectClient } from './client.js';
import { groupAlive, type RuntimeServer } from './runtimes.js';
import { eventually, until, within } from './wait.js';

const MODERN = '2026-07-28';

/** mcpwire's client on 2026-07-28 without a listen stream of its own, closed when the test finishes. */
function modernClient(url: string): Promise<McpClient> {
  return connectClient({ url }, { era: 'modern', listen: false });
}

/** How many `gate` calls saw their abort so far. */
async function abortsSeen(client: McpClient): Promise<number> {
  const { structuredContent } = await client.callTool('aborts', {});
  return (structuredContent as { aborts: number }).aborts;
}

/** The handler's open legacy GET streams. */
async function openStreams(client: McpClient): Promise<number> {
  const { structuredContent } = await client.callTool('streams', {});
  return (structuredContent as { openStreams: number }).openStreams;
}

/** POSTs one JSON-RPC message on legacy session `sessionId` at `url`, as a 2025-11-25 client does. */
export function postOnSession(url: string, sessionId: string, message: unknown): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-session-id': sessionId,
      'mcp-protocol-version': '2025-11-25',
    },
    body: JSON.stringify(message),
  });
}

/** SDK v1 on a legacy session: lists, calls with progress, and the session has an id. */
async function sdkV1CallsOnALegacySession(url: string): Promise<void> {
  const transport = new TransportV1(new URL(url));
  const client = new ClientV1({ name: 'sdk-v1', version: '1.0.0' });
  await client.connect(transport);
  onTestFinished(() => client.close());
  expect(transport.sessionId).toMatch(/\S/);
  expect(client.getServerVersion()).toMatchObject({ name: 'kit-everywhere' });
  expect((await client.listTools()).tools.map((t) => t.name)).toEqual(
    expect.arrayContaining(['add', 'gate', 'aborts', 'register']),
  );
  const progress: number[] = [];
  const result = await client.callTool({ name: 'add', arguments: { a: 4, b: 5 } }, undefined, {
    onprogress: (p) => void progress.push(p.progress),
  });
  expect(result.structuredContent).toEqual({ sum: 9 });
  expect(progress).toEqual([1, 2]);
}

/**
 * SDK v1's GET stream hears `tools/list_changed` from a tool registered meanwhile; DELETE ends
 * the session (a request on its id is then 404) and its GET stream.
 */
async function sdkV1HearsListChangedThenDeletes(url: string, waitMs?: number): Promise<void> {
  const probe = await modernClient(url);
  const before = await openStreams(probe);
  const transport = new TransportV1(new URL(url));
  const client = new ClientV1({ name: 'sdk-v1', version: '1.0.0' });
  let changes = 0;
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => void changes++);
  await client.connect(transport);
  onTestFinished(() => client.close());
  // SDK v1 opens its GET stream after the handshake; a change before that would not reach it.
  await until(async () => (await openStreams(probe)) > before, { what: "SDK v1's GET stream to open" });
  const name = `late_${Math.random().toString(36).slice(2)}`;
  await probe.callTool('register', { name });
  await until(() => changes > 0, { what: 'tools/list_changed on the GET stream', timeoutMs: waitMs });
  expect((await client.listTools()).tools.map((t) => t.name)).toContain(name);
  const sessionId = transport.sessionId!;
  await transport.terminateSession();
  expect(transport.sessionId).toBeUndefined();
  const after = await postOnSession(url, sessionId, { jsonrpc: '2.0', id: 1, method: 'tools/list' });
  await after.body?.cancel();
  expect(after.status).toBe(404);
  await until(async () => (await openStreams(probe)) === before, { what: 'the deleted session’s GET stream to end' });
}

/** SDK v2 on 2026-07-28: a call with progress, and a cancelled call whose tool sees the abort. */
async function sdkV2ProgressAndCancel(url: string, waitMs?: number): Promise<void> {
  const probe = await modernClient(url);
  const client = new ClientV2({ name: 'sdk-v2', version: '2.0.0' }, { versionNegotiation: { mode: { pin: MODERN } } });
  await client.connect(new TransportV2(new URL(url)));
  onTestFinished(() => client.close());
  const progress: number[] = [];
  const result = await client.callTool(
    { name: 'add', arguments: { a: 40, b: 2 } },
    { onprogress: (p: { progress: number }) => void progress.push(p.progress) },
  );
  expect(result.structuredContent).toEqual({ sum: 42 });
  expect(progress).toEqual([1, 2]);
  const before = await abortsSeen(probe);
  const controller = new AbortController();
  const call = client.callTool(
    { name: 'gate', arguments: {} },
    { signal: controller.signal, onprogress: () => controller.abort(new Error('stop')) },
  );
  await expect(within(call, { what: "SDK v2's cancelled call to reject" })).rejects.toThrow();
  await until(async () => (await abortsSeen(probe)) > before, { what: 'the tool to see the abort', timeoutMs: waitMs });
}

/** mcpwire's client on 2026-07-28: a call with progress, and a cancelled call whose tool sees the abort. */
async function mcpwireProgressAndCancel(url: string, waitMs?: number): Promise<void> {
  const client = await modernClient(url);
  expect(client.protocolVersion).toBe(MODERN);
  const progress: number[] = [];
  const result = await client.callTool('add', { a: 2, b: 3 }, { onProgress: (p) => progress.push(p.progress) });
  expect(result.structuredContent).toEqual({ sum: 5 });
  expect(progress).toEqual([1, 2]);
  const before = await abortsSeen(client);
  const controller = new AbortController();
  const call = client.callTool(
    'gate',
    {},
    { signal: controller.signal, onProgress: () => controller.abort(new Error('user pressed stop')) },
  );
  await expect(call).rejects.toMatchObject({ code: 'CANCELLED' });
  await until(async () => (await abortsSeen(client)) > before, {
    what: 'the tool to see the abort',
    timeoutMs: waitMs,
  });
}

/** mcpwire's client on the legacy era (2025-11-25) with a session: a call, then a clean close. */
async function mcpwireLegacySession(url: string): Promise<void> {
  const client = await connectClient({ url }, { era: 'legacy' });
  expect(client.protocolVersion).toBe('2025-11-25');
  expect((await client.callTool('add', { a: 1, b: 1 })).structuredContent).toEqual({ sum: 2 });
  await eventually(async () => ((await client.listTools()).length > 0 ? true : undefined), {
    what: 'the tools on the legacy session',
  });
}

/** What a runtime is known not to do yet: those checks run as `it.fails` (they alert once they pass). */
export interface KnownLimits {
  /** A legacy GET stream hears what another request caused (workerd: no I/O across requests). */
  pushAcrossRequests?: false;
  /** A tool sees the abort when its 2026 client goes away. */
  cancelOnDisconnect?: false;
}

/**
 * The tests of one runtime's file: `start()` serves the kit once for the file (`beforeAll`), each
 * check above is one test, and the last test stops the server: SIGTERM, exit code 0, no process
 * of its group left (`afterAll` stops it too, when a test failed first).
 */
export function servesTheKit(start: () => Promise<RuntimeServer>, limits: KnownLimits = {}): void {
  // A known limit is waited for briefly: it only has to show it is still there.
  const push = limits.pushAcrossRequests === false ? it.fails : it;
  const pushWaitMs = limits.pushAcrossRequests === false ? 2_000 : undefined;
  const cancel = limits.cancelOnDisconnect === false ? it.fails : it;
  const cancelWaitMs = limits.cancelOnDisconnect === false ? 2_000 : undefined;
  let served: RuntimeServer | undefined;
  beforeAll(async () => {
    served = await start();
  });
  afterAll(async () => {
    await served?.stop();
  });
  it('serves SDK v1 on a legacy session', () => sdkV1CallsOnALegacySession(served!.url));
  push("tells SDK v1's GET stream list_changed, and DELETE ends the session", () =>
    sdkV1HearsListChangedThenDeletes(served!.url, pushWaitMs),
  );
  cancel('serves SDK v2 on 2026-07-28 with progress and cancel', () =>
    sdkV2ProgressAndCancel(served!.url, cancelWaitMs),
  );
  cancel("serves mcpwire's client on 2026-07-28 with progress and cancel", () =>
    mcpwireProgressAndCancel(served!.url, cancelWaitMs),
  );
  it("serves mcpwire's client on a legacy session", () => mcpwireLegacySession(served!.url));
  if (limits.cancelOnDisconnect === false)
    // SIGTERM drains the open requests, and the runtime was never told the clients went away.
    it('stops at once on SIGINT and leaves no process', async () => {
      const server = served!;
      expect(await server.stop(10_000, 'SIGINT'), server.output()).toEqual({ code: null, signal: 'SIGINT' });
      expect(groupAlive(server)).toBe(false);
    });
  else
    it('exits 0 on SIGTERM and leaves no process', async () => {
      const server = served!;
      expect(await server.stop(), server.output()).toEqual({ code: 0, signal: null });
      expect(groupAlive(server)).toBe(false);
    });
}
