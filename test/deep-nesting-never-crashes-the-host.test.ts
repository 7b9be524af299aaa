/**
 * A peer's value nested deeper than any recursive walk survives (a 200 KB line of `[[[…]]]`) must
 * never throw out of a transport's event handler: over stdio the host process lives on, over HTTP
 * the real response behind it still arrives. Every message is handled where it can be, failures
 * land on their request as McpErrors naming server and method, and diagnostics stay small.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { McpClient } from '../src/client/mcp-client.js';
import { planParamHeaders } from '../src/client/x-mcp-header.js';
import { sampleValue } from '../src/protocol/value-sample.js';
import type { TransportDiagnostic } from '../src/protocol/transport.js';
import { StdioTransport } from '../src/transport/stdio/stdio.js';
import { TraceBuilder } from '../src/observe/trace-builder.js';
import { legacyServer, openSse, result, sse } from './support/http-fixture.js';
import { eventually, FIXTURES } from './support/processes.js';
import { useHttpScene } from './support/http-scene.js';

const ROOT = path.resolve(FIXTURES, '../..');
const DEPTH = 100_000;
const nestedText = (depth = DEPTH) => '['.repeat(depth) + ']'.repeat(depth);

interface HostReport {
  outcomes: Record<string, { ok: boolean; text?: unknown; code?: unknown; message?: string }>;
  diagnostics: Array<{ kind: string; message: string; sampleLength: number | undefined }>;
  logs: number;
  records: number;
}

/** Runs test/support/deep-nesting-host.ts in a plain node process (bounded); resolves with how it ended. */
function runHost(traced: boolean): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const args = [
    '--import',
    'tsx',
    path.join(ROOT, 'test/support/deep-nesting-host.ts'),
    path.join(FIXTURES, 'stdio', 'deep-nesting.mjs'),
  ];
  if (traced) args.push('traced');
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 45_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

function expectSurvived(run: { code: number | null; stdout: string; stderr: string }): HostReport {
  expect(run.stderr, 'the host must not die of an uncaught exception').not.toContain('RangeError');
  expect(run.code).toBe(0);
  expect(run.stderr).not.toContain('trace sink failed');
  return JSON.parse(run.stdout.trim()) as HostReport;
}

describe('a stdio server sending values nested 100,000 levels deep', () => {
  for (const traced of [false, true]) {
    it(`leaves the host process alive and every call settled with a clear outcome${traced ? ' (traced, every record writable)' : ''}`, async () => {
      const report = expectSurvived(await runHost(traced));
      expect(report.outcomes).toMatchObject({
        // The bare nested line is skipped with a diagnostic; the answer behind it still arrives.
        'deep-line-then-answer': { ok: true, text: 'answered' },
        'deep-notification': { ok: true, text: 'answered' },
        'deep-result-field': {
          ok: false,
          code: 'PROTOCOL',
          message: 'server "deep": tools/call got a malformed response: field "result" must be an object',
        },
        'deep-error': {
          ok: false,
          code: 'SERVER_ERROR',
          message: 'server "deep": tools/call failed: deep data (-32000)',
        },
        'deep-structured': { ok: false, code: 'OUTPUT_SCHEMA_MISMATCH' },
      });
      expect(report.outcomes['deep-structured']!.message).toMatch(
        /^server "deep": tools\/call tool "deep-structured" returned structuredContent that could not be checked against its outputSchema \(nested too deeply/,
      );
      expect(report.logs).toBe(1);
      expect(report.diagnostics.map((d) => d.message)).toEqual([
        'a batch is not a single message',
        'field "result" must be an object',
      ]);
      // Samples of a 200 KB line are 200 characters and an ellipsis.
      for (const d of report.diagnostics) expect(d.sampleLength).toBe(201);
      if (traced) expect(report.records).toBeGreaterThan(10);
    });
  }
});

describe('a StdioTransport listener that chokes on a value', () => {
  it('becomes a listener-failed diagnostic with a bounded sample, and the next message still arrives', async () => {
    const t = await StdioTransport.spawn(
      { command: process.execPath, args: [path.join(FIXTURES, 'stdio', 'deep-nesting.mjs')] },
      { name: 'deep' },
    );
    try {
      const diagnostics: TransportDiagnostic[] = [];
      t.onDiagnostic((d) => diagnostics.push(d));
      const sizes: number[] = [];
      // A naive listener: JSON.stringify overflows on the nested line and throws.
      t.onMessage((value) => sizes.push(JSON.stringify(value).length));
      await t.send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'deep-line-then-answer' } });
      await eventually(() => (sizes.length === 1 ? true : undefined));
      expect(diagnostics).toEqual([
        {
          kind: 'listener-failed',
          message: 'a message listener threw: Maximum call stack size exceeded',
          sample: `${'['.repeat(200)}…`,
        },
      ]);
    } finally {
      await t.close();
    }
  });
});

describe('an HTTP server sending a deeply nested event before the response', () => {
  const scene = useHttpScene<McpClient>();

  it('still delivers the response on the same SSE stream, with a diagnostic for the nested value', async () => {
    await scene.start((seen, res) => {
      if (seen.rpc !== 'tools/call') return false;
      openSse(res);
      sse(res, nestedText());
      sse(res, result(seen, { content: [{ type: 'text', text: 'the real answer' }] }));
      res.end();
      return true;
    }, legacyServer());
    scene.client = await McpClient.connect(
      { url: scene.fixture.url, transport: 'http' },
      { name: 'remote', era: 'legacy' },
    );
    const invalid: Array<{ message: string; sample?: string }> = [];
    scene.client.on('diagnostic', (d) => void (d.kind === 'invalid-message' && invalid.push(d)));
    await expect(scene.client.callTool('echo', {})).resolves.toMatchObject({ content: [{ text: 'the real answer' }] });
    expect(invalid).toEqual([
      { kind: 'invalid-message', message: 'a batch is not a single message', sample: `${'['.repeat(200)}…` },
    ]);
  });

  it('still delivers the response that follows it in a JSON batch body, instead of failing the call as not sent', async () => {
    await scene.start((seen, res) => {
      if (seen.rpc !== 'tools/call') return false;
      const answer = JSON.stringify(result(seen, { content: [{ type: 'text', text: 'the real answer' }] }));
      res.writeHead(200, { 'content-type': 'application/json' }).end(`[${nestedText()},${answer}]`);
      return true;
    }, legacyServer());
    scene.client = await McpClient.connect(
      { url: scene.fixture.url, transport: 'http' },
      { name: 'remote', era: 'legacy' },
    );
    const invalid: Array<{ message: string }> = [];
    scene.client.on('diagnostic', (d) => void (d.kind === 'invalid-message' && invalid.push(d)));
    await expect(scene.client.callTool('echo', {})).resolves.toMatchObject({ content: [{ text: 'the real answer' }] });
    expect(invalid.map((d) => d.message)).toEqual(['a batch is not a single message']);
  });
});

describe('what reads a peer value keeps to a bound', () => {
  it('a sample reads only as much of a value as it shows, at any depth or size', () => {
    let reads = 0;
    const huge = new Proxy(new Array<number>(1_000_000).fill(7), {
      get(target, key, receiver) {
        if (typeof key === 'string' && /^\d+$/.test(key)) reads++;
        return Reflect.get(target, key, receiver);
      },
    });
    expect(sampleValue(huge)).toBe(`[${'7,'.repeat(99)}7…`);
    expect(reads).toBeLessThanOrEqual(101);
    expect(sampleValue(JSON.parse(nestedText()))).toBe(`${'['.repeat(200)}…`);
    expect(sampleValue('x'.repeat(16 * 1024 * 1024))).toBe(`"${'x'.repeat(199)}…`);
    expect(sampleValue({ a: [1, { b: null }], c: undefined, d: 'e' })).toBe('{"a":[1,{"b":null}],"d":"e"}');
  });

  it('a trace record of a value JSON cannot write keeps its kind and id and carries a sample instead', () => {
    const builder = new TraceBuilder({ server: 'deep', secrets: ['sk-secret-value'] });
    builder.frame('out', { jsonrpc: '2.0', id: 3, method: 'tools/call', params: {} });
    const value = JSON.parse(`{"jsonrpc":"2.0","id":3,"result":{"deep":${nestedText()}}}`) as unknown;
    const record = builder.frame('in', value);
    expect(record).toMatchObject({ kind: 'response', id: 3, method: 'tools/call' });
    expect(record.message).toBeUndefined();
    expect(record.raw).toMatch(/^\{"jsonrpc":"2\.0","id":3,"result":\{"deep":\[\[\[/);
    expect(() => JSON.stringify(record)).not.toThrow();
  });

  it('a tool whose inputSchema is nested too deeply to check is left out, not thrown', () => {
    let schema: Record<string, unknown> = { type: 'string', 'x-mcp-header': 'Deep' };
    for (let i = 0; i < DEPTH; i++) schema = { type: 'object', properties: { p: schema } };
    const plan = planParamHeaders({ name: 'deep', inputSchema: schema });
    expect(plan.ok).toBe(false);
    expect((plan as { reason: string }).reason).toMatch(
      /^its inputSchema could not be checked for x-mcp-header markings/,
    );
  });
});
