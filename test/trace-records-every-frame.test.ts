/**
 * `McpClient.connect(…, { trace })` over real stdio servers: every frame both ways becomes one
 * record (requests correlated with their answers, with latency), the revision shows up once it is
 * known, notifications and junk are recorded, the process's spawn, exit and close are events,
 * configured secrets never reach a record or the JSONL file, and the file parses line by line.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { McpClient } from '../src/client/mcp-client.js';
import { jsonlFileSink } from '../src/inspect/trace/sinks.js';
import type { TraceRecord } from '../src/observe/trace-record.js';
import { FIXTURES } from './support/processes.js';

const LEGACY = path.join(FIXTURES, 'legacy', 'scripted-server.mjs');
const MODERN = path.join(FIXTURES, 'modern', 'v2-server.mjs');
const JUNK = path.join(path.dirname(fileURLToPath(import.meta.url)), 'support', 'junk-then-legacy-server.mjs');
const SECRET = 'hunter2-config-secret-value';

const open: McpClient[] = [];
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((client) => client.close()));
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function traced(
  args: string[],
  name: string,
  secrets: string[] = [],
): Promise<{ client: McpClient; records: TraceRecord[] }> {
  const records: TraceRecord[] = [];
  const client = await McpClient.connect(
    { command: process.execPath, args },
    { name, trace: { sink: (record) => records.push(record), secrets } },
  );
  open.push(client);
  return { client, records };
}

/** Every request record of `records` with the one answer (response or error) carrying its id. */
function pairs(
  records: TraceRecord[],
  requestDir: 'out' | 'in' = 'out',
): Array<{ request: TraceRecord; answers: TraceRecord[] }> {
  const answerDir = requestDir === 'out' ? 'in' : 'out';
  return records
    .filter((r) => r.kind === 'request' && r.dir === requestDir)
    .map((request) => ({
      request,
      answers: records.filter(
        (r) => r.dir === answerDir && (r.kind === 'response' || r.kind === 'error') && r.id === request.id,
      ),
    }));
}

describe('tracing a legacy stdio server', () => {
  it('records every request with exactly one correlated answer: same id, its method, a non-negative latency, later in time', async () => {
    const { client, records } = await traced([LEGACY], 'legacy');
    await client.listTools();
    await client.callTool('echo', { text: 'hi' });
    await client.callTool('add', { a: 1, b: 2 });
    await expect(client.readResource('test://nope')).rejects.toThrow();
    await client.close();

    const all = pairs(records);
    // The probe's ping rides behind it on stdio (a legacy server answers it, see era-probe.ts).
    expect(all.map((p) => p.request.method)).toEqual([
      'server/discover',
      'ping',
      'initialize',
      'tools/list',
      'tools/call',
      'tools/call',
      'resources/read',
    ]);
    for (const { request, answers } of all) {
      expect(answers, `answers to ${request.method} #${request.id}`).toHaveLength(1);
      const [answer] = answers;
      expect(answer!.method).toBe(request.method);
      expect(answer!.latencyMs).toBeGreaterThanOrEqual(0);
      expect(answer!.t).toBeGreaterThanOrEqual(request.t);
      expect(records.indexOf(answer!)).toBeGreaterThan(records.indexOf(request));
    }
    // The refused probe and the unknown resource are error records; the rest responses.
    expect(all.map((p) => p.answers[0]!.kind)).toEqual([
      'error',
      'response',
      'response',
      'response',
      'response',
      'response',
      'error',
    ]);
    // Frames carry what crossed the wire, and its size in UTF-8 bytes.
    for (const record of records.filter((r) => r.kind !== 'event')) {
      expect(record).toMatchObject({ v: 1, server: 'legacy' });
      expect(record.bytes).toBe(Buffer.byteLength(JSON.stringify(record.message)));
      expect(Number.isNaN(Date.parse(record.ts))).toBe(false);
    }
  });

  it('the revision appears from the initialize response on, not before (the refused 2026 probe sets none)', async () => {
    const { client, records } = await traced([LEGACY, '--version', '2025-06-18'], 'legacy');
    await client.listTools();
    const answer = records.findIndex((r) => r.kind === 'response' && r.method === 'initialize');
    expect(answer).toBeGreaterThan(0);
    expect(records.slice(0, answer).map((r) => r.protocolVersion)).toEqual(
      records.slice(0, answer).map(() => undefined),
    );
    expect(records.slice(answer).map((r) => r.protocolVersion)).toEqual(records.slice(answer).map(() => '2025-06-18'));
  });

  it('records notifications both ways: initialized going out, log messages and progress coming in', async () => {
    const { client, records } = await traced([LEGACY], 'legacy');
    await client.callTool('log', { level: 'warning', message: 'careful' });
    await client.callTool('slow', { ms: 20, steps: 2 }, { onProgress: () => undefined });
    const notifications = records.filter((r) => r.kind === 'notification').map((r) => `${r.dir} ${r.method}`);
    expect(notifications).toEqual([
      'out notifications/initialized',
      'in notifications/message',
      'in notifications/progress',
      'in notifications/progress',
    ]);
    const log = records.find((r) => r.method === 'notifications/message')!;
    expect(log.message).toMatchObject({ params: { level: 'warning', data: 'careful' } });
    expect(log.id).toBeUndefined();
  });

  it('records a server→client request and the client answer, correlated the other way round', async () => {
    const { client, records } = await traced([LEGACY], 'legacy');
    // The fixture asks for roots; this client has no roots handler, so it answers with an error.
    await client.callTool('ask-roots', {});
    const [inbound] = pairs(records, 'in');
    expect(inbound!.request).toMatchObject({ dir: 'in', kind: 'request', method: 'roots/list' });
    expect(inbound!.answers).toHaveLength(1);
    expect(inbound!.answers[0]).toMatchObject({ dir: 'out', method: 'roots/list' });
    expect(inbound!.answers[0]!.latencyMs).toBeGreaterThanOrEqual(0);
  });

  it('records the spawn (pid, command, arguments, no environment), then the exit and the close', async () => {
    const records: TraceRecord[] = [];
    const client = await McpClient.connect(
      { command: process.execPath, args: [LEGACY, '--banner'], env: { FIXTURE_TOKEN: 'env-value-never-traced' } },
      { name: 'legacy', trace: { sink: (record) => records.push(record) } },
    );
    open.push(client);
    const pid = client.pid;
    await client.close();
    expect(records[0]).toMatchObject({
      kind: 'event',
      event: 'spawn',
      dir: 'out',
      bytes: 0,
      detail: { pid, command: process.execPath, args: [LEGACY, '--banner'] },
    });
    expect(Object.keys(records[0]!.detail!).sort()).toEqual(['args', 'command', 'pid']);
    const tail = records.slice(-2);
    expect(tail).toMatchObject([
      { kind: 'event', event: 'exit', detail: { code: 0, signal: null } },
      { kind: 'event', event: 'close', detail: {} },
    ]);
    expect(JSON.stringify(records)).not.toContain('env-value-never-traced');
  });

  it('a server that crashes leaves an exit and a close event with the error', async () => {
    const { client, records } = await traced([LEGACY], 'legacy');
    await expect(client.callTool('crash', {})).rejects.toThrow();
    await client.closed;
    await client.close();
    const exit = records.find((r) => r.event === 'exit');
    const close = records.find((r) => r.event === 'close');
    expect(exit?.detail).toEqual({ code: 1, signal: null });
    expect(close?.detail).toMatchObject({
      code: 'CONNECTION_CLOSED',
      error: expect.stringContaining('exited with code 1'),
    });
    expect(records.filter((r) => r.event === 'exit')).toHaveLength(1);
  });

  it('a server the probe killed is restarted: both processes are in one trace, on one clock', async () => {
    const { client, records } = await traced([LEGACY, '--discover', 'exit'], 'fragile');
    await client.listTools();
    const lines = records.map((r) => (r.kind === 'event' ? r.event : `${r.dir} ${r.kind} ${r.method}`));
    expect(lines.slice(0, 7)).toEqual([
      'spawn',
      'out request server/discover',
      'out request ping',
      'exit',
      'close',
      'spawn',
      'out request initialize',
    ]);
    const [first, second] = records.filter((r) => r.event === 'spawn');
    expect(first!.detail!.pid).not.toBe(second!.detail!.pid);
    expect(second!.detail!.pid).toBe(client.pid);
    expect(records.find((r) => r.event === 'exit')?.detail).toEqual({ code: 3, signal: null });
    const times = records.map((r) => r.t);
    expect(times).toEqual([...times].sort((a, b) => a - b));
  });

  it('junk on stdout becomes invalid records with the raw text, and the traffic goes on', async () => {
    const { client, records } = await traced([JUNK], 'noisy');
    expect((await client.callTool('echo', { text: 'still fine' })).content).toEqual([
      { type: 'text', text: 'still fine' },
    ]);
    const invalid = records.filter((r) => r.kind === 'invalid');
    expect(invalid.map((r) => r.raw)).toEqual(['booting the server... (not JSON)', '{"half": ']);
    expect(invalid.every((r) => r.dir === 'in' && r.message === undefined && r.bytes > 0)).toBe(true);
  });

  it('configured secrets never appear in a record or in the JSONL file, which parses line by line', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'mcpwire-trace-'));
    dirs.push(dir);
    const file = path.join(dir, 'trace.jsonl');
    const jsonl = jsonlFileSink(file);
    const records: TraceRecord[] = [];
    const client = await McpClient.connect(
      { command: process.execPath, args: [LEGACY] },
      {
        name: 'legacy',
        trace: {
          sink: (record) => {
            records.push(record);
            jsonl.sink(record);
          },
          secrets: [SECRET],
        },
      },
    );
    open.push(client);
    // The secret goes out in the params and comes back in the result: neither may be traced.
    const result = await client.callTool('echo', { text: `token=${SECRET}` });
    expect(result.content).toEqual([{ type: 'text', text: `token=${SECRET}` }]);
    await client.close();
    await jsonl.close();

    expect(JSON.stringify(records)).not.toContain(SECRET);
    const call = records.find((r) => r.kind === 'request' && r.method === 'tools/call');
    expect(call?.message).toMatchObject({ params: { name: 'echo', arguments: { text: 'token=***' } } });
    const text = await readFile(file, 'utf8');
    expect(text).not.toContain(SECRET);
    expect(text.endsWith('\n')).toBe(true);
    const lines = text.slice(0, -1).split('\n');
    expect(lines.map((line) => JSON.parse(line) as TraceRecord)).toEqual(records);
  });
});

describe('tracing a modern stdio server', () => {
  it('takes the revision from the answered request _meta: on the discover answer and every record after', async () => {
    const { client, records } = await traced([MODERN], 'modern');
    expect(client.era).toBe('modern');
    await client.callTool('echo', { text: 'hi' });
    const discover = pairs(records).find((p) => p.request.method === 'server/discover')!;
    expect(discover.request.protocolVersion).toBeUndefined();
    expect(discover.answers[0]).toMatchObject({ kind: 'response', protocolVersion: '2026-07-28' });
    const after = records.slice(records.indexOf(discover.answers[0]!));
    expect(after.every((r) => r.protocolVersion === '2026-07-28')).toBe(true);
    const call = pairs(records).find((p) => p.request.method === 'tools/call')!;
    expect(call.answers).toHaveLength(1);
    expect(call.answers[0]).toMatchObject({ kind: 'response', method: 'tools/call' });
  });
});
