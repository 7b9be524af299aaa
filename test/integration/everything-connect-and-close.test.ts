/**
 * server-everything over stdio: the handshake's outcome (era, revision, identity, instructions,
 * capabilities), the capability-driven tool list and its list_changed feed, ping, and a close
 * that leaves no process behind.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CloseInfo } from '../../src/protocol/transport.js';
import { McpClient } from '../../src/client/mcp-client.js';
import { StdioTransport } from '../../src/transport/stdio/stdio.js';
import { RecordingTransport } from '../kit/recording-transport.js';
import { isAlive, waitUntilGone } from '../support/processes.js';
import { type EverythingHarness, startEverything } from './support/everything-harness.js';
import { everything } from './support/reference-servers.js';

const INPUT_TOOLS = [
  'get-roots-list',
  'trigger-elicitation-request',
  'trigger-sampling-request',
  'trigger-url-elicitation',
];

describe('server-everything: connect, list_changed, ping and close', () => {
  let recording: RecordingTransport;
  let harness: EverythingHarness;
  let toolsChanged = 0;
  const closes: CloseInfo[] = [];

  beforeAll(async () => {
    recording = new RecordingTransport(await StdioTransport.spawn(everything(), { name: 'everything' }));
    harness = await startEverything({ transport: recording });
    // Registered before any I/O turn: the server's list_changed notifications cannot precede it.
    harness.client.on('toolsChanged', () => toolsChanged++);
    harness.client.on('close', (info) => closes.push(info));
  });
  afterAll(async () => {
    await harness?.stop();
  });

  const sentMethods = () =>
    recording.sent.map((r) => (r.message as { method?: string }).method).filter((m) => m !== undefined);

  it('negotiates the legacy era at 2025-11-25 and exposes identity, instructions and capabilities', () => {
    const { client } = harness;
    expect(client.era).toBe('legacy');
    expect(client.protocolVersion).toBe('2025-11-25');
    expect(client.serverInfo).toMatchObject({
      name: 'mcp-servers/everything',
      title: 'Everything Reference Server',
      version: expect.any(String),
    });
    expect(client.instructions).toContain('Everything Server');
    expect(client.capabilities).toMatchObject({
      tools: { listChanged: true },
      prompts: { listChanged: true },
      resources: { subscribe: true, listChanged: true },
      logging: {},
      completions: {},
    });
    expect(isAlive(harness.pid)).toBe(true);
  });

  it('ran the handshake in order: the era probe, initialize, then notifications/initialized', () => {
    expect(sentMethods().slice(0, 3)).toEqual(['server/discover', 'initialize', 'notifications/initialized']);
    const initialize = recording.sent.find((r) => (r.message as { method?: string }).method === 'initialize')!
      .message as { params: Record<string, unknown> };
    expect(initialize.params).toMatchObject({ protocolVersion: '2025-11-25', clientInfo: { name: 'mcpwire' } });
    // Each handler declares its capability, and nothing else is declared.
    expect(initialize.params.capabilities).toEqual({
      roots: { listChanged: true },
      sampling: {},
      elicitation: { form: {}, url: {} },
    });
    expect(harness.client.clientCapabilities).toEqual(initialize.params.capabilities);
  });

  it('lists the tools the declared capabilities unlock, after the list_changed they cause', async () => {
    const names = (await harness.client.listTools()).map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(INPUT_TOOLS));
    // The server registers those tools once `initialized` arrives, one list_changed each.
    await expect.poll(() => toolsChanged, { timeout: 5_000 }).toBeGreaterThanOrEqual(INPUT_TOOLS.length);
  });

  it('serves the tool list from its cache until list_changed, and asks again on refresh', async () => {
    const before = sentMethods().filter((m) => m === 'tools/list').length;
    const first = await harness.client.listTools();
    const second = await harness.client.listTools();
    expect(second).toBe(first);
    expect(sentMethods().filter((m) => m === 'tools/list').length).toBe(before);
    const refreshed = await harness.client.listTools({ refresh: true });
    expect(refreshed.map((t) => t.name)).toEqual(first.map((t) => t.name));
    expect(sentMethods().filter((m) => m === 'tools/list').length).toBe(before + 1);
  });

  it('answers ping', async () => {
    await expect(harness.client.ping({ timeoutMs: 5_000 })).resolves.toBeUndefined();
  });

  it('closes gracefully, even while the server waits on an elicitation: the call rejects, the handler is aborted, the process exits', async () => {
    const { client, pid } = harness;
    harness.answers.elicitation = 'hang';
    const waiting = client.callTool('trigger-elicitation-request', {}).then(
      () => undefined,
      (e: unknown) => e,
    );
    await expect.poll(() => harness.seen.elicitation.length, { timeout: 5_000 }).toBe(1);
    const handlerSignal = harness.seen.elicitation[0]!.context.signal;
    expect(handlerSignal.aborted).toBe(false);

    await Promise.all([client.close(), client.close()]);
    expect(await waiting).toMatchObject({ code: 'CONNECTION_CLOSED', method: 'tools/call' });
    expect(handlerSignal.aborted).toBe(true);
    await expect.poll(() => isAlive(pid), { timeout: 5_000, interval: 25 }).toBe(false);
    expect(() => process.kill(pid, 0)).toThrow(expect.objectContaining({ code: 'ESRCH' }));
    expect(client.isClosed).toBe(true);
    await expect(client.closed).resolves.toEqual({});
    await expect.poll(() => closes.length).toBe(1);
    expect(closes[0]!.error).toBeUndefined();
    await expect(client.ping()).rejects.toMatchObject({ code: 'CONNECTION_CLOSED' });
    await expect(client.callTool('echo', { message: 'too late' })).rejects.toMatchObject({
      code: 'CONNECTION_CLOSED',
      server: 'everything',
    });
  });
});

describe('server-everything: the server dies mid-call', () => {
  it('rejects the pending call with CONNECTION_CLOSED and emits close with the reason', async () => {
    const client = await McpClient.connect(everything(), { name: 'doomed' });
    const pid = client.pid!;
    const closes: CloseInfo[] = [];
    client.on('close', (info) => closes.push(info));
    try {
      const call = client.callTool('trigger-long-running-operation', { duration: 5, steps: 5 });
      await client.ping();
      process.kill(pid, 'SIGKILL');
      await expect(call).rejects.toMatchObject({ code: 'CONNECTION_CLOSED', server: 'doomed', method: 'tools/call' });
      await expect.poll(() => closes.length, { timeout: 5_000 }).toBe(1);
      expect(closes[0]!.error).toMatchObject({
        code: 'CONNECTION_CLOSED',
        message: expect.stringContaining('SIGKILL'),
      });
      expect(client.isClosed).toBe(true);
    } finally {
      await client.close();
    }
    expect(await waitUntilGone(pid)).toBe(true);
  });
});
