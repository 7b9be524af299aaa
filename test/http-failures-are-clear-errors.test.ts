/**
 * Everything a network and a bad server can do to an HTTP client: each failure is an McpError
 * naming the server, the method and the URL (credentials redacted), every pending request
 * settles, and no socket stays open.
 */
import { describe, expect, it } from 'vitest';
import { McpClient } from '../src/client/mcp-client.js';
import { HttpError, isMcpError, McpError } from '../src/protocol/errors.js';
import {
  json,
  legacyServer,
  openSse,
  result,
  sseText,
  startHttpFixture,
  until,
  writeThenDrop,
  unauthorized,
} from './support/http-fixture.js';
import { freePort } from './support/ports.js';
import { useHttpScene } from './support/http-scene.js';
import { failureOf } from './support/failure.js';

const SECRET = 'sk-live-0123456789abcdef';
const scene = useHttpScene<McpClient>();

/** A legacy server that misbehaves on `tools/call` only, as `fault` says. */
async function faultyOnCall(fault: Parameters<typeof startHttpFixture>[0]): Promise<McpClient> {
  await scene.start((seen, res, req) => (seen.rpc === 'tools/call' ? fault(seen, res, req) : false), legacyServer());
  scene.client = await McpClient.connect(
    { url: scene.fixture.url, headers: { Authorization: `Bearer ${SECRET}` } },
    { name: 'remote' },
  );
  return scene.client;
}

function expectNoSecret(error: unknown): void {
  expect(String((error as Error).message)).not.toContain(SECRET);
  expect(JSON.stringify(error)).not.toContain(SECRET);
  expect(JSON.stringify((error as McpError).data ?? {})).not.toContain(SECRET);
  if (error instanceof HttpError)
    expect(JSON.stringify([error.url, error.body, error.challenge])).not.toContain(SECRET);
}

describe('HTTP failures', () => {
  it('connection refused: TRANSPORT naming the URL, at once', async () => {
    const port = await freePort();
    const error = await McpClient.connect({ url: `http://127.0.0.1:${port}/mcp` }, { name: 'gone' }).catch(
      (e: unknown) => e,
    );
    expect(isMcpError(error, 'TRANSPORT')).toBe(true);
    expect((error as Error).message).toMatch(
      new RegExp(`^server "gone": server/discover cannot reach http://127\\.0\\.0\\.1:${port}/mcp: .*ECONNREFUSED`),
    );
  });

  it('an unknown host name: TRANSPORT naming the URL', async () => {
    const error = await McpClient.connect(
      { url: 'http://no-such-host.invalid/mcp' },
      { name: 'dns', connectTimeoutMs: 5_000 },
    ).catch((e: unknown) => e);
    expect(isMcpError(error, 'TRANSPORT')).toBe(true);
    expect((error as Error).message).toContain('cannot reach http://no-such-host.invalid/mcp');
  });

  it('HTTP 500 on a call: TRANSPORT with the status and a quote of the body', async () => {
    await faultyOnCall((_seen, res) => {
      res.writeHead(500, { 'content-type': 'text/plain' }).end(`database down (token ${SECRET})`);
      return true;
    });
    const error = await failureOf(scene.client!.callTool('echo', {}), HttpError, {
      code: 'TRANSPORT',
      server: 'remote',
      method: 'tools/call',
      status: 500,
      url: scene.fixture.url,
      body: 'database down (token ***)',
      resend: 'never',
      data: undefined,
    });
    expect((error as Error).message).toBe(
      `server "remote": tools/call HTTP 500 from ${scene.fixture.url}: database down (token ***)`,
    );
    expectNoSecret(error);
  });

  it('a body that is not JSON: TRANSPORT saying so', async () => {
    await faultyOnCall((_seen, res) => {
      res.writeHead(200, { 'content-type': 'application/json' }).end('<html>oops</html>');
      return true;
    });
    const error = await scene.client!.callTool('echo', {}).catch((e: unknown) => e);
    expect(isMcpError(error, 'TRANSPORT')).toBe(true);
    expect((error as Error).message).toContain('the response is not JSON: <html>oops</html>');
  });

  it('an unexpected Content-Type: TRANSPORT naming it', async () => {
    await faultyOnCall((_seen, res) => {
      res.writeHead(200, { 'content-type': 'text/html' }).end('<p>hi</p>');
      return true;
    });
    const error = await scene.client!.callTool('echo', {}).catch((e: unknown) => e);
    expect((error as Error).message).toContain('unexpected Content-Type "text/html" for tools/call');
  });

  it('a half-written SSE event, then the server stops: the request fails, the partial event is not delivered', async () => {
    await faultyOnCall((seen, res) => {
      openSse(res);
      writeThenDrop(res, `data: ${JSON.stringify(result(seen, { content: [] })).slice(0, 20)}`);
      return true;
    });
    const error = await scene.client!.callTool('echo', {}).catch((e: unknown) => e);
    expect(isMcpError(error, 'TRANSPORT')).toBe(true);
    expect((error as Error).message).toContain('SSE stream ended before the response arrived');
  });

  it('401: AUTH_REQUIRED carrying the WWW-Authenticate challenge, secrets redacted', async () => {
    await scene.start((_seen, res) => {
      return unauthorized(
        res,
        'Bearer resource_metadata="http://127.0.0.1/.well-known/oauth-protected-resource", error="invalid_token"',
      );
    });
    const error = await McpClient.connect(
      { url: scene.fixture.url, headers: { Authorization: `Bearer ${SECRET}` } },
      { name: 'locked' },
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({ code: 'AUTH_REQUIRED', server: 'locked', status: 401, data: undefined });
    expect((error as HttpError).challenge).toEqual([
      {
        scheme: 'bearer',
        params: { resource_metadata: 'http://127.0.0.1/.well-known/oauth-protected-resource', error: 'invalid_token' },
      },
    ]);
    // Refused at the probe: no point trying initialize with the same credentials.
    expect(scene.fixture.seen('initialize')).toHaveLength(0);
    expectNoSecret(error);
  });

  it('403 on a call: AUTH_REQUIRED (insufficient scope)', async () => {
    await faultyOnCall((_seen, res) => {
      res.writeHead(403, { 'www-authenticate': 'Bearer error="insufficient_scope", scope="tools:write"' }).end();
      return true;
    });
    const error = await scene.client!.callTool('echo', {}).catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: 'AUTH_REQUIRED',
      method: 'tools/call',
      status: 403,
      challenge: [{ scheme: 'bearer', params: { error: 'insufficient_scope', scope: 'tools:write' } }],
    });
    expect((error as Error).message).toContain(
      '(WWW-Authenticate: Bearer error="insufficient_scope", scope="tools:write")',
    );
  });

  it('a redirect is not followed for a POST: TRANSPORT saying where it pointed', async () => {
    await faultyOnCall((_seen, res) => {
      res.writeHead(307, { location: 'https://elsewhere.example/mcp?token=abc' }).end();
      return true;
    });
    const error = await scene.client!.callTool('echo', {}).catch((e: unknown) => e);
    expect(isMcpError(error, 'TRANSPORT')).toBe(true);
    expect((error as Error).message).toContain('redirected to https://elsewhere.example/mcp?token=***');
    expect((error as Error).message).toContain('not re-sent to another URL automatically');
    expect(scene.fixture.seen('tools/call')).toHaveLength(1);
  });

  it('a response larger than the cap: TRANSPORT, and the socket is released', async () => {
    await scene.start((seen, res) => {
      if (seen.rpc !== 'tools/call') return false;
      return json(res, result(seen, { content: [{ type: 'text', text: 'x'.repeat(64 * 1024) }] }));
    }, legacyServer());
    const { StreamableHttpTransport } = await import('../src/transport/http/streamable-http.js');
    scene.client = await McpClient.connect(
      new StreamableHttpTransport(scene.fixture.url, { maxMessageBytes: 16 * 1024 }),
      {
        era: 'legacy',
      },
    );
    const error = await scene.client.callTool('echo', {}).catch((e: unknown) => e);
    expect(isMcpError(error, 'TRANSPORT')).toBe(true);
    expect((error as Error).message).toContain('exceeds 16384 bytes');
  });

  it('a server that never answers: TIMEOUT, a cancel notice, and the stream is released', async () => {
    await faultyOnCall((_seen, res) => {
      openSse(res);
      return true; // silence
    });
    const error = await scene.client!.callTool('echo', {}, { timeoutMs: 150 }).catch((e: unknown) => e);
    expect(isMcpError(error, 'TIMEOUT')).toBe(true);
    await until(() => scene.fixture.seen('notifications/cancelled').length === 1);
    expect(scene.fixture.seen('notifications/cancelled')[0]!.json!.params).toMatchObject({
      requestId: scene.fixture.seen('tools/call')[0]!.json!.id,
    });
  });

  it('a server that dies mid-stream: every pending request settles', async () => {
    await faultyOnCall((_seen, res) => {
      openSse(res);
      writeThenDrop(
        res,
        sseText({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'started' } }),
      );
      return true;
    });
    const results = await Promise.allSettled([
      scene.client!.callTool('a', {}),
      scene.client!.callTool('b', {}),
      scene.client!.callTool('c', {}),
    ]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected']);
    for (const r of results) expect(isMcpError((r as PromiseRejectedResult).reason, 'TRANSPORT')).toBe(true);
  });

  it('the caller aborts a legacy call: CANCELLED, the stream closes, and notifications/cancelled is sent', async () => {
    await faultyOnCall((_seen, res) => {
      openSse(res);
      return true;
    });
    const controller = new AbortController();
    const pending = scene.client!.callTool('echo', {}, { signal: controller.signal });
    await until(() => scene.fixture.seen('tools/call').length === 1);
    controller.abort(new Error('user pressed stop'));
    const error = await pending.catch((e: unknown) => e);
    expect(isMcpError(error, 'CANCELLED')).toBe(true);
    await until(() => scene.fixture.seen('notifications/cancelled').length === 1);
    expect(scene.fixture.seen('notifications/cancelled')[0]!.headers['mcp-session-id']).toBe('s1');
  });

  it('close() while requests are in flight rejects them with CONNECTION_CLOSED and releases every socket', async () => {
    await faultyOnCall((_seen, res) => {
      openSse(res);
      return true;
    });
    const settled = Promise.allSettled([scene.client!.callTool('a', {}), scene.client!.callTool('b', {})]);
    await until(() => scene.fixture.seen('tools/call').length === 2);
    await scene.client!.close();
    for (const r of await settled) {
      expect(isMcpError((r as PromiseRejectedResult).reason, 'CONNECTION_CLOSED')).toBe(true);
    }
  });
});
