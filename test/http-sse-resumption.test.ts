/**
 * SSE streams that drop: the 2025-11-25 priming-event polling pattern, `Last-Event-ID` replay,
 * and what happens when a stream cannot be resumed (lost requests are errors, re-sent only when
 * they have no side effects).
 */
import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { McpClient } from '../src/client/mcp-client.js';
import { isMcpError } from '../src/protocol/errors.js';
import { legacyServer, openSse, result, type Seen, sse, sseText, writeThenDrop } from './support/http-fixture.js';
import { useHttpScene } from './support/http-scene.js';

const scene = useHttpScene<McpClient>();

describe('SSE resumption (legacy era)', () => {
  it('polls after a priming event: waits the retry delay, then GETs with Last-Event-ID and reads the response there', async () => {
    let call: Seen | undefined;
    let primedAt = 0;
    await scene.start((seen, res) => {
      if (seen.rpc === 'tools/call') {
        call = seen;
        openSse(res);
        res.write('id: event-1\nretry: 300\ndata: \n\n');
        primedAt = Date.now();
        res.end();
        return true;
      }
      if (seen.method === 'GET' && seen.headers['last-event-id'] === 'event-1') {
        openSse(res);
        sse(res, result(call!, { content: [{ type: 'text', text: 'after polling' }] }), { id: 'event-2' });
        res.end();
        return true;
      }
      return false;
    }, legacyServer());
    scene.client = await McpClient.connect({ url: scene.fixture.url });
    const answer = await scene.client.callTool('slow', {});
    expect(answer.content).toEqual([{ type: 'text', text: 'after polling' }]);
    const resume = scene.fixture.requests.find((r) => r.method === 'GET' && r.headers['last-event-id'] === 'event-1')!;
    expect(resume.headers['mcp-session-id']).toBe('s1');
    expect(resume.headers.accept).toBe('text/event-stream');
    // The retry field is a MUST: the GET came no sooner than the server asked (with timer slack).
    const at = scene.fixture.requests.indexOf(resume);
    expect(at).toBeGreaterThan(0);
    expect(Date.now() - primedAt).toBeGreaterThanOrEqual(250);
  });

  it('resumes a stream that broke mid-way and gets the missed events replayed after the last id it saw', async () => {
    let call: Seen | undefined;
    await scene.start((seen, res) => {
      if (seen.rpc === 'tools/call') {
        call = seen;
        openSse(res);
        writeThenDrop(
          res,
          sseText(
            {
              jsonrpc: '2.0',
              method: 'notifications/progress',
              params: {
                progressToken: (call.json!.params as { _meta: { progressToken: number } })._meta.progressToken,
                progress: 1,
              },
            },
            { id: 'p1', retry: 20 },
          ),
        );
        return true;
      }
      if (seen.method === 'GET' && seen.headers['last-event-id'] === 'p1') {
        openSse(res);
        const token = (call!.json!.params as { _meta: { progressToken: number } })._meta.progressToken;
        sse(
          res,
          { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: token, progress: 2 } },
          { id: 'p2' },
        );
        sse(res, result(call!, { content: [{ type: 'text', text: 'resumed' }] }), { id: 'p3' });
        res.end();
        return true;
      }
      return false;
    }, legacyServer());
    scene.client = await McpClient.connect({ url: scene.fixture.url });
    const progress: number[] = [];
    const answer = await scene.client.callTool('long', {}, { onProgress: (p) => progress.push(p.progress) });
    expect(answer.content).toEqual([{ type: 'text', text: 'resumed' }]);
    expect(progress).toEqual([1, 2]);
  });

  it('reports a request lost when its stream ends without an event id to resume from (not re-sent: tools/call may have run)', async () => {
    await scene.start((seen, res) => {
      if (seen.rpc !== 'tools/call') return false;
      openSse(res);
      sse(res, { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'started' } });
      res.end();
      return true;
    }, legacyServer());
    scene.client = await McpClient.connect({ url: scene.fixture.url });
    const error = await scene.client.callTool('side-effect', {}).catch((e: unknown) => e);
    expect(isMcpError(error, 'TRANSPORT')).toBe(true);
    expect((error as Error).message).toMatch(
      /^server "127\.0\.0\.1:\d+": tools\/call .*SSE stream ended before the response arrived/,
    );
    expect((error as Error).message).toContain(scene.fixture.url);
    expect(scene.fixture.seen('tools/call')).toHaveLength(1);
  });

  it('re-sends a lost tools/list once, as a new request (lists have no side effects)', async () => {
    let lists = 0;
    await scene.start((seen, res) => {
      if (seen.rpc !== 'tools/list' || ++lists > 1) return false;
      openSse(res);
      res.end(); // dropped before anything was sent
      return true;
    }, legacyServer());
    scene.client = await McpClient.connect({ url: scene.fixture.url });
    const kinds: string[] = [];
    scene.client.on('diagnostic', (d) => kinds.push(d.kind));
    expect((await scene.client.listTools()).map((t) => t.name)).toEqual(['echo']);
    const sent = scene.fixture.seen('tools/list');
    expect(sent).toHaveLength(2);
    expect(sent[0]!.json!.id).not.toBe(sent[1]!.json!.id);
    expect(kinds).toContain('resent');
  });

  it('says the request may have run when the session expired while its stream was being resumed', async () => {
    const server = legacyServer();
    await scene.start((seen, res) => {
      if (seen.rpc === 'tools/call') {
        openSse(res);
        res.write('id: e1\nretry: 10\ndata: \n\n');
        server.expire();
        res.end();
        return true;
      }
      return false;
    }, server);
    scene.client = await McpClient.connect({ url: scene.fixture.url });
    const error = await scene.client.callTool('transfer-money', {}).catch((e: unknown) => e);
    expect(isMcpError(error, 'TRANSPORT')).toBe(true);
    expect((error as Error).message).toContain('may have executed it, so it is not re-sent');
    expect(scene.fixture.seen('tools/call')).toHaveLength(1);
  });

  it('gives up resuming after repeated failures and settles the request', async () => {
    await scene.start((seen, res) => {
      if (seen.rpc === 'tools/call' || (seen.method === 'GET' && seen.headers['last-event-id'])) {
        openSse(res);
        res.write('id: same\nretry: 5\ndata: \n\n');
        res.end();
        return true;
      }
      return false;
    }, legacyServer());
    scene.client = await McpClient.connect({ url: scene.fixture.url });
    const error = await scene.client.callTool('never', {}).catch((e: unknown) => e);
    expect(isMcpError(error, 'TRANSPORT')).toBe(true);
    expect((error as Error).message).toMatch(/could not be resumed after 5 attempts/);
  });

  it('ignores comment keep-alives on a quiet stream and delivers the late response', async () => {
    let stream: ServerResponse | undefined;
    await scene.start((seen, res) => {
      if (seen.rpc !== 'tools/call') return false;
      openSse(res);
      stream = res;
      let beats = 0;
      const timer = setInterval(() => {
        res.write(':\n\n');
        if (++beats === 5) {
          clearInterval(timer);
          sse(res, result(seen, { content: [{ type: 'text', text: 'finally' }] }));
          res.end();
        }
      }, 40);
      return true;
    }, legacyServer());
    scene.client = await McpClient.connect({ url: scene.fixture.url });
    const diagnostics: string[] = [];
    scene.client.on('diagnostic', (d) => diagnostics.push(d.kind));
    const answer = await scene.client.callTool('quiet', {});
    expect(answer.content).toEqual([{ type: 'text', text: 'finally' }]);
    expect(diagnostics).not.toContain('invalid-json');
    expect(stream).toBeDefined();
  });
});
