/**
 * The kit's Streamable HTTP handler on the wire, request by request (node:http, so every header
 * is ours to set): the 2026-07-28 header and envelope errors and their statuses, DNS-rebinding
 * protection, media types, body limits, legacy session rules, SSE answers with event ids, the
 * client's disconnect as the cancel, the request time limit, and the graceful close.
 */
import http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { McpServer } from '../src/server/index.js';
import { startKitHttp, type KitHttp } from './support/kit-http.js';
import { exchange, modernRequest, sseEvents, type Exchange } from './support/kit-wire.js';
import { eventually } from './support/wait.js';

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
};

let kit: KitHttp;
let aborted: unknown[];
let release: (() => void) | undefined;

function server(): McpServer {
  const s = new McpServer({ name: 'rules', version: '1', logger: () => undefined });
  s.registerTool({
    name: 'lookup',
    inputSchema: {
      type: 'object',
      properties: { region: { type: 'string', 'x-mcp-header': 'Region' }, q: { type: 'string' } },
    },
    handler: ({ q }, context) => {
      context.progress(1);
      return { content: [{ type: 'text', text: `found ${String(q)}` }] };
    },
  });
  s.registerTool({
    name: 'needs_sampling',
    inputSchema: { type: 'object' },
    requiredClientCapabilities: { sampling: {} },
    handler: () => ({ content: [{ type: 'text', text: 'ran' }] }),
  });
  s.registerTool({
    name: 'wait',
    inputSchema: { type: 'object' },
    handler: (_args, context) =>
      new Promise((resolve) => {
        release = () => resolve({ content: [{ type: 'text', text: 'released' }] });
        context.signal.addEventListener('abort', () => {
          aborted.push(context.signal.reason);
          resolve({ content: [] });
        });
      }),
  });
  return s;
}

afterEach(() => {
  release = undefined;
});

async function start(options?: Parameters<typeof startKitHttp>[1]): Promise<void> {
  aborted = [];
  kit = await startKitHttp(server(), options);
}

/** One raw request to the kit (`content-type: application/json` unless `headers` say otherwise). */
function send(method: string, body: string | undefined, headers: Record<string, string> = {}): Promise<Exchange> {
  return exchange(kit.url, { method, body, headers: { 'content-type': 'application/json', ...headers } });
}

/**
 * A 2026 POST written out by hand: `params` as given (its `_meta` too), `Mcp-Method` naming the
 * method, `MCP-Protocol-Version: revision`, and `headers` beside them.
 */
function handWritten(
  id: number,
  method: string,
  params: Record<string, unknown>,
  headers: Record<string, string> = {},
  revision = '2026-07-28',
): Promise<Exchange> {
  const body = JSON.stringify({ jsonrpc: '2.0', id, method, params });
  return send('POST', body, { 'mcp-protocol-version': revision, 'mcp-method': method, ...headers });
}

function modern(
  method: string,
  params: Record<string, unknown>,
  headers: Record<string, string> = {},
  id: number | string = 1,
): Promise<Exchange> {
  return modernRequest(kit.url, method, params, { id, headers });
}

describe('2026-07-28 requests', () => {
  it('answer a good request with JSON, and an unknown method with 404 and -32601', async () => {
    await start();
    const ok = await modern('tools/list', {});
    expect(ok.status).toBe(200);
    expect(ok.headers['content-type']).toBe('application/json');
    expect(ok.json.result).toMatchObject({
      resultType: 'complete',
      tools: [{ name: 'lookup' }, { name: 'needs_sampling' }, { name: 'wait' }],
    });
    const unknown = await modern('nothing/here', {});
    expect(unknown.status).toBe(404);
    expect(unknown.json.error.code).toBe(-32601);
  });

  it.each([
    ['a missing Mcp-Method', { 'mcp-method': '' }, /Mcp-Method header is missing|Mcp-Method header does not match/],
    ['a wrong Mcp-Method', { 'mcp-method': 'tools/call' }, /Mcp-Method header does not match/],
    [
      'a wrong MCP-Protocol-Version',
      { 'mcp-protocol-version': '2025-11-25' },
      /MCP-Protocol-Version header does not match/,
    ],
  ])('%s is 400 with -32020', async (_what, headers, message) => {
    await start();
    const answer = await modern('tools/list', {}, headers);
    expect(answer.status).toBe(400);
    expect(answer.json.error).toMatchObject({ code: -32020, message: expect.stringMatching(message) });
  });

  it('checks Mcp-Name (base64-encoded values too) and the Mcp-Param-* of x-mcp-header arguments', async () => {
    await start();
    const args = { name: 'lookup', arguments: { region: 'über', q: 'x' } };
    const encoded = `=?base64?${Buffer.from('über').toString('base64')}?=`;
    expect((await modern('tools/call', args, { 'mcp-param-region': encoded })).json.result.content).toEqual([
      { type: 'text', text: 'found x' },
    ]);
    const noParam = await modern('tools/call', args);
    expect(noParam.status).toBe(400);
    expect(noParam.json.error).toMatchObject({
      code: -32020,
      message: expect.stringContaining('Mcp-Param-Region header is missing'),
    });
    const wrongParam = await modern('tools/call', args, { 'mcp-param-region': 'eu' });
    expect(wrongParam.json.error).toMatchObject({
      code: -32020,
      message: expect.stringContaining('does not match the argument'),
    });
    const wrongName = await modern('tools/call', args, { 'mcp-name': 'wait', 'mcp-param-region': encoded });
    expect(wrongName.json.error).toMatchObject({ code: -32020, message: expect.stringContaining('Mcp-Name') });
    expect(JSON.stringify([noParam.json, wrongParam.json, wrongName.json])).not.toContain('über');
    // Bad base64 inside the wrapper (no padding, a character outside the alphabet) is refused, not guessed at.
    for (const bad of ['=?base64?w7xiZXI?=', '=?base64?w7xi*XI=?=']) {
      const answer = await modern('tools/call', args, { 'mcp-param-region': bad });
      expect(answer.json.error).toMatchObject({ code: -32020, message: expect.stringContaining('not valid base64') });
    }
  });

  it('an unsupported revision is 400 with -32022 and the supported list; a missing capability object is 400 with -32602', async () => {
    await start();
    const answer = await handWritten(
      7,
      'tools/list',
      { _meta: { ...META, 'io.modelcontextprotocol/protocolVersion': '2027-01-01' } },
      {},
      '2027-01-01',
    );
    expect(answer.status).toBe(400);
    expect(answer.json.error).toMatchObject({
      code: -32022,
      data: { supported: ['2026-07-28'], requested: '2027-01-01' },
    });
    const missing = await handWritten(8, 'tools/list', {
      _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' },
    });
    expect(missing.status).toBe(400);
    expect(missing.json.error.code).toBe(-32602);
  });

  it('a body naming another revision than the header is -32020, even a revision the server does not speak', async () => {
    await start();
    const answer = await handWritten(9, 'server/discover', {
      _meta: { ...META, 'io.modelcontextprotocol/protocolVersion': 'v999.0.0' },
    });
    expect(answer.status).toBe(400);
    expect(answer.json.error.code).toBe(-32020);
  });

  it('initialize with a 2026 envelope is a removed method: 404 with -32601', async () => {
    await start();
    const answer = await modern('initialize', {
      protocolVersion: '2026-07-28',
      capabilities: {},
      clientInfo: { name: 'raw', version: '0' },
    });
    expect(answer.status).toBe(404);
    expect(answer.json.error.code).toBe(-32601);
  });

  it('a tool needing a client capability the request does not declare is 400 with -32021 naming it', async () => {
    await start();
    const answer = await modern('tools/call', { name: 'needs_sampling', arguments: {} });
    expect(answer.status).toBe(400);
    expect(answer.json.error).toMatchObject({ code: -32021, data: { requiredCapabilities: { sampling: {} } } });
    const declared = await handWritten(
      2,
      'tools/call',
      {
        name: 'needs_sampling',
        arguments: {},
        _meta: { ...META, 'io.modelcontextprotocol/clientCapabilities': { sampling: {} } },
      },
      { 'mcp-name': 'needs_sampling' },
    );
    expect(declared.json.result.content).toEqual([{ type: 'text', text: 'ran' }]);
  });

  it('answers over SSE, with event ids, when progress must go before the answer', async () => {
    await start();
    const answer = await handWritten(
      4,
      'tools/call',
      { name: 'lookup', arguments: { q: 'y' }, _meta: { ...META, progressToken: 'p1' } },
      { 'mcp-name': 'lookup' },
    );
    expect(answer.headers['content-type']).toBe('text/event-stream');
    const events = sseEvents(answer.text);
    expect(events.map((e) => e.id)).toEqual(['1', '2']);
    expect(JSON.parse(events[0]!.data)).toMatchObject({
      method: 'notifications/progress',
      params: { progressToken: 'p1', progress: 1 },
    });
    expect(JSON.parse(events[1]!.data)).toMatchObject({ id: 4, result: { content: [{ text: 'found y' }] } });
  });

  it('a client that closes the response cancels the call', async () => {
    await start();
    const req = http.request(kit.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'tools/call',
        'mcp-name': 'wait',
      },
    });
    req.on('error', () => undefined);
    req.end(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'wait', arguments: {}, _meta: META },
      }),
    );
    await eventually(() => (release ? true : undefined), { what: 'the handler to start' });
    req.destroy();
    await eventually(() => (aborted.length === 1 ? true : undefined), { what: 'the handler to be aborted' });
    expect(aborted[0]).toMatchObject({ code: 'CANCELLED' });
  });

  it('a call past requestTimeoutMs is aborted and answered -32603', async () => {
    await start({ path: '/mcp', requestTimeoutMs: 200 });
    const answer = await modern('tools/call', { name: 'wait', arguments: {} });
    expect(answer.json.error).toMatchObject({ code: -32603, message: expect.stringContaining('timed out') });
    expect(aborted).toEqual([expect.objectContaining({ code: 'TIMEOUT' })]);
  });
});

describe('every request', () => {
  it('is refused with 403 for a foreign Host or Origin, unless allowed', async () => {
    await start();
    expect((await modern('tools/list', {}, { host: 'evil.example:80' })).status).toBe(403);
    expect((await modern('tools/list', {}, { origin: 'https://evil.example' })).status).toBe(403);
    expect((await modern('tools/list', {}, { origin: `http://localhost:${kit.port}` })).status).toBe(200);
    await kit.close();
    await start({ path: '/mcp', allowedHosts: ['mcp.example.com'], allowedOrigins: ['https://app.example.com'] });
    expect(
      (await modern('tools/list', {}, { host: 'mcp.example.com', origin: 'https://app.example.com' })).status,
    ).toBe(200);
    expect((await modern('tools/list', {}, { host: `127.0.0.1:${kit.port}` })).status).toBe(403);
  });

  it('needs JSON in (415) and a body under maxBodyBytes (413), and valid JSON (400, -32700)', async () => {
    await start({ path: '/mcp', maxBodyBytes: 1000 });
    expect((await send('POST', '{}', { 'content-type': 'text/plain' })).status).toBe(415);
    const big = await modern('tools/call', { name: 'lookup', arguments: { q: 'x'.repeat(2000) } });
    expect(big.status).toBe(413);
    const junk = await send('POST', '{not json');
    expect(junk.status).toBe(400);
    expect(junk.json.error.code).toBe(-32700);
    expect((await send('PUT', '{}')).status).toBe(405);
    const elsewhere = await new Promise<number>((resolve, reject) =>
      http
        .get(`http://127.0.0.1:${kit.port}/other`, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        })
        .on('error', reject),
    );
    expect(elsewhere).toBe(404);
  });
});

describe('legacy requests', () => {
  const init = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
  });
  const list = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' });

  it('need the session initialize made (400 without, 404 for an unknown or deleted one)', async () => {
    await start();
    const made = await send('POST', init);
    const session = made.headers['mcp-session-id'] as string;
    expect(made.json.result.protocolVersion).toBe('2025-06-18');
    expect(session).toMatch(/^[0-9a-f-]{36}$/);
    expect((await send('POST', list)).status).toBe(400);
    expect((await send('POST', list, { 'mcp-session-id': 'nope' })).status).toBe(404);
    expect(
      (await send('POST', list, { 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' })).json.result.tools,
    ).toHaveLength(3);
    // Several POSTs at once, one naming another supported revision: all answered (the session's revision governs).
    const together = await Promise.all(
      ['2025-06-18', '2025-03-26', '2025-06-18'].map((v) =>
        send('POST', list, { 'mcp-session-id': session, 'mcp-protocol-version': v }),
      ),
    );
    expect(together.map((a) => a.status)).toEqual([200, 200, 200]);
    expect((await send('POST', list, { 'mcp-session-id': session, 'mcp-protocol-version': '1999-01-01' })).status).toBe(
      400,
    );
    expect(
      (
        await send('POST', JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }), {
          'mcp-session-id': session,
        })
      ).status,
    ).toBe(202);
    expect((await send('DELETE', undefined, { 'mcp-session-id': session })).status).toBe(200);
    expect((await send('POST', list, { 'mcp-session-id': session })).status).toBe(404);
  });

  it('stand alone when sessions are off (the revision from MCP-Protocol-Version)', async () => {
    await start({ path: '/mcp', sessions: false });
    const made = await send('POST', init);
    expect(made.headers['mcp-session-id']).toBeUndefined();
    expect((await send('POST', list, { 'mcp-protocol-version': '2025-06-18' })).json.result.tools).toHaveLength(3);
    expect((await send('POST', list, { 'mcp-protocol-version': '1999-01-01' })).status).toBe(400);
    expect((await send('GET', undefined)).status).toBe(405);
  });
});

describe('close', () => {
  it('lets a call in flight finish while new requests get 503', async () => {
    await start();
    const inFlight = modern('tools/call', { name: 'wait', arguments: {} });
    await eventually(() => (release ? true : undefined), { what: 'the call to start' });
    const closing = kit.handler.close({ graceMs: 30_000 });
    const refused = await modern('tools/list', {});
    expect(refused.status).toBe(503);
    release!();
    expect((await inFlight).json.result.content).toEqual([{ type: 'text', text: 'released' }]);
    await closing;
    expect(aborted).toEqual([]);
  });
});
