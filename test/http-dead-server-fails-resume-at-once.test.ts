/**
 * Resuming a request's SSE stream never costs more than the request itself may take: a server
 * that is gone (connection refused on the `Last-Event-ID` GET) fails the request at once with an
 * error naming the URL, and a resume GET that is accepted but stays silent ends with the
 * request's own TIMEOUT, its stream released. (Seen with a stateless server that opens its
 * response stream with an event id and dies mid-call: five GETs backing off 1+2+4+8+16 s against
 * a refused port, and a TIMEOUT after the whole 30 s.)
 */
import { describe, expect, it } from 'vitest';
import { McpClient } from '../src/client/mcp-client.js';
import { isMcpError } from '../src/protocol/errors.js';
import { legacyServer, openSse, until } from './support/http-fixture.js';
import { useHttpScene } from './support/http-scene.js';

const scene = useHttpScene<McpClient>();

describe('resuming a broken response stream', () => {
  it('a stateless server that dies mid-call: the refused resume fails the call with TRANSPORT naming the URL, not TIMEOUT', async () => {
    await scene.start(
      (seen, res) => {
        if (seen.rpc !== 'tools/call') return false;
        openSse(res);
        // A priming event with an id and no retry (the client's default backoff applies), then the
        // server goes away: every socket destroyed and the port closed.
        res.write('id: call-1\ndata: \n\n', () => void scene.fixture.close());
        return true;
      },
      legacyServer({ sessions: false }),
    );
    scene.client = await McpClient.connect({ url: scene.fixture.url }, { name: 'stateless' });
    // Far longer than one resume attempt, far shorter than the old backoff (1+2+4+8+16 s).
    const error = await scene.client.callTool('work', {}, { timeoutMs: 15_000 }).catch((e: unknown) => e);
    expect(isMcpError(error, 'TIMEOUT')).toBe(false);
    expect(error).toMatchObject({
      code: 'TRANSPORT',
      server: 'stateless',
      method: 'tools/call',
      url: scene.fixture.url,
      unreachable: true,
      resend: 'never',
      data: undefined,
    });
    expect((error as Error).message).toContain(`cannot be resumed: cannot reach ${scene.fixture.url}`);
    expect((error as Error).message).toContain('ECONNREFUSED');
    expect((error as Error).message).toContain('not re-sent');
    expect(scene.fixture.seen('tools/call')).toHaveLength(1);
    // The server is gone: the transport closed, like any exchange that finds it unreachable.
    expect(await scene.client.closed).toMatchObject({ error: { code: 'CONNECTION_CLOSED' } });
  });

  it('a resume GET that is accepted but never answered: the call ends with its own TIMEOUT and the GET stream is released', async () => {
    await scene.start(
      (seen, res) => {
        if (seen.rpc === 'tools/call') {
          openSse(res);
          res.end('id: call-1\nretry: 20\ndata: \n\n');
          return true;
        }
        if (seen.method === 'GET' && seen.headers['last-event-id'] === 'call-1') {
          openSse(res); // and silence
          return true;
        }
        return false;
      },
      legacyServer({ sessions: false }),
    );
    scene.client = await McpClient.connect({ url: scene.fixture.url }, { name: 'silent' });
    const pending = scene.client.callTool('work', {}, { timeoutMs: 4_000 }).catch((e: unknown) => e);
    await until(() => scene.fixture.seen('GET').some((r) => r.headers['last-event-id'] === 'call-1'), 10_000);
    const error = await pending;
    expect(error).toMatchObject({ code: 'TIMEOUT', method: 'tools/call' });
    expect((error as Error).message).toContain('timed out after 4000 ms');
    // cleanUp then proves the silent GET's socket was let go (no socket left on the server).
  });
});
