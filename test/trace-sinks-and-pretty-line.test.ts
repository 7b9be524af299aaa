/**
 * The trace sinks: the JSONL file appends one parseable object per line, flushes on close and
 * reports a write failure once instead of throwing; the stream sink writes JSON or pretty lines;
 * the pretty line carries the summary of a record, colours only when asked, and never passes a
 * peer's control characters through to the terminal.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { jsonlFileSink, prettyTraceLine, streamSink } from '../src/inspect/trace/sinks.js';
import { TraceBuilder } from '../src/observe/trace-builder.js';
import type { TraceRecord } from '../src/observe/trace-record.js';

const ESC = '\u001b';
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

/** A small exchange as a tracer would record it, on a fixed clock. */
function sampleRecords(): TraceRecord[] {
  let now = 1_000;
  const builder = new TraceBuilder({ server: 'fs', now: () => now });
  const records: TraceRecord[] = [];
  records.push(builder.event('spawn', { pid: 12, command: 'node', args: ['server.js'] }, 'out'));
  now += 2;
  records.push(
    builder.frame(
      'out',
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'read', arguments: { path: '/tmp/x' } } },
      undefined,
      { method: 'POST', url: 'http://127.0.0.1:1/mcp' },
    ),
  );
  now += 12.5;
  records.push(
    builder.frame('in', { jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'no such file' } }, undefined, {
      method: 'POST',
      url: 'http://127.0.0.1:1/mcp',
      status: 200,
    }),
  );
  records.push(
    builder.frame('in', {
      jsonrpc: '2.0',
      method: 'notifications/message',
      params: { level: 'info', data: 'x'.repeat(500) },
    }),
  );
  records.push(builder.invalid('in', 'Server starting... (not JSON)'));
  return records;
}

describe('prettyTraceLine', () => {
  it('summarises each record on one line: time, server, arrow, kind, method, id, latency, bytes, status, shortened body', () => {
    const [spawn, request, error, note, junk] = sampleRecords().map((r) => prettyTraceLine(r, { color: false }));
    expect(spawn).toBe('+0.000s fs → spawn {"pid":12,"command":"node","args":["server.js"]}');
    expect(request).toMatch(
      /^\+0\.002s fs → request tools\/call #1 \d+B POST \{"name":"read","arguments":\{"path":"\/tmp\/x"\}\}$/,
    );
    expect(error).toMatch(
      /^\+0\.015s fs ← error tools\/call #1 12\.5ms \d+B HTTP 200 \{"code":-32602,"message":"no such file"\}$/,
    );
    expect(note).toContain('← notification notifications/message');
    expect(note!.length).toBeLessThan(200);
    expect(note!.endsWith('…')).toBe(true);
    expect(junk).toBe('+0.015s fs ← invalid 29B "Server starting... (not JSON)"');
    for (const line of [spawn, request, error, note, junk]) {
      expect(line).not.toContain(ESC);
      expect(line).not.toContain('\n');
    }
  });

  it('colours errors red and requests cyan only when asked', () => {
    const [, request, error] = sampleRecords();
    expect(prettyTraceLine(error!, { color: true })).toContain(`${ESC}[31merror${ESC}[0m`);
    expect(prettyTraceLine(request!, { color: true })).toContain(`${ESC}[36mrequest${ESC}[0m`);
  });

  it('masks control characters a peer put in a method or a raw line', () => {
    const builder = new TraceBuilder({ server: 'evil' });
    const sneaky = builder.frame('in', { jsonrpc: '2.0', method: `notifications/${ESC}[2Jclear\u009b31m` });
    const raw = builder.invalid('in', `junk${ESC}]0;title\u0007`);
    for (const line of [
      prettyTraceLine(sneaky, { color: false }),
      prettyTraceLine(raw, { color: false }),
      prettyTraceLine(sneaky, { color: true }),
    ]) {
      expect(line).not.toMatch(/[\u0007\u009b]/);
      expect(line.replace(/\u001b\[\d+m/g, '')).not.toContain(ESC);
    }
  });
});

describe('jsonlFileSink', () => {
  it('appends one JSON object per line to an existing file and flushes on close (idempotent)', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'mcpwire-sink-'));
    dirs.push(dir);
    const file = path.join(dir, 'trace.jsonl');
    await writeFile(file, '{"earlier":true}\n');
    const jsonl = jsonlFileSink(file);
    const records = sampleRecords();
    for (const record of records) jsonl.sink(record);
    const closing = jsonl.close();
    expect(jsonl.close()).toBe(closing);
    await closing;
    jsonl.sink(records[0]!); // after close: dropped, not thrown
    const lines = (await readFile(file, 'utf8')).trimEnd().split('\n');
    expect(lines.map((line) => JSON.parse(line) as unknown)).toEqual([{ earlier: true }, ...records]);
  });

  it('reports a file it cannot write once, and never throws into the caller', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'mcpwire-sink-'));
    dirs.push(dir);
    const errors: Error[] = [];
    const jsonl = jsonlFileSink(path.join(dir, 'missing', 'dir', 'trace.jsonl'), {
      onError: (error) => errors.push(error),
    });
    for (const record of sampleRecords()) expect(() => jsonl.sink(record)).not.toThrow();
    await jsonl.close();
    for (const record of sampleRecords()) jsonl.sink(record);
    expect(errors).toHaveLength(1);
    expect(errors[0]!.message).toContain('ENOENT');
  });
});

describe('streamSink', () => {
  it('writes JSON lines by default and pretty lines when asked; a throwing stream is ignored', () => {
    const written: string[] = [];
    const out = { write: (text: string) => written.push(text) };
    const [spawn] = sampleRecords();
    streamSink(out)(spawn!);
    streamSink(out, { pretty: true })(spawn!);
    expect(JSON.parse(written[0]!)).toEqual(spawn);
    expect(written[1]).toBe(`${prettyTraceLine(spawn!, { color: false })}\n`);
    const broken = streamSink({
      write: () => {
        throw new Error('EPIPE');
      },
    });
    expect(() => broken(spawn!)).not.toThrow();
  });
});
