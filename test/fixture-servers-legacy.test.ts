/**
 * The scripted legacy fixture server (spec-fixtures/servers/legacy/scripted-server.mjs) behaves
 * as its header documents. Driven with raw NDJSON over child_process pipes: no client involved.
 * Everything it sends in a tour of each revision is valid under that revision's official schema.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import { hasSchema, validateMessage } from './kit/spec-schemas.js';
import { eventually, FIXTURES } from './support/processes.js';
import { RawStdioServer, type Msg } from './support/raw-stdio-server.js';
import { readJsonl } from './support/jsonl.js';

const SERVER = path.join(FIXTURES, 'legacy', 'scripted-server.mjs');
const REVISIONS = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'] as const;

/** The scripted server on raw pipes, with a `tools/call` shorthand. */
class Raw extends RawStdioServer {
  constructor(args: string[]) {
    super(process.execPath, [SERVER, ...args]);
  }

  call(name: string, args: Msg = {}, meta?: Msg): Promise<Msg> {
    return this.request('tools/call', { name, arguments: args, ...(meta ? { _meta: meta } : {}) });
  }
}

const temps: string[] = [];
afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function start(...args: string[]): Raw {
  const raw = new Raw(args);
  onTestFinished(() => raw.close());
  return raw;
}

async function initialized(...args: string[]): Promise<Raw> {
  const raw = start(...args);
  const init = await raw.request('initialize', {
    protocolVersion: '2025-11-25',
    capabilities: {},
    clientInfo: { name: 'raw', version: '0' },
  });
  expect(init.result).toBeDefined();
  raw.write({ jsonrpc: '2.0', method: 'notifications/initialized' });
  return raw;
}

function recordFile(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'mcpwire-fixture-'));
  temps.push(dir);
  return path.join(dir, 'received.jsonl');
}

const text = (answer: Msg): string => answer.result.content[0].text as string;

/** Exercises every method and tool kind once under `revision`; answers the server's requests. */
async function tour(raw: Raw, revision: string): Promise<void> {
  const structured = revision >= '2025-06-18';
  const tools = (await raw.request('tools/list')).result.tools as Msg[];
  expect(tools.find((t) => t.name === 'add')?.outputSchema).toEqual(
    structured ? { type: 'object', properties: { sum: { type: 'number' } }, required: ['sum'] } : undefined,
  );
  expect(await raw.call('echo', { text: 'hi' })).toMatchObject({ result: { content: [{ type: 'text', text: 'hi' }] } });
  const add = await raw.call('add', { a: 2, b: 40 });
  expect(add.result.structuredContent).toEqual(structured ? { sum: 42 } : undefined);
  expect((await raw.call('fails')).result).toMatchObject({ isError: true });

  const before = raw.messages.length;
  expect(text(await raw.call('slow', { ms: 40, steps: 2 }, { progressToken: 'tok' }))).toBe('done after 2 steps');
  const progress = raw.messages.slice(before).filter((m) => m.method === 'notifications/progress');
  expect(progress.map((m) => m.params)).toEqual([
    { progressToken: 'tok', progress: 1, total: 2 },
    { progressToken: 'tok', progress: 2, total: 2 },
  ]);

  const asks: Array<[string, string, Msg]> = [
    [
      'ask-sampling',
      'sampling/createMessage',
      { role: 'assistant', content: { type: 'text', text: 'hello' }, model: 'm' },
    ],
    ['ask-roots', 'roots/list', { roots: [{ uri: 'file:///w', name: 'w' }] }],
    ['ask-ping', 'ping', {}],
  ];
  if (structured) asks.push(['ask-elicitation', 'elicitation/create', { action: 'accept', content: { name: 'Ada' } }]);
  if (revision === '2025-11-25') asks.push(['ask-elicitation-url', 'elicitation/create', { action: 'accept' }]);
  for (const [tool, method, reply] of asks) {
    const skip = raw.messages.length;
    const call = raw.call(tool);
    const asked = await raw.next((m) => m.method === method && m.id !== undefined, skip);
    raw.write({ jsonrpc: '2.0', id: asked.id, result: reply });
    expect(JSON.parse(text(await call))).toEqual(reply);
  }

  expect((await raw.request('logging/setLevel', { level: 'warning' })).result).toEqual({});
  expect(text(await raw.call('log', { level: 'info', message: 'quiet' }))).toBe('filtered');
  expect(text(await raw.call('log', { level: 'error', message: 'loud' }))).toBe('sent');

  expect((await raw.request('resources/list')).result.resources).toHaveLength(3);
  expect((await raw.request('resources/templates/list')).result.resourceTemplates[0].uriTemplate).toBe(
    'test://dynamic/{id}',
  );
  expect((await raw.request('resources/read', { uri: 'test://static/1' })).result.contents[0]).toEqual({
    uri: 'test://static/1',
    mimeType: 'text/plain',
    text: 'static resource 1',
  });
  expect((await raw.request('resources/read', { uri: 'test://static/3' })).result.contents[0]).toHaveProperty('blob');
  expect((await raw.request('resources/read', { uri: 'test://dynamic/7' })).result.contents[0].text).toBe(
    'dynamic resource 7',
  );
  expect((await raw.request('resources/read', { uri: 'test://missing' })).error).toMatchObject({
    code: -32002,
    data: { uri: 'test://missing' },
  });
  await raw.request('resources/subscribe', { uri: 'test://static/2' });
  expect(text(await raw.call('touch', { uri: 'test://static/2' }))).toBe('notified test://static/2');
  await raw.request('resources/unsubscribe', { uri: 'test://static/2' });
  expect(text(await raw.call('touch', { uri: 'test://static/2' }))).toBe('not subscribed test://static/2');

  expect((await raw.request('prompts/list')).result.prompts.map((p: Msg) => p.name)).toEqual(['greet', 'plain']);
  expect(
    (await raw.request('prompts/get', { name: 'greet', arguments: { name: 'Ada' } })).result.messages[0].content.text,
  ).toBe('Hello, Ada!');
  expect((await raw.request('prompts/get', { name: 'greet' })).error.code).toBe(-32602);
  const completion = await raw.request('completion/complete', {
    ref: { type: 'ref/prompt', name: 'greet' },
    argument: { name: 'name', value: 'al' },
  });
  expect(completion.result.completion).toEqual({ values: ['Alan', 'Alice'], total: 2, hasMore: false });

  expect(text(await raw.call('change-tools'))).toBe('changed');
  expect(raw.messages.some((m) => m.method === 'notifications/tools/list_changed')).toBe(true);
  expect(text(await raw.call('extra'))).toBe('extra');
  expect((await raw.request('ping')).result).toEqual({});
}

describe('the scripted legacy server, per revision', () => {
  for (const revision of REVISIONS) {
    it(`${revision}: answers initialize with ${revision} whatever was offered, and every message of a tour is schema-valid`, async () => {
      const raw = start('--version', revision);
      const init = await raw.request('initialize', {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: { name: 'raw', version: '0' },
      });
      expect(init.result).toMatchObject({
        protocolVersion: revision,
        serverInfo: { name: 'scripted-legacy', version: '1.0.0' },
        instructions: expect.any(String),
      });
      expect(Object.keys(init.result.capabilities).sort()).toEqual(
        revision === '2024-11-05'
          ? ['logging', 'prompts', 'resources', 'tools']
          : ['completions', 'logging', 'prompts', 'resources', 'tools'],
      );
      raw.write({ jsonrpc: '2.0', method: 'notifications/initialized' });
      await tour(raw, revision);
      if (!hasSchema(revision)) return;
      const problems = raw.lines
        .map((line) => validateMessage(revision, line, 'server', { requestMethods: raw.requestMethods }))
        .flatMap((outcome, i) =>
          outcome.ok ? [] : [`${JSON.stringify(raw.lines[i]).slice(0, 200)}: ${outcome.errors}`],
        );
      expect(problems).toEqual([]);
    });
  }

  it('sends elicitation without `mode` before 2025-11-25 and with it from then on', async () => {
    for (const [revision, mode] of [
      ['2025-06-18', undefined],
      ['2025-11-25', 'form'],
    ] as const) {
      const raw = await initialized('--version', revision);
      const call = raw.call('ask-elicitation', { message: 'Name?' });
      const asked = await raw.next((m) => m.method === 'elicitation/create');
      expect(asked.params.mode).toBe(mode);
      expect(asked.params.message).toBe('Name?');
      // Answer it so the call completes: a call left waiting would reject after the test ended.
      raw.write({ jsonrpc: '2.0', id: asked.id, result: { action: 'decline' } });
      expect(JSON.parse(text(await call))).toEqual({ action: 'decline' });
    }
  });
});

describe('capability flags', () => {
  it('--caps advertises only what it names and refuses the rest with -32601, saying so on stderr', async () => {
    const raw = start('--caps', 'tools=,resources=listChanged', '--record', recordFile());
    const init = await raw.request('initialize', {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 'raw', version: '0' },
    });
    expect(init.result.capabilities).toEqual({ tools: {}, resources: { listChanged: true } });
    expect((await raw.request('prompts/list')).error).toMatchObject({ code: -32601 });
    expect((await raw.request('resources/subscribe', { uri: 'test://static/1' })).error).toMatchObject({
      code: -32601,
    });
    expect((await raw.request('logging/setLevel', { level: 'info' })).error).toMatchObject({ code: -32601 });
    expect(
      (
        await raw.request('completion/complete', {
          ref: { type: 'ref/prompt', name: 'greet' },
          argument: { name: 'name', value: '' },
        })
      ).error,
    ).toMatchObject({ code: -32601 });
    // stderr and stdout are separate pipes: under load the last stderr line may trail the answer.
    await eventually(() => (raw.stderr.length >= 4 ? true : undefined));
    expect(raw.stderr).toEqual([
      'refused prompts/list: capability prompts not advertised',
      'refused resources/subscribe: capability resources.subscribe not advertised',
      'refused logging/setLevel: capability logging not advertised',
      'refused completion/complete: capability completions not advertised',
    ]);
    // Without tools.listChanged a change is made but not announced.
    expect(text(await raw.call('change-tools'))).toBe('changed (not announced: no listChanged capability)');
    expect((await raw.request('resources/list')).result.resources).toHaveLength(3);
    expect(raw.messages.filter((m) => m.method !== undefined)).toEqual([]);
  });

  it('--record keeps every line received, in order, and the server exits 0 on stdin EOF', async () => {
    const record = recordFile();
    const raw = start('--record', record);
    await raw.request('ping');
    raw.write({ jsonrpc: '2.0', method: 'notifications/initialized' });
    await raw.request('tools/list');
    await raw.close();
    expect(raw.exit).toEqual({ code: 0, signal: null });
    const methods = readJsonl<Msg>(record).map((m) => m.method);
    expect(methods).toEqual(['ping', 'notifications/initialized', 'tools/list']);
  });
});

describe('--discover', () => {
  for (const [mode, code] of [
    ['method-not-found', -32601],
    ['invalid-params', -32602],
    ['not-initialized', -32600],
  ] as const) {
    it(`${mode}: answers the probe with ${code}, then serves initialize`, async () => {
      const raw = start('--discover', mode);
      expect((await raw.request('server/discover', { _meta: {} })).error.code).toBe(code);
      expect(
        (
          await raw.request('initialize', {
            protocolVersion: '2025-11-25',
            capabilities: {},
            clientInfo: { name: 'raw', version: '0' },
          })
        ).result,
      ).toBeDefined();
    });
  }

  it('silent: never answers the probe (initialize sent after it is answered, the probe is not)', async () => {
    const raw = start('--discover', 'silent');
    const probe = raw.req('server/discover', {});
    raw.write(probe);
    await raw.request('initialize', {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 'raw', version: '0' },
    });
    await raw.request('ping');
    expect(raw.messages.some((m) => m.id === probe.id)).toBe(false);
  });

  it('exit: exits with code 3 on the probe', async () => {
    const raw = start('--discover', 'exit');
    raw.write(raw.req('server/discover', {}));
    expect(await raw.exited()).toEqual({ code: 3, signal: null });
  });
});

describe('faults', () => {
  it('--die-before-initialize exits 1 with a stderr line', async () => {
    const raw = start('--die-before-initialize');
    raw.write(
      raw.req('initialize', {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: { name: 'raw', version: '0' },
      }),
    );
    expect(await raw.exited()).toEqual({ code: 1, signal: null });
    expect(raw.stderr).toEqual(['fatal: config file missing']);
    expect(raw.messages).toEqual([]);
  });

  it('--die-on-call exits 1 when that tool is called', async () => {
    const raw = await initialized('--die-on-call', 'boom');
    await raw.call('echo', { text: 'fine' });
    raw.write(raw.req('tools/call', { name: 'boom', arguments: {} }));
    expect(await raw.exited()).toEqual({ code: 1, signal: null });
    expect(raw.stderr).toEqual(['fatal: boom blew up']);
  });

  it('never-answer stays silent and logs `cancelled <id>` when cancelled; a cancelled slow call stops', async () => {
    const raw = await initialized();
    const silent = raw.req('tools/call', { name: 'never-answer', arguments: {} });
    const slow = raw.req('tools/call', {
      name: 'slow',
      arguments: { ms: 2_000, steps: 2 },
      _meta: { progressToken: 1 },
    });
    raw.write(silent);
    raw.write(slow);
    raw.write({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: silent.id, reason: 'test' } });
    raw.write({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: slow.id } });
    // The server handles lines in order: once ping is answered, both cancels were seen.
    await raw.request('ping');
    expect(raw.stderr).toEqual([`cancelled ${silent.id}`, `cancelled ${slow.id}`]);
    expect(
      raw.messages.filter((m) => m.id === silent.id || m.id === slow.id || m.method === 'notifications/progress'),
    ).toEqual([]);
  });

  it('--batch-responses answers two requests that arrive together in one array (2025-03-26)', async () => {
    const raw = await initialized('--version', '2025-03-26', '--batch-responses');
    const a = raw.req('tools/call', { name: 'echo', arguments: { text: 'a' } });
    const b = raw.req('ping');
    raw.write(`${JSON.stringify(a)}\n${JSON.stringify(b)}`);
    const batch = await raw.waitFor(() => raw.lines.find((l): l is Msg[] => Array.isArray(l)));
    expect(batch.map((m) => m.id)).toEqual([a.id, b.id]);
  });

  it('answers an incoming batch with one array', async () => {
    const raw = await initialized('--version', '2025-03-26');
    const a = raw.req('ping');
    const b = raw.req('tools/call', { name: 'echo', arguments: { text: 'b' } });
    raw.write([
      a,
      { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'x', progress: 1 } },
      b,
    ]);
    const batch = await raw.waitFor(() => raw.lines.find((l): l is Msg[] => Array.isArray(l)));
    expect(batch).toEqual([
      { jsonrpc: '2.0', id: a.id, result: {} },
      { jsonrpc: '2.0', id: b.id, result: { content: [{ type: 'text', text: 'b' }] } },
    ]);
  });
});

describe('tools', () => {
  it('bad-structured breaks its outputSchema; big returns that many bytes; answers to asks may be errors', async () => {
    const raw = await initialized();
    expect((await raw.call('bad-structured')).result.structuredContent).toEqual({ sum: 'not a number' });
    expect(text(await raw.call('big', { bytes: 100_000 }))).toHaveLength(100_000);
    const call = raw.call('ask-roots');
    const asked = await raw.next((m) => m.method === 'roots/list');
    raw.write({ jsonrpc: '2.0', id: asked.id, error: { code: -32601, message: 'no roots' } });
    expect((await call).result).toEqual({
      content: [{ type: 'text', text: '{"code":-32601,"message":"no roots"}' }],
      isError: true,
    });
    expect((await raw.call('no-such-tool')).error.code).toBe(-32602);
  });

  it('an accepted URL elicitation is followed by notifications/elicitation/complete naming it', async () => {
    const raw = await initialized();
    const call = raw.call('ask-elicitation-url', { url: 'https://example.com/x' });
    const asked = await raw.next((m) => m.method === 'elicitation/create');
    expect(asked.params).toMatchObject({
      mode: 'url',
      url: 'https://example.com/x',
      elicitationId: expect.any(String),
    });
    raw.write({ jsonrpc: '2.0', id: asked.id, result: { action: 'accept' } });
    await call;
    const done = await raw.next((m) => m.method === 'notifications/elicitation/complete');
    expect(done.params).toEqual({ elicitationId: asked.params.elicitationId });
  });

  it('change-prompts and change-resources add an item and announce it', async () => {
    const raw = await initialized();
    await raw.call('change-prompts');
    await raw.call('change-resources');
    expect(raw.messages.filter((m) => m.method?.endsWith('list_changed')).map((m) => m.method)).toEqual([
      'notifications/prompts/list_changed',
      'notifications/resources/list_changed',
    ]);
    expect((await raw.request('prompts/list')).result.prompts.map((p: Msg) => p.name)).toContain('extra');
    expect((await raw.request('resources/read', { uri: 'test://static/extra' })).result.contents[0].text).toBe(
      'static resource extra',
    );
  });
});

describe('pagination', () => {
  async function walk(raw: Raw, method: string, key: string): Promise<{ items: Msg[]; pages: number }> {
    const items: Msg[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const answer = await raw.request(method, cursor === undefined ? {} : { cursor });
      items.push(...(answer.result[key] as Msg[]));
      cursor = answer.result.nextCursor as string | undefined;
      pages++;
    } while (cursor !== undefined);
    return { items, pages };
  }

  it('--page-size pages every list with opaque cursors and refuses a cursor it never minted', async () => {
    const whole = await initialized('--resources', '7');
    const paged = await initialized('--resources', '7', '--page-size', '3');
    for (const [method, key] of [
      ['tools/list', 'tools'],
      ['resources/list', 'resources'],
      ['prompts/list', 'prompts'],
      ['resources/templates/list', 'resourceTemplates'],
    ] as const) {
      const all = (await whole.request(method)).result;
      expect(all.nextCursor).toBeUndefined();
      const { items, pages } = await walk(paged, method, key);
      expect(items).toEqual(all[key]);
      expect(pages).toBe(Math.max(1, Math.ceil((all[key] as Msg[]).length / 3)));
    }
    expect((await paged.request('tools/list', { cursor: 'not-a-cursor' })).error.code).toBe(-32602);
  });

  it('--endless-pages always returns a nextCursor', async () => {
    const raw = await initialized('--endless-pages', '--page-size', '2');
    let cursor: string | undefined;
    const names: string[] = [];
    for (let i = 0; i < 15; i++) {
      const answer = await raw.request('prompts/list', cursor === undefined ? {} : { cursor });
      names.push(...answer.result.prompts.map((p: Msg) => p.name as string));
      cursor = answer.result.nextCursor as string;
      expect(cursor).toEqual(expect.any(String));
    }
    expect(names.slice(0, 3)).toEqual(['greet', 'plain', 'endless-2']);
    expect(new Set(names).size).toBe(30);
  });
});
