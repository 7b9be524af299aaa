/**
 * `checkTrace`: clean traffic (recorded from real servers, and the golden transcripts) gives no
 * violation under mcpwire's rules or the official schemas; each deliberately broken message of
 * spec-fixtures/traces/broken-server.jsonl gives exactly its rule at its record; and the
 * revision-dependent rules follow the revision in force (probe, handshake, 2026 `_meta`).
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { isMcpError } from '../src/protocol/errors.js';
import { MESSAGE_RULES } from '../src/inspect/message-rules/rules.js';
import { readTrace } from '../src/inspect/trace/read-trace.js';
import { checkTrace, type Violation } from '../src/inspect/trace/trace-check.js';
import { TraceBuilder } from '../src/observe/trace-builder.js';
import type { TraceDirection, TraceRecord } from '../src/observe/trace-record.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const TRACES = path.join(ROOT, 'spec-fixtures/traces');
const SCHEMAS = path.resolve(ROOT, '../shared/mcp-spec');
const haveSchemas = existsSync(SCHEMAS);
const NO_SCHEMAS = `the official schemas are not at ${SCHEMAS} (the shared/ folder belongs beside the clone); schema checks skipped`;

const ruleFindings = (violations: Violation[]) =>
  violations.filter((v) => v.source === 'rules').map((v) => [v.index, v.rule] as const);
const describeAll = (violations: Violation[]) =>
  violations.map((v) => `#${v.index} ${v.source} ${v.rule}: ${v.message}`);

/** Records for `[dir, message]` steps of one server, built the way the tracer builds them. */
function traffic(server: string, steps: Array<[TraceDirection, unknown]>): TraceRecord[] {
  let clock = 0;
  const builder = new TraceBuilder({ server, now: () => (clock += 1) });
  return steps.map(([dir, message]) => builder.frame(dir, message));
}
const rq = (id: number | string, method: string, params?: unknown) => ({
  jsonrpc: '2.0',
  id,
  method,
  ...(params === undefined ? {} : { params }),
});
const nt = (method: string, params?: unknown) => ({
  jsonrpc: '2.0',
  method,
  ...(params === undefined ? {} : { params }),
});
const ok = (id: number | string, result: unknown) => ({ jsonrpc: '2.0', id, result });
const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
};
const CACHE = { ttlMs: 0, cacheScope: 'public' };
const initialize = (version: string, capabilities: Record<string, unknown> = {}): Array<[TraceDirection, unknown]> => [
  ['out', rq(1, 'initialize', { protocolVersion: version, capabilities, clientInfo: { name: 't', version: '1' } })],
  ['in', ok(1, { protocolVersion: version, capabilities: { tools: {} }, serverInfo: { name: 's', version: '1' } })],
  ['out', nt('notifications/initialized')],
];

describe('clean traffic has no violations', () => {
  for (const name of ['clean-legacy', 'clean-modern']) {
    it(`${name}.jsonl (recorded from a real server) passes mcpwire's rules`, async () => {
      const { records, problems } = await readTrace(path.join(TRACES, `${name}.jsonl`));
      expect(problems).toEqual([]);
      expect(records.length).toBeGreaterThan(40);
      expect(describeAll(checkTrace(records))).toEqual([]);
    });

    it.skipIf(!haveSchemas)(`${name}.jsonl passes the official schemas too`, async () => {
      const { records } = await readTrace(path.join(TRACES, `${name}.jsonl`));
      expect(describeAll(checkTrace(records, { schemasDir: SCHEMAS }))).toEqual([]);
    });
  }
  if (!haveSchemas) it.skip(NO_SCHEMAS, () => {});

  it('covers both eras: a refused 2026 probe then a 2025-11-25 handshake, and a 2026-07-28 server with input rounds', async () => {
    const legacy = (await readTrace(path.join(TRACES, 'clean-legacy.jsonl'))).records;
    const modern = (await readTrace(path.join(TRACES, 'clean-modern.jsonl'))).records;
    expect(legacy.slice(1, 4).map((r) => [r.kind, r.method])).toEqual([
      ['request', 'server/discover'],
      ['error', 'server/discover'],
      ['request', 'initialize'],
    ]);
    expect(legacy.some((r) => r.method === 'sampling/createMessage' && r.dir === 'in')).toBe(true);
    expect(
      modern.some(
        (r) => (r.message as { result?: { resultType?: string } } | undefined)?.result?.resultType === 'input_required',
      ),
    ).toBe(true);
  });

  it.skipIf(!haveSchemas)('every golden wire transcript passes both checks', () => {
    const dir = path.join(ROOT, 'spec-fixtures/transcripts');
    for (const file of readdirSync(dir)) {
      const steps = readFileSync(path.join(dir, file), 'utf8')
        .split('\n')
        .filter((line) => line.trim())
        .map((line) => JSON.parse(line) as { dir: 'c2s' | 's2c'; msg: unknown })
        .map((l): [TraceDirection, unknown] => [l.dir === 'c2s' ? 'out' : 'in', l.msg]);
      expect(describeAll(checkTrace(traffic(file, steps), { schemasDir: SCHEMAS })), file).toEqual([]);
    }
  });
});

/** Record index → the one rule its broken message breaks (see spec-fixtures/traces/broken-server.ts). */
const BROKEN: Array<readonly [number, string]> = [
  [4, 'result.tools-list'],
  [6, 'result.tools-call'],
  [8, 'initialize.version-unsupported'],
  [10, 'result.next-cursor'],
  [12, 'result.resource-templates-list'],
  [14, 'result.resources-read'],
  [16, 'result.prompts-list'],
  [18, 'result.prompts-get'],
  [20, 'result.completion'],
  [21, 'jsonrpc.unknown-id'],
  [22, 'capability.client-undeclared'],
  [24, 'method.not-in-revision'],
  [25, 'jsonrpc.batch-not-allowed'],
  [27, 'jsonrpc.duplicate-id'],
  [29, 'jsonrpc.id-type'],
  [30, 'jsonrpc.version'],
  [31, 'jsonrpc.parse'],
  [32, 'method.wrong-direction'],
  [33, 'method.wrong-kind'],
  [34, 'jsonrpc.shape'],
  [36, 'result.resources-list'],
  [38, 'result.initialize'],
  [42, 'capability.client-undeclared'],
  [43, 'modern.protocol-version-missing'],
  [46, 'result.result-type'],
  [48, 'result.input-required'],
  [50, 'result.cache'],
  [52, 'result.discover'],
  [53, 'modern.client-capabilities-missing'],
];

describe('broken-server.jsonl: each broken message gives exactly its rule', () => {
  const load = () => readTrace(path.join(TRACES, 'broken-server.jsonl'));

  it('finds one violation per broken message, at its record, and nothing else', async () => {
    const { records, lines } = await load();
    const violations = checkTrace(records, { lines });
    expect(ruleFindings(violations)).toEqual(BROKEN);
    // Lines are 1-based and the file has no blank lines.
    expect(violations.every((v) => v.line === v.index + 1)).toBe(true);
  });

  it('breaks every rule of the catalogue at least once', () => {
    expect(new Set(BROKEN.map(([, rule]) => rule))).toEqual(new Set(Object.keys(MESSAGE_RULES)));
  });

  it('names the field path, the server, the direction and the revision', async () => {
    const violations = checkTrace((await load()).records);
    const at = (index: number) => violations.find((v) => v.index === index)!;
    expect(at(4)).toMatchObject({
      server: 'old',
      dir: 'in',
      id: 2,
      method: 'tools/list',
      revision: '2025-06-18',
      path: 'result.tools[0].inputSchema.type',
      source: 'rules',
    });
    expect(at(4).message).toBe('result.tools[0].inputSchema.type must be "object" (it is a string "string")');
    expect(at(6).message).toBe('result.content[0].text must be a string (it is missing)');
    expect(at(22).message).toContain('no "sampling" capability');
    expect(at(42)).toMatchObject({ server: 'modern', path: 'result.inputRequests.ok', revision: '2026-07-28' });
    expect(at(43)).toMatchObject({ dir: 'out', path: 'params._meta' });
    expect(at(8).message).toContain('"2099-01-01"');
  });

  it.skipIf(!haveSchemas)(
    'with the official schemas: the same rule findings, and schema findings only on broken records',
    async () => {
      const { records } = await load();
      const violations = checkTrace(records, { schemasDir: SCHEMAS });
      expect(ruleFindings(violations)).toEqual(BROKEN);
      const broken = new Set(BROKEN.map(([index]) => index));
      const schema = violations.filter((v) => v.source === 'schema');
      expect(schema.filter((v) => !broken.has(v.index)).map((v) => v.message)).toEqual([]);
      expect(schema.find((v) => v.index === 4)).toMatchObject({
        rule: 'schema.ListToolsResult',
        path: '/result/tools/0/inputSchema/type',
        revision: '2025-06-18',
      });
      expect(schema.find((v) => v.index === 52)).toMatchObject({ rule: 'schema.DiscoverResult', path: '/result' });
      expect(schema.find((v) => v.index === 43)?.message).toContain(
        "required property 'io.modelcontextprotocol/protocolVersion'",
      );
    },
  );
});

describe('rules follow the revision in force', () => {
  it('ping is a method up to 2025-11-25 and gone in 2026-07-28', () => {
    const legacy = traffic('s', [...initialize('2025-11-25'), ['out', rq(2, 'ping')], ['in', ok(2, {})]]);
    expect(checkTrace(legacy)).toEqual([]);
    const modern = traffic('s', [
      ['out', rq(1, 'tools/list', { _meta: META })],
      ['in', ok(1, { resultType: 'complete', tools: [], ...CACHE })],
      ['out', rq(2, 'ping', { _meta: META })],
    ]);
    expect(ruleFindings(checkTrace(modern))).toEqual([[2, 'method.not-in-revision']]);
  });

  it("the era probe's enveloped ping is judged by no era: a legacy server's answer to it is clean, and it settles nothing", () => {
    const probed = traffic('s', [
      ['out', rq(0, 'server/discover', { _meta: META })],
      ['out', rq(1, 'ping', { _meta: META })],
      ['in', ok(1, {})],
      ['in', { jsonrpc: '2.0', id: 0, error: { code: -32601, message: 'Method not found' } }],
      ...initialize('2025-11-25').map(([dir, message]): [TraceDirection, unknown] => [
        dir,
        { ...(message as object), ...('id' in (message as object) ? { id: 9 } : {}) },
      ]),
    ]);
    expect(probed.slice(0, 4).map((r) => r.protocolVersion)).toEqual([undefined, undefined, undefined, undefined]);
    expect(describeAll(checkTrace(probed))).toEqual([]);
  });

  it('batches pass in 2025-03-26 only', () => {
    const batch: [TraceDirection, unknown] = ['out', [rq(2, 'ping'), rq(3, 'tools/list')]];
    const answer: [TraceDirection, unknown] = ['in', [ok(2, {}), ok(3, { tools: [] })]];
    expect(checkTrace(traffic('s', [...initialize('2025-03-26'), batch, answer]))).toEqual([]);
    expect(ruleFindings(checkTrace(traffic('s', [...initialize('2024-11-05'), batch, answer])))).toEqual([
      [3, 'jsonrpc.batch-not-allowed'],
      [4, 'jsonrpc.batch-not-allowed'],
    ]);
  });

  it('a batch item is judged like a message, its path prefixed with its position', () => {
    const v = checkTrace(
      traffic('s', [
        ...initialize('2025-03-26'),
        ['out', [rq(2, 'tools/list')]],
        ['in', [ok(2, { tools: [{ name: 'x' }] })]],
      ]),
    );
    expect(v).toMatchObject([{ index: 4, rule: 'result.tools-list', path: '[0]result.tools[0].inputSchema' }]);
  });

  it('content types follow the revision: audio is not a 2024-11-05 block, resource_link only from 2025-06-18', () => {
    const call = (version: string, block: unknown) =>
      ruleFindings(
        checkTrace(
          traffic('s', [
            ...initialize(version),
            ['out', rq(2, 'tools/call', { name: 'x' })],
            ['in', ok(2, { content: [block] })],
          ]),
        ),
      );
    const audio = { type: 'audio', data: 'AAAA', mimeType: 'audio/wav' };
    const link = { type: 'resource_link', uri: 'test://a', name: 'a' };
    expect(call('2024-11-05', audio)).toEqual([[4, 'result.tools-call']]);
    expect(call('2025-03-26', audio)).toEqual([]);
    expect(call('2025-03-26', link)).toEqual([[4, 'result.tools-call']]);
    expect(call('2025-06-18', link)).toEqual([]);
  });

  it('structuredContent is an object up to 2025-11-25 and any JSON value in 2026-07-28', () => {
    const legacy = traffic('s', [
      ...initialize('2025-06-18'),
      ['out', rq(2, 'tools/call', { name: 'x' })],
      ['in', ok(2, { content: [], structuredContent: [1, 2] })],
    ]);
    expect(ruleFindings(checkTrace(legacy))).toEqual([[4, 'result.tools-call']]);
    const modern = traffic('s', [
      ['out', rq(1, 'tools/call', { name: 'x', _meta: META })],
      ['in', ok(1, { resultType: 'complete', content: [], structuredContent: [1, 2] })],
    ]);
    expect(checkTrace(modern)).toEqual([]);
  });

  it('elicitation modes: {} declares form only, a URL request needs elicitation.url', () => {
    const ask = (capabilities: Record<string, unknown>, mode: 'form' | 'url') =>
      ruleFindings(
        checkTrace(
          traffic('s', [
            ...initialize('2025-11-25', capabilities),
            [
              'in',
              rq(
                0,
                'elicitation/create',
                mode === 'url'
                  ? { mode, message: 'm', url: 'https://x', elicitationId: 'e' }
                  : { mode, message: 'm', requestedSchema: { type: 'object', properties: {} } },
              ),
            ],
          ]),
        ),
      );
    expect(ask({ elicitation: {} }, 'form')).toEqual([]);
    expect(ask({ elicitation: {} }, 'url')).toEqual([[3, 'capability.client-undeclared']]);
    expect(ask({ elicitation: { form: {} } }, 'url')).toEqual([[3, 'capability.client-undeclared']]);
    expect(ask({ elicitation: { url: {} } }, 'url')).toEqual([]);
    expect(ask({ elicitation: { url: {} } }, 'form')).toEqual([[3, 'capability.client-undeclared']]);
    expect(ask({}, 'form')).toEqual([[3, 'capability.client-undeclared']]);
  });

  it('sampling with tools needs sampling.tools', () => {
    const sample = (capabilities: Record<string, unknown>) =>
      checkTrace(
        traffic('s', [
          ...initialize('2025-11-25', capabilities),
          ['in', rq(0, 'sampling/createMessage', { messages: [], maxTokens: 5, tools: [] })],
        ]),
      );
    expect(sample({ sampling: { tools: {} } })).toEqual([]);
    expect(sample({ sampling: {} })).toMatchObject([
      { rule: 'capability.client-undeclared', message: expect.stringContaining('"sampling.tools"') },
    ]);
  });

  it('a resultType from the tasks extension is known only to a client that declared the extension', () => {
    const withTasks = {
      ...META,
      'io.modelcontextprotocol/clientCapabilities': { extensions: { 'io.modelcontextprotocol/tasks': {} } },
    };
    const answer: [TraceDirection, unknown] = [
      'in',
      ok(1, { resultType: 'task', taskId: 't1', status: 'working', ttlMs: 1000 }),
    ];
    expect(checkTrace(traffic('s', [['out', rq(1, 'tools/call', { name: 'x', _meta: withTasks })], answer]))).toEqual(
      [],
    );
    expect(
      ruleFindings(checkTrace(traffic('s', [['out', rq(1, 'tools/call', { name: 'x', _meta: META })], answer]))),
    ).toEqual([[1, 'result.result-type']]);
  });

  it('a cancelled request may still be answered, and its id may be used again', () => {
    const records = traffic('s', [
      ...initialize('2025-11-25'),
      ['out', rq(2, 'tools/call', { name: 'slow' })],
      ['out', nt('notifications/cancelled', { requestId: 2 })],
      ['in', ok(2, { content: [] })],
      ['out', rq(3, 'tools/call', { name: 'slow' })],
      ['out', nt('notifications/cancelled', { requestId: 3 })],
      ['out', rq(3, 'ping')],
      ['in', ok(3, {})],
    ]);
    expect(checkTrace(records)).toEqual([]);
  });

  it('ids start over after a restart (a new spawn) or a new initialize', () => {
    const builder = new TraceBuilder({ server: 's' });
    const records = [
      ...initialize('2025-11-25'),
      ['out', rq(2, 'tools/call', { name: 'crash' })],
      ['event', 'exit'],
      ['event', 'spawn'],
      ...initialize('2025-11-25'),
      ['out', rq(2, 'tools/list')],
      ['in', ok(2, { tools: [] })],
    ].map(([dir, value]) =>
      dir === 'event' ? builder.event(value as string) : builder.frame(dir as TraceDirection, value),
    );
    expect(checkTrace(records)).toEqual([]);
    // Without the events the second initialize alone starts a new session as well.
    expect(checkTrace(records.filter((r) => r.kind !== 'event'))).toEqual([]);
  });

  it('servers keep their own sessions in an interleaved file', () => {
    const a = new TraceBuilder({ server: 'a' });
    const b = new TraceBuilder({ server: 'b' });
    const [initA, initResultA] = initialize('2024-11-05');
    const records = [
      a.frame('out', initA![1]),
      b.frame('out', rq(1, 'tools/list', { _meta: META })),
      a.frame('in', initResultA![1]),
      b.frame('in', ok(1, { resultType: 'complete', tools: [], ...CACHE })),
      a.frame('out', rq(2, 'tools/list')),
      b.frame('out', rq(2, 'tools/list', { _meta: META })),
      // Legacy results carry no resultType: "a" must not be judged by "b"'s 2026-07-28.
      a.frame('in', ok(2, { tools: [] })),
      b.frame('in', ok(2, { resultType: 'complete', tools: [], ...CACHE })),
    ];
    expect(checkTrace(records)).toEqual([]);
  });

  it('a server whose revision is unknown gets only the revision-free rules', () => {
    const records = traffic('s', [
      ['out', rq(1, 'tools/list')],
      ['in', ok(1, { tools: [{ name: 'x', inputSchema: {} }] })],
      ['in', nt('notifications/whatever')],
    ]);
    expect(ruleFindings(checkTrace(records))).toEqual([[1, 'result.tools-list']]);
  });
});

describe('schemas directory', () => {
  const empty = mkdtempSync(path.join(tmpdir(), 'mcpwire-schemas-'));
  afterAll(() => rmSync(empty, { recursive: true, force: true }));

  it('a directory that does not exist is an INVALID_ARGUMENT error', () => {
    const records = traffic('s', initialize('2025-11-25'));
    let caught: unknown;
    try {
      checkTrace(records, { schemasDir: path.join(empty, 'nope') });
    } catch (error) {
      caught = error;
    }
    expect(isMcpError(caught, 'INVALID_ARGUMENT')).toBe(true);
  });

  it('a revision without a schema there is noted once, with how many messages went unchecked', () => {
    const notes: string[] = [];
    const records = traffic('s', initialize('2025-11-25'));
    expect(checkTrace(records, { schemasDir: empty, onNote: (n) => notes.push(n) })).toEqual([]);
    expect(notes).toEqual([`no schema for revision 2025-11-25 in ${empty}: 3 messages not checked against a schema`]);
  });
});
