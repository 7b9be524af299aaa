/**
 * `ClientOptions.signal` aborts an HTTP connect wherever it stands: the HTTP+SSE GET and its
 * wait for the `endpoint` event, or the Streamable HTTP probe. The connect rejects with
 * `CANCELLED` whose cause is the signal's reason, and nothing stays open.
 */
import { describe, expect, it } from 'vitest';
import { McpClient } from '../src/client/mcp-client.js';
import { LegacySseTransport } from '../src/transport/http/legacy-sse.js';
import { legacyServer, openSse, until } from './support/http-fixture.js';
import { useHttpScene } from './support/http-scene.js';

const scene = useHttpScene<McpClient>();

describe('aborting an HTTP connect', () => {
  it('HTTP+SSE: an abort while waiting for the endpoint event rejects with CANCELLED at once and closes the stream', async () => {
    await scene.start((seen, res) => {
      if (seen.method !== 'GET') return false;
      openSse(res); // a stream, but never an endpoint event
      return true;
    });
    const controller = new AbortController();
    const reason = new Error('user pressed stop');
    // The connect timeout is far away: only the abort can end this connect in time.
    const connecting = McpClient.connect(
      { url: scene.fixture.url, transport: 'sse' },
      { name: 'old', signal: controller.signal, connectTimeoutMs: 25_000 },
    ).catch((e: unknown) => e);
    await until(() => scene.fixture.seen('GET').length === 1 && scene.fixture.openSockets() === 1, 10_000);
    controller.abort(reason);
    const error = await connecting;
    expect(error).toMatchObject({ code: 'CANCELLED', server: 'old' });
    expect((error as Error).cause).toBe(reason);
    expect((error as Error).message).toContain(`connecting to ${scene.fixture.url} was cancelled by the caller`);
    // cleanUp then checks that the GET stream's socket was released.
  });

  it('HTTP+SSE: an already aborted signal sends nothing', async () => {
    await scene.start(() => false);
    const error = await LegacySseTransport.connect(scene.fixture.url, {
      name: 'old',
      signal: AbortSignal.abort(new Error('too late')),
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'CANCELLED', server: 'old' });
    expect(scene.fixture.requests).toHaveLength(0);
  });

  it('Streamable HTTP: an abort during the probe rejects with CANCELLED and sends no initialize', async () => {
    await scene.start((seen, res) => {
      if (seen.rpc !== 'server/discover') return false;
      openSse(res); // the probe hangs
      return true;
    }, legacyServer());
    const controller = new AbortController();
    const reason = new Error('user pressed stop');
    const connecting = McpClient.connect(
      { url: scene.fixture.url },
      { name: 'slow', signal: controller.signal, probeTimeoutMs: 25_000 },
    ).catch((e: unknown) => e);
    await until(() => scene.fixture.seen('server/discover').length === 1, 10_000);
    controller.abort(reason);
    const error = await connecting;
    expect(error).toMatchObject({ code: 'CANCELLED', server: 'slow', method: 'server/discover' });
    expect((error as Error).cause).toBe(reason);
    expect(scene.fixture.seen('initialize')).toHaveLength(0);
  });
});
