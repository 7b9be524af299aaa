/**
 * 2026-07-28 Streamable HTTP against a scripted server (request metadata headers, cancel by
 * closing the stream, -32020 recovery), and era/transport detection for a URL: modern, legacy
 * Streamable HTTP, 2024-11-05 HTTP+SSE, and the per-URL verdict cache.
 */
import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { McpClient } from '../src/client/mcp-client.js';
import { isMcpError } from '../src/protocol/errors.js';
import {
  json,
  legacyServer,
  openSse,
  result,
  type Route,
  rpcError,
  type Seen,
  sse,
  until,
  writeThenDrop,
} from './support/http-fixture.js';
import { assertValidClientMessage } from './kit/spec-schemas.js';
import { useHttpScene } from './support/http-scene.js';

const scene = useHttpScene<McpClient>();

const VERSION_KEY = 'io.modelcontextprotocol/protocolVersion';

/** A modern server: discover, tools with x-mcp-header markings, echo of what it saw. */
function modernServer(
  tools: Array<Record<string, unknown>>,
  onCall?: (seen: Seen, res: ServerResponse) => boolean,
): Route {
  return (seen, res) => {
    if (seen.method !== 'POST') {
      res.writeHead(405).end();
      return true;
    }
    const meta = (seen.json?.params as { _meta?: Record<string, unknown> } | undefined)?._meta;
    if (meta?.[VERSION_KEY] === undefined) {
      return json(
        res,
        rpcError(seen, -32022, 'Unsupported protocol version', { supported: ['2026-07-28'], requested: null }),
        400,
      );
    }
    switch (seen.rpc) {
      case 'server/discover':
        return json(
          res,
          result(seen, {
            resultType: 'complete',
            supportedVersions: ['2026-07-28'],
            capabilities: { tools: {}, resources: {}, prompts: {} },
            serverInfo: { name: 'scripted-modern', version: '1.0.0' },
          }),
        );
      case 'tools/list':
        return json(res, result(seen, { resultType: 'complete', tools }));
      case 'prompts/get':
        return json(
          res,
          result(seen, { resultType: 'complete', messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }] }),
        );
      case 'resources/read':
        return json(
          res,
          result(seen, {
            resultType: 'complete',
            contents: [{ uri: (seen.json!.params as { uri: string }).uri, text: 'ok' }],
          }),
        );
      case 'tools/call':
        if (onCall?.(seen, res)) return true;
        return json(res, result(seen, { resultType: 'complete', content: [{ type: 'text', text: 'called' }] }));
      default:
        return json(res, rpcError(seen, -32601, 'Method not found'), 404);
    }
  };
}

const REGION_TOOL = {
  name: 'query',
  inputSchema: {
    type: 'object',
    properties: {
      region: { type: 'string', 'x-mcp-header': 'Region' },
      limit: { type: 'integer', 'x-mcp-header': 'Limit' },
      opts: { type: 'object', properties: { dry: { type: 'boolean', 'x-mcp-header': 'Dry' } } },
      sql: { type: 'string' },
    },
  },
};
const BAD_TOOL = {
  name: 'bad',
  inputSchema: { type: 'object', properties: { n: { type: 'number', 'x-mcp-header': 'N' } } },
};

describe('2026-07-28 Streamable HTTP', () => {
  it('sends MCP-Protocol-Version, Mcp-Method and Mcp-Name on every request, and no session header', async () => {
    await scene.start(modernServer([REGION_TOOL]));
    scene.client = await McpClient.connect({ url: scene.fixture.url });
    expect(scene.client.era).toBe('modern');
    await scene.client.listTools();
    await scene.client.callTool('query', { sql: 'select 1' });
    await scene.client.readResource('file:///tmp/notes.txt');
    await scene.client.getPrompt('grüße');

    for (const seen of scene.fixture.requests.filter((r) => r.rpc !== undefined)) {
      expect(seen.headers['mcp-protocol-version']).toBe('2026-07-28');
      expect(seen.headers['mcp-method']).toBe(seen.rpc);
      expect(seen.headers['mcp-session-id']).toBeUndefined();
      assertValidClientMessage('2026-07-28', seen.json);
    }
    expect(scene.fixture.seen('tools/call')[0]!.headers['mcp-name']).toBe('query');
    expect(scene.fixture.seen('resources/read')[0]!.headers['mcp-name']).toBe('file:///tmp/notes.txt');
    // A name outside plain ASCII travels in the base64 sentinel form.
    expect(scene.fixture.seen('prompts/get')[0]!.headers['mcp-name']).toBe(
      `=?base64?${Buffer.from('grüße').toString('base64')}?=`,
    );
    expect(scene.fixture.seen('tools/list')[0]!.headers['mcp-name']).toBeUndefined();
    expect(scene.fixture.seen('GET')).toHaveLength(0);
  });

  it('mirrors x-mcp-header parameters into Mcp-Param-* headers, encoded, omitting absent values', async () => {
    await scene.start(modernServer([REGION_TOOL]));
    scene.client = await McpClient.connect({ url: scene.fixture.url });
    await scene.client.listTools();
    await scene.client.callTool('query', { region: 'eu-west-1', limit: 42, opts: { dry: false }, sql: 'x' });
    await scene.client.callTool('query', { region: ' spaced ', sql: 'y' });
    const [first, second] = scene.fixture.seen('tools/call');
    expect(first!.headers).toMatchObject({
      'mcp-param-region': 'eu-west-1',
      'mcp-param-limit': '42',
      'mcp-param-dry': 'false',
    });
    expect(second!.headers['mcp-param-region']).toBe('=?base64?IHNwYWNlZCA=?=');
    expect(second!.headers['mcp-param-limit']).toBeUndefined();
    expect(second!.headers['mcp-param-dry']).toBeUndefined();
  });

  it('leaves a tool with invalid x-mcp-header markings out of listTools, with a diagnostic naming it', async () => {
    await scene.start(modernServer([REGION_TOOL, BAD_TOOL]));
    scene.client = await McpClient.connect({ url: scene.fixture.url });
    const diagnostics: string[] = [];
    scene.client.on('diagnostic', (d) => diagnostics.push(`${d.kind}: ${d.message}`));
    expect((await scene.client.listTools()).map((t) => t.name)).toEqual(['query']);
    expect(diagnostics).toEqual([
      expect.stringMatching(/^invalid-tool: tool "bad" left out: .*must mark a string, integer or boolean/),
    ]);
  });

  it('on -32020 re-lists the tools and retries the call once with the right headers', async () => {
    let calls = 0;
    await scene.start(
      modernServer([REGION_TOOL], (seen, res) => {
        calls++;
        if (seen.headers['mcp-param-region'] === undefined)
          return json(res, rpcError(seen, -32020, 'Header mismatch: Mcp-Param-Region missing'), 400);
        return false;
      }),
    );
    scene.client = await McpClient.connect({ url: scene.fixture.url });
    // No tools/list yet: the scene.client cannot know the markings until the server complains.
    const answer = await scene.client.callTool('query', { region: 'us', sql: 'x' });
    expect(answer.content).toEqual([{ type: 'text', text: 'called' }]);
    expect(calls).toBe(2);
    expect(scene.fixture.seen('tools/list')).toHaveLength(1);
    expect(scene.fixture.seen('tools/call')[1]!.headers['mcp-param-region']).toBe('us');
  });

  it('cancels by closing the request stream: no notifications/cancelled is sent', async () => {
    let stream: ServerResponse | undefined;
    await scene.start(
      modernServer([REGION_TOOL], (_seen, res) => {
        openSse(res);
        stream = res;
        return true;
      }),
    );
    scene.client = await McpClient.connect({ url: scene.fixture.url });
    const controller = new AbortController();
    const pending = scene.client.callTool('query', { sql: 'slow' }, { signal: controller.signal });
    await until(() => stream !== undefined);
    const closed = new Promise<void>((resolve) => stream!.on('close', () => resolve()));
    controller.abort();
    expect(isMcpError(await pending.catch((e: unknown) => e), 'CANCELLED')).toBe(true);
    await closed;
    expect(scene.fixture.seen('notifications/cancelled')).toHaveLength(0);
  });

  it('a broken modern stream loses a tools/call (TRANSPORT error) but a resources/read is sent again', async () => {
    let reads = 0;
    await scene.start(
      (seen, res) => {
        if (seen.rpc === 'tools/call' || (seen.rpc === 'resources/read' && ++reads === 1)) {
          openSse(res);
          writeThenDrop(res, ': keep-alive\n\n');
          return true;
        }
        return false;
      },
      modernServer([REGION_TOOL]),
    );
    scene.client = await McpClient.connect({ url: scene.fixture.url });
    const error = await scene.client.callTool('query', { sql: 'x' }).catch((e: unknown) => e);
    expect(isMcpError(error, 'TRANSPORT')).toBe(true);
    expect(scene.fixture.seen('tools/call')).toHaveLength(1);
    expect((await scene.client.readResource('test://a')).contents).toEqual([{ uri: 'test://a', text: 'ok' }]);
    expect(scene.fixture.seen('resources/read')).toHaveLength(2);
  });

  it('delivers progress notifications from the request stream before the result', async () => {
    await scene.start(
      modernServer([REGION_TOOL], (seen, res) => {
        const token = (seen.json!.params as { _meta: { progressToken: number } })._meta.progressToken;
        openSse(res);
        for (const progress of [1, 2, 3])
          sse(res, {
            jsonrpc: '2.0',
            method: 'notifications/progress',
            params: { progressToken: token, progress, total: 3 },
          });
        sse(res, result(seen, { resultType: 'complete', content: [{ type: 'text', text: 'done' }] }));
        res.end();
        return true;
      }),
    );
    scene.client = await McpClient.connect({ url: scene.fixture.url });
    const seenProgress: number[] = [];
    const answer = await scene.client.callTool(
      'query',
      { sql: 'x' },
      { onProgress: (p) => seenProgress.push(p.progress) },
    );
    expect(seenProgress).toEqual([1, 2, 3]);
    expect(answer.content).toEqual([{ type: 'text', text: 'done' }]);
  });
});

describe('era and transport detection for a URL', () => {
  it('a modern server: one discover, no initialize', async () => {
    await scene.start(modernServer([]));
    scene.client = await McpClient.connect({ url: scene.fixture.url });
    expect(scene.client.era).toBe('modern');
    expect(scene.fixture.seen('server/discover')).toHaveLength(1);
    expect(scene.fixture.seen('initialize')).toHaveLength(0);
  });

  it('a legacy Streamable HTTP server: discover is refused, then initialize', async () => {
    await scene.start(() => false, legacyServer());
    scene.client = await McpClient.connect({ url: scene.fixture.url });
    expect(scene.client.era).toBe('legacy');
    expect(scene.fixture.requests.map((r) => r.rpc ?? r.method).slice(0, 3)).toEqual([
      'server/discover',
      'initialize',
      'notifications/initialized',
    ]);
  });

  it('a 2024-11-05 HTTP+SSE server: POSTs fail with 405, the GET finds the endpoint event', async () => {
    const streams: ServerResponse[] = [];
    await scene.start((seen, res) => {
      if (seen.method === 'GET' && seen.path === '/mcp') {
        openSse(res);
        sse(res, '/messages?sessionId=abc', { event: 'endpoint' });
        streams.push(res);
        return true;
      }
      if (seen.method === 'POST' && seen.path === '/messages?sessionId=abc') {
        res.writeHead(202).end('Accepted');
        const message = seen.json!;
        if (seen.rpc === 'initialize') {
          sse(
            streams[0]!,
            result(seen, {
              protocolVersion: '2024-11-05',
              capabilities: { tools: {} },
              serverInfo: { name: 'old', version: '0.1' },
            }),
            { event: 'message' },
          );
        } else if (seen.rpc === 'tools/list') {
          sse(streams[0]!, result(seen, { tools: [{ name: 'legacy-tool', inputSchema: { type: 'object' } }] }), {
            event: 'message',
          });
        } else if ('id' in message) {
          sse(streams[0]!, rpcError(seen, -32601, 'nope'), { event: 'message' });
        }
        return true;
      }
      res.writeHead(405).end();
      return true;
    });
    scene.client = await McpClient.connect({ url: scene.fixture.url });
    expect(scene.client.era).toBe('legacy');
    expect(scene.client.protocolVersion).toBe('2024-11-05');
    expect((await scene.client.listTools()).map((t) => t.name)).toEqual(['legacy-tool']);
    await scene.client.close();
    scene.client = undefined;
    // Closing ends the SSE stream: the server sees its response close.
    await until(() => streams[0]!.closed);
  });

  it('neither shape: one error that says what each attempt got', async () => {
    await scene.start((_seen, res) => {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Cannot POST /mcp');
      return true;
    });
    const error = await McpClient.connect({ url: scene.fixture.url }, { name: 'nowhere' }).catch((e: unknown) => e);
    expect(isMcpError(error, 'TRANSPORT')).toBe(true);
    expect((error as Error).message).toMatch(
      /^server "nowhere": initialize .* is neither a Streamable HTTP endpoint \(.*HTTP 404.*\) nor an HTTP\+SSE one \(.*HTTP 404.*\)$/,
    );
  });

  it('remembers the verdict per URL: the next connect skips the probe', async () => {
    await scene.start(() => false, legacyServer());
    scene.client = await McpClient.connect({ url: scene.fixture.url });
    await scene.client.close();
    scene.client = await McpClient.connect({ url: scene.fixture.url });
    expect(scene.fixture.seen('server/discover')).toHaveLength(1);
    expect(scene.fixture.seen('initialize')).toHaveLength(2);
  });

  it("transport: 'http' never falls back to HTTP+SSE", async () => {
    await scene.start((_seen, res) => {
      res.writeHead(405).end();
      return true;
    });
    const error = await McpClient.connect({ url: scene.fixture.url, transport: 'http' }).catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: 'TRANSPORT',
      method: 'initialize',
      status: 405,
      url: scene.fixture.url,
      data: undefined,
    });
    expect(scene.fixture.seen('GET')).toHaveLength(0);
  });
});
