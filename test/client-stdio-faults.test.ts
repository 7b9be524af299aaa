import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { McpClient } from '../src/client/mcp-client.js';
import type { ClientOptions } from '../src/client/options.js';
import { eventually, FIXTURES, isAlive } from './support/processes.js';
import { recordedMethods } from './support/jsonl.js';

const server = path.join(FIXTURES, 'legacy', 'scripted-server.mjs');
const clients: McpClient[] = [];

async function connect(args: string[] = [], options: ClientOptions = {}) {
  const client = await McpClient.connect(
    { command: process.execPath, args: [server, ...args] },
    { name: 'scripted', probeTimeoutMs: 1_000, ...options },
  );
  clients.push(client);
  return client;
}

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

describe('a stdio server that misbehaves', () => {
  it('dies before answering initialize: connect rejects with CONNECTION_CLOSED quoting its stderr, and nothing is left running', async () => {
    const error = await McpClient.connect(
      { command: process.execPath, args: [server, '--die-before-initialize'] },
      { name: 'doomed' },
    ).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'CONNECTION_CLOSED', method: 'initialize', server: 'doomed' });
    expect((error as Error).message).toContain(
      'the server exited with code 1; last stderr: fatal: config file missing',
    );
  });

  it('dies mid-call: every pending call rejects with CONNECTION_CLOSED well before its timeout', async () => {
    const client = await connect(['--die-on-call', 'boom'], { requestTimeoutMs: 60_000 });
    const closes: unknown[] = [];
    client.on('close', (info) => closes.push(info));
    const started = Date.now();
    const waiting = client.callTool('never-answer').catch((e: unknown) => e);
    const dying = client.callTool('boom').catch((e: unknown) => e);
    const [a, b] = await Promise.all([waiting, dying]);
    expect(Date.now() - started).toBeLessThan(5_000);
    for (const error of [a, b]) {
      expect(error).toMatchObject({ code: 'CONNECTION_CLOSED', server: 'scripted', method: 'tools/call' });
      expect((error as Error).message).toContain('fatal: boom blew up');
    }
    await eventually(() => (closes.length ? true : undefined));
    expect(client.pid && isAlive(client.pid)).toBe(false);
  });

  it('never answers: the call times out with TIMEOUT and the server is told with notifications/cancelled', async () => {
    const stderr: string[] = [];
    const client = await connect([], {});
    client.on('stderr', (line) => stderr.push(line));
    await expect(client.callTool('never-answer', {}, { timeoutMs: 300 })).rejects.toMatchObject({
      code: 'TIMEOUT',
      method: 'tools/call',
    });
    const line = await eventually(() => stderr.find((l) => l.startsWith('cancelled ')));
    expect(Number(line.split(' ')[1])).toBeGreaterThan(0);
    await expect(client.callTool('echo', { text: 'still alive' })).resolves.toMatchObject({
      content: [{ text: 'still alive' }],
    });
  });

  it('a cancelled call is distinct from a timeout and leaves the session usable', async () => {
    const client = await connect();
    const stderr: string[] = [];
    client.on('stderr', (line) => stderr.push(line));
    const controller = new AbortController();
    // The abort comes while the server is working on the call: at its first progress report.
    const call = client
      .callTool(
        'slow',
        { ms: 60_000, steps: 600 },
        { signal: controller.signal, onProgress: () => controller.abort(new Error('user gave up')) },
      )
      .catch((e: unknown) => e);
    expect(await call).toMatchObject({ code: 'CANCELLED', cause: new Error('user gave up') });
    await client.ping();
    await eventually(() => stderr.find((l) => l.startsWith('cancelled ')), { what: 'the server logging the cancel' });
  });

  it('keeps a long call alive through progress with a short idle timeout', async () => {
    const client = await connect();
    const seen: number[] = [];
    // 2 s in all, three times the idle timeout; progress every 200 ms leaves room for a slow machine.
    const result = await client.callTool(
      'slow',
      { ms: 2_000, steps: 10 },
      { timeoutMs: 700, onProgress: (p) => seen.push(p.progress) },
    );
    expect(result.content[0]).toMatchObject({ text: 'done after 10 steps' });
    expect(seen).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });
});

describe('stderr', () => {
  it('reaches onStderr from the first line, before connect resolves', async () => {
    const lines: string[] = [];
    await connect(['--banner'], { onStderr: (line) => lines.push(line) });
    await eventually(() => (lines.length ? true : undefined));
    expect(lines[0]).toBe('scripted server starting up');
  });
});

describe('era detection against real processes', () => {
  for (const mode of ['method-not-found', 'invalid-params', 'silent'] as const) {
    it(`goes legacy when the probe is answered with ${mode}`, async () => {
      const client = await connect(['--discover', mode, '--version', '2025-06-18'], { probeTimeoutMs: 300 });
      expect(client.era).toBe('legacy');
      expect(client.protocolVersion).toBe('2025-06-18');
      await client.ping();
    });
  }

  it('restarts a server that exits on the probe and runs the legacy handshake on the new process', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'mcpwire-'));
    const record = path.join(dir, 'received.jsonl');
    const client = await connect(['--discover', 'exit', '--record', record]);
    expect(client.era).toBe('legacy');
    await client.callTool('echo', { text: 'after restart' });
    const methods = recordedMethods(record);
    expect(methods.slice(0, 4)).toEqual(['server/discover', 'initialize', 'notifications/initialized', 'tools/call']);
  });

  it('sends no initialize before the probe and its ping, and nothing but the handshake after a silent probe', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'mcpwire-'));
    const record = path.join(dir, 'received.jsonl');
    const client = await connect(['--discover', 'silent', '--record', record], { probeTimeoutMs: 200 });
    const read = () => recordedMethods(record);
    // The server records lines in order before it answers: after a ping round trip, the record
    // holds everything the client sent before it.
    await client.ping();
    expect(read()).toEqual(['server/discover', 'ping', 'initialize', 'notifications/initialized', 'ping']);
  });
});
