/**
 * The modern fixture server (spec-fixtures/servers/modern/v2-server.mjs, the official v2 server
 * package over stdio) shows the 2026-07-28 wire shapes that spec-fixtures/servers/README.md
 * records. Driven with raw NDJSON over child_process pipes: no client involved.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { FIXTURES } from './support/processes.js';
import { RawStdioServer, type Msg } from './support/raw-stdio-server.js';

const SERVER = path.join(FIXTURES, 'modern', 'v2-server.mjs');
const MODERN = '2026-07-28';
const CLIENT_INFO = { name: 'raw', version: '0' };
const SERVER_INFO = { 'io.modelcontextprotocol/serverInfo': { name: 'modern-fixture', version: '2.0.0' } };

/** The per-request envelope, with every kind of input declared unless `capabilities` says otherwise. */
function envelope(
  extra: Msg = {},
  capabilities: Msg = { elicitation: { form: {}, url: {} }, sampling: {}, roots: {} },
): Msg {
  return {
    'io.modelcontextprotocol/protocolVersion': MODERN,
    'io.modelcontextprotocol/clientCapabilities': capabilities,
    'io.modelcontextprotocol/clientInfo': CLIENT_INFO,
    ...extra,
  };
}

/** The modern fixture on raw pipes, with a modern `tools/call` shorthand. */
class Raw extends RawStdioServer {
  constructor(args: string[]) {
    super(process.execPath, [SERVER, ...args]);
  }

  /** A modern tools/call: the envelope (plus `meta`) rides in params._meta. */
  call(name: string, args: Msg = {}, more: Msg = {}, meta: Msg = {}): Promise<Msg> {
    return this.request('tools/call', { name, arguments: args, ...more, _meta: envelope(meta) });
  }
}

const text = (answer: Msg): string => answer.result.content[0].text as string;

describe('the 2026-07-28 era over stdio', () => {
  let raw: Raw;
  beforeAll(async () => {
    raw = new Raw([]);
    await raw.request('server/discover', { _meta: envelope() });
  });
  afterAll(async () => {
    await raw?.close();
  });

  it('answers server/discover with supportedVersions, capabilities and the cache fields', async () => {
    const discover = await raw.answer(1);
    expect(discover.result).toEqual({
      supportedVersions: [MODERN],
      capabilities: {
        tools: { listChanged: true },
        resources: { subscribe: true, listChanged: true },
        prompts: { listChanged: true },
        logging: {},
        completions: {},
      },
      instructions: 'A modern fixture.',
      resultType: 'complete',
      ttlMs: 0,
      cacheScope: 'private',
      _meta: SERVER_INFO,
    });
  });

  it('serves tools/call with the _meta envelope and refuses a request without it', async () => {
    expect(await raw.call('echo', { text: 'hi' })).toEqual({
      jsonrpc: '2.0',
      id: expect.any(Number),
      result: { content: [{ type: 'text', text: 'hi' }], resultType: 'complete', _meta: SERVER_INFO },
    });
    expect((await raw.call('add', { a: 2, b: 40 })).result.structuredContent).toEqual({ sum: 42 });
    expect((await raw.call('fails')).result.isError).toBe(true);
    expect((await raw.request('tools/call', { name: 'echo', arguments: { text: 'bare' } })).error.code).toBe(-32602);
    expect((await raw.call('no-such-tool')).error).toEqual({ code: -32602, message: 'Tool no-such-tool not found' });
    const list = (await raw.request('tools/list', { _meta: envelope() })).result;
    expect(list).toMatchObject({ resultType: 'complete', ttlMs: 0, cacheScope: 'private' });
    expect(list.tools.find((t: Msg) => t.name === 'add').outputSchema).toMatchObject({
      type: 'object',
      properties: { sum: { type: 'number' } },
    });
  });

  it('multi-round-trip: input_required with an elicitation and requestState, completed by a retry under a new id', async () => {
    const first = await raw.call('confirm', { what: 'deploy' });
    expect(first.result).toEqual({
      resultType: 'input_required',
      inputRequests: {
        ok: {
          method: 'elicitation/create',
          params: {
            mode: 'form',
            message: 'Really deploy?',
            requestedSchema: { type: 'object', properties: { sure: { type: 'boolean' } }, required: ['sure'] },
          },
        },
      },
      requestState: 'confirm:deploy',
      _meta: SERVER_INFO,
    });
    const retry = await raw.call(
      'confirm',
      { what: 'deploy' },
      {
        inputResponses: { ok: { action: 'accept', content: { sure: true } } },
        requestState: first.result.requestState,
      },
    );
    expect(retry.id).not.toBe(first.id);
    expect(retry.result).toMatchObject({
      resultType: 'complete',
      content: [{ type: 'text', text: 'accept:{"sure":true}:confirm:deploy' }],
    });
  });

  it('multi-round-trip: sampling, roots and URL elicitation requests; two rounds; prompts/get', async () => {
    const sampling = await raw.call('ask-model', { question: 'why?' });
    expect(sampling.result.inputRequests).toEqual({
      llm: {
        method: 'sampling/createMessage',
        params: { messages: [{ role: 'user', content: { type: 'text', text: 'why?' } }], maxTokens: 50 },
      },
    });
    expect(sampling.result.requestState).toBeUndefined();
    const sampled = await raw.call(
      'ask-model',
      { question: 'why?' },
      { inputResponses: { llm: { role: 'assistant', content: { type: 'text', text: 'because' }, model: 'm' } } },
    );
    expect(text(sampled)).toBe('model said: {"type":"text","text":"because"}');

    expect((await raw.call('where')).result.inputRequests).toEqual({ roots: { method: 'roots/list' } });
    expect(text(await raw.call('where', {}, { inputResponses: { roots: { roots: [{ uri: 'file:///w' }] } } }))).toBe(
      'file:///w',
    );

    const url = await raw.call('open-url', { url: 'https://example.com/login' });
    expect(url.result.inputRequests).toEqual({
      visit: {
        method: 'elicitation/create',
        params: { mode: 'url', message: 'Please sign in', url: 'https://example.com/login' },
      },
    });

    const one = await raw.call('two-rounds');
    expect(Object.keys(one.result.inputRequests)).toEqual(['name']);
    const two = await raw.call(
      'two-rounds',
      {},
      { inputResponses: { name: { action: 'accept', content: { name: 'Ada' } } } },
    );
    expect(two.result).toMatchObject({ resultType: 'input_required', requestState: 'name=Ada' });
    expect(Object.keys(two.result.inputRequests)).toEqual(['sure']);
    const three = await raw.call(
      'two-rounds',
      {},
      { requestState: 'name=Ada', inputResponses: { sure: { action: 'accept', content: { sure: true } } } },
    );
    expect(text(three)).toBe('Ada:true');

    const prompt = await raw.request('prompts/get', { name: 'personal', _meta: envelope() });
    expect(prompt.result).toMatchObject({
      resultType: 'input_required',
      inputRequests: { who: { method: 'elicitation/create' } },
    });
    const greeted = await raw.request('prompts/get', {
      name: 'personal',
      inputResponses: { who: { action: 'accept', content: { name: 'Bo' } } },
      _meta: envelope(),
    });
    expect(greeted.result.messages[0].content.text).toBe('Say hello to Bo');
  });

  it('refuses input the request did not declare with -32021', async () => {
    const answer = await raw.request('tools/call', {
      name: 'confirm',
      arguments: { what: 'x' },
      _meta: envelope({}, {}),
    });
    expect(answer.error).toMatchObject({ code: -32021, data: { requiredCapabilities: { elicitation: { form: {} } } } });
  });

  it('sends progress with the request token, and logs only at the request _meta logLevel', async () => {
    const skip = raw.messages.length;
    expect(text(await raw.call('slow', { ms: 40, steps: 2 }, {}, { progressToken: 'p1' }))).toBe('done after 2 steps');
    expect(
      raw.messages
        .slice(skip)
        .filter((m) => m.method === 'notifications/progress')
        .map((m) => m.params),
    ).toEqual([
      { progressToken: 'p1', progress: 1, total: 2 },
      { progressToken: 'p1', progress: 2, total: 2 },
    ]);
    const quiet = raw.messages.length;
    await raw.call('log', { level: 'info', message: 'unasked' });
    await raw.call('log', { level: 'debug', message: 'below' }, {}, { 'io.modelcontextprotocol/logLevel': 'error' });
    await raw.call('log', { level: 'info', message: 'asked' }, {}, { 'io.modelcontextprotocol/logLevel': 'debug' });
    expect(
      raw.messages
        .slice(quiet)
        .filter((m) => m.method === 'notifications/message')
        .map((m) => m.params),
    ).toEqual([{ level: 'info', data: 'asked', logger: 'fixture' }]);
  });

  it('a cancelled call is never answered, and the handler sees the cancel', async () => {
    const id = raw.send('tools/call', { name: 'never-answer', arguments: {}, _meta: envelope() });
    await raw.waitFor(() => raw.stderr.find((l) => l === `waiting ${id}`));
    raw.write({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason: 'test' } });
    await raw.waitFor(() => raw.stderr.find((l) => l === `cancelled ${id}`));
    await raw.call('echo', { text: 'after' });
    expect(raw.messages.some((m) => m.id === id)).toBe(false);
  });

  it('subscriptions/listen: acknowledged, then change notifications stamped with the listen id; a cancel ends it', async () => {
    const id = raw.send('subscriptions/listen', {
      notifications: { toolsListChanged: true, resourceSubscriptions: ['test://static/hello'] },
      _meta: envelope(),
    });
    const ack = await raw.next((m) => m.method === 'notifications/subscriptions/acknowledged');
    const stamp = { 'io.modelcontextprotocol/subscriptionId': id };
    expect(ack.params).toEqual({
      notifications: { toolsListChanged: true, resourceSubscriptions: ['test://static/hello'] },
      _meta: stamp,
    });
    await raw.call('touch', { uri: 'test://static/hello' });
    await raw.call('touch', { uri: 'test://elsewhere' });
    await raw.call('add-tool');
    const notes = raw.messages.filter(
      (m) => m.params?._meta?.['io.modelcontextprotocol/subscriptionId'] === id && m.method !== ack.method,
    );
    expect(notes).toEqual([
      {
        jsonrpc: '2.0',
        method: 'notifications/resources/updated',
        params: { uri: 'test://static/hello', _meta: stamp },
      },
      { jsonrpc: '2.0', method: 'notifications/tools/list_changed', params: { _meta: stamp } },
    ]);
    expect((await raw.request('tools/list', { _meta: envelope() })).result.tools.map((t: Msg) => t.name)).toContain(
      'extra',
    );

    raw.write({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id } });
    const after = raw.messages.length;
    await raw.call('touch', { uri: 'test://static/hello' });
    // The SDK ends a cancelled stream silently: no completion result, no more notifications.
    expect(raw.messages.slice(after).filter((m) => m.method !== undefined || m.id === id)).toEqual([]);
  });

  it('lists and reads resources and templates, renders prompts and completes arguments', async () => {
    const meta = { _meta: envelope() };
    expect((await raw.request('resources/list', meta)).result.resources.map((r: Msg) => r.uri)).toEqual([
      'test://static/hello',
      'test://static/blob',
    ]);
    expect((await raw.request('resources/templates/list', meta)).result.resourceTemplates).toEqual([
      { name: 'item', uriTemplate: 'test://items/{id}', mimeType: 'text/plain' },
    ]);
    expect((await raw.request('resources/read', { uri: 'test://items/7', ...meta })).result).toMatchObject({
      contents: [{ uri: 'test://items/7', text: 'item 7' }],
      resultType: 'complete',
      ttlMs: 0,
    });
    expect((await raw.request('resources/read', { uri: 'test://static/blob', ...meta })).result.contents[0].blob).toBe(
      'AAECAw==',
    );
    expect((await raw.request('resources/read', { uri: 'test://nope', ...meta })).error).toEqual({
      code: -32602,
      message: 'Resource not found: test://nope',
      data: { uri: 'test://nope' },
    });
    expect((await raw.request('prompts/list', meta)).result.prompts.map((p: Msg) => p.name)).toEqual([
      'greet',
      'plain',
      'personal',
    ]);
    expect(
      (await raw.request('prompts/get', { name: 'greet', arguments: { name: 'Ada' }, ...meta })).result.messages[0]
        .content.text,
    ).toBe('Say hello to Ada');
    const names = await raw.request('completion/complete', {
      ref: { type: 'ref/prompt', name: 'greet' },
      argument: { name: 'name', value: 'A' },
      ...meta,
    });
    expect(names.result.completion).toEqual({ values: ['Ada', 'Alan', 'Alice'], total: 3, hasMore: false });
    const ids = await raw.request('completion/complete', {
      ref: { type: 'ref/resource', uri: 'test://items/{id}' },
      argument: { name: 'id', value: '1' },
      ...meta,
    });
    expect(ids.result.completion.values).toEqual(['1', '10', '11', '12']);
  });

  it('has no ping and no initialize once the connection is modern', async () => {
    expect((await raw.request('ping', { _meta: envelope() })).error.code).toBe(-32601);
    const init = await raw.request('initialize', {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: CLIENT_INFO,
    });
    expect(init.error).toEqual({
      code: -32022,
      message: 'Unsupported protocol version: 2025-11-25',
      data: { supported: [MODERN], requested: '2025-11-25' },
    });
  });

  it('sent only messages valid under the 2026-07-28 schema', () => {
    expect(raw.messages.length).toBeGreaterThan(30);
    expect(raw.invalid(MODERN)).toEqual([]);
  });
});

describe('opening and legacy modes', () => {
  const start = (...args: string[]) => {
    const raw = new Raw(args);
    onTestFinished(() => raw.close());
    return raw;
  };
  const initialize = (raw: Raw, capabilities: Msg = {}) =>
    raw.request('initialize', { protocolVersion: '2025-11-25', capabilities, clientInfo: CLIENT_INFO });

  it('serve (default): a legacy initialize opens a 2025-11-25 session; input_required becomes a server→client request', async () => {
    const raw = start();
    const init = await initialize(raw, { elicitation: { form: {} } });
    expect(init.result).toMatchObject({
      protocolVersion: '2025-11-25',
      serverInfo: { name: 'modern-fixture', version: '2.0.0' },
      instructions: 'A modern fixture.',
    });
    expect(init.result).not.toHaveProperty('resultType');
    raw.write({ jsonrpc: '2.0', method: 'notifications/initialized' });
    const call = raw.request('tools/call', { name: 'confirm', arguments: { what: 'ship' } });
    const asked = await raw.next((m) => m.method === 'elicitation/create');
    expect(asked).toMatchObject({ id: expect.any(Number), params: { mode: 'form', message: 'Really ship?' } });
    raw.write({ jsonrpc: '2.0', id: asked.id, result: { action: 'accept', content: { sure: false } } });
    expect((await call).result).toEqual({ content: [{ type: 'text', text: 'accept:{"sure":false}:confirm:ship' }] });
    await raw.request('resources/subscribe', { uri: 'test://static/hello' });
    await raw.request('tools/call', { name: 'touch', arguments: { uri: 'test://static/hello' } });
    expect(raw.messages.find((m) => m.method === 'notifications/resources/updated')?.params).toEqual({
      uri: 'test://static/hello',
    });
    expect((await raw.request('ping')).result).toEqual({});
    expect(raw.invalid('2025-11-25')).toEqual([]);
  });

  it('reject: a legacy initialize gets -32022 naming the modern revision, and the connection stays open for a modern opening', async () => {
    const raw = start('--legacy', 'reject');
    expect((await initialize(raw)).error).toEqual({
      code: -32022,
      message: 'Unsupported protocol version: 2025-11-25',
      data: { supported: [MODERN], requested: '2025-11-25' },
    });
    expect((await raw.request('server/discover', { _meta: envelope() })).result.supportedVersions).toEqual([MODERN]);
  });

  it('a modern opening with a revision it does not speak gets -32022', async () => {
    const raw = start();
    const answer = await raw.request('server/discover', {
      _meta: envelope({ 'io.modelcontextprotocol/protocolVersion': '2099-01-01' }),
    });
    expect(answer.error).toEqual({
      code: -32022,
      message: 'Unsupported protocol version: 2099-01-01',
      data: { supported: [MODERN], requested: '2099-01-01' },
    });
  });
});
