/**
 * On the 2024-11-05 HTTP+SSE transport every answer travels on one shared stream. A `message`
 * event over `maxMessageBytes` is dropped, reported with a diagnostic naming the size limit, and
 * never leaves a caller waiting out its timeout: the request it answered (its id read from the
 * event's first characters) fails at once with `TRANSPORT`, and when a response cannot be tied to
 * one request, every request then pending does. Nothing is re-sent, and the stream stays usable;
 * an oversize notification or junk event fails nothing.
 */
import { describe, expect, it } from 'vitest';
import { McpClient } from '../src/client/mcp-client.js';
import type { TransportDiagnostic } from '../src/protocol/transport.js';
import {
  type HttpFixture,
  httpSseServer,
  result,
  type Seen,
  sse,
  type SseAnswer,
  until,
} from './support/http-fixture.js';
import { useHttpScene } from './support/http-scene.js';

const CAP = 64 * 1024;
const HUGE = 'x'.repeat(4 * CAP);
/** Long enough that a request waiting for it would fail the test's own bound. */
const REQUEST_TIMEOUT_MS = 30_000;

const scene = useHttpScene<McpClient>();

/** How the scripted server answers one request on the stream; `undefined` = never. */
/**
 * An HTTP+SSE server: GET opens the stream with its `endpoint` event; every POST is accepted
 * (202) and answered on the stream, by `answers[method]` or, for `initialize` and `ping`, plainly.
 */
function sseServer(answers: Record<string, SseAnswer>): Promise<HttpFixture> {
  return scene.start(httpSseServer({ answers }));
}

async function connect(): Promise<{ client: McpClient; diagnostics: TransportDiagnostic[] }> {
  const diagnostics: TransportDiagnostic[] = [];
  scene.client = await McpClient.connect(
    { url: scene.fixture.url, transport: 'sse' },
    { name: 'old', http: { maxMessageBytes: CAP }, requestTimeoutMs: REQUEST_TIMEOUT_MS },
  );
  scene.client.on('diagnostic', (d) => diagnostics.push(d));
  return { client: scene.client, diagnostics };
}

/** Rejection of `promise` and how long it took to come (a request left waiting would take REQUEST_TIMEOUT_MS). */
async function failure(promise: Promise<unknown>): Promise<{ error: unknown; elapsedMs: number }> {
  const started = performance.now();
  const error = await promise.then(
    () => new Error('resolved'),
    (e: unknown) => e,
  );
  return { error, elapsedMs: performance.now() - started };
}

describe('an HTTP+SSE message event over the size cap', () => {
  it('with its id before the payload: that request fails at once with TRANSPORT naming the limit, is not re-sent, and the stream goes on', async () => {
    await sseServer({
      'tools/list': (seen, stream) =>
        sse(
          stream,
          {
            jsonrpc: '2.0',
            id: seen.json!.id,
            result: { tools: [{ name: 'huge', description: HUGE, inputSchema: { type: 'object' } }] },
          },
          { event: 'message' },
        ),
    });
    const { client, diagnostics } = await connect();
    const { error, elapsedMs } = await failure(client.listTools());
    expect(error).toMatchObject({ code: 'TRANSPORT', server: 'old', method: 'tools/list' });
    expect((error as Error).message).toContain(`exceeds ${CAP} bytes, the size limit (maxMessageBytes)`);
    expect(elapsedMs).toBeLessThan(REQUEST_TIMEOUT_MS / 3);
    const oversize = diagnostics.filter((d) => d.kind === 'oversize');
    expect(oversize).toHaveLength(1);
    expect(oversize[0]!.message).toContain(`exceeds ${CAP} bytes, the size limit (maxMessageBytes)`);
    expect(oversize[0]!.sample!.length).toBeLessThanOrEqual(201);
    expect(scene.fixture.seen('tools/list')).toHaveLength(1);
    expect(diagnostics.map((d) => d.kind)).not.toContain('resent');
    // The shared stream still carries answers.
    await client.ping();
  });

  it('a response that cannot be tied to one request (its id after the payload): every request pending then fails at once', async () => {
    let slowCall: Seen | undefined;
    await sseServer({
      'tools/call': (seen) => void (slowCall = seen), // never answered
      'tools/list': (seen, stream) =>
        sse(
          stream,
          `{"jsonrpc":"2.0","result":{"tools":[{"name":"huge","description":"${HUGE}"}]},"id":${JSON.stringify(seen.json!.id)}}`,
          { event: 'message' },
        ),
    });
    const { client } = await connect();
    const call = failure(client.callTool('slow', {}));
    await until(() => slowCall !== undefined, { timeoutMs: 10_000, what: 'the server to receive the call' });
    const list = failure(client.listTools());
    const [listed, called] = await Promise.all([list, call]);
    for (const [outcome, method] of [
      [listed, 'tools/list'],
      [called, 'tools/call'],
    ] as const) {
      expect(outcome.error).toMatchObject({ code: 'TRANSPORT', server: 'old', method });
      expect((outcome.error as Error).message).toContain('could not be tied to one request');
      expect((outcome.error as Error).message).toContain(`exceeds ${CAP} bytes, the size limit (maxMessageBytes)`);
      expect(outcome.elapsedMs).toBeLessThan(REQUEST_TIMEOUT_MS / 3);
    }
    await client.ping();
  });

  it.each([
    [
      'a notification of the server',
      { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: HUGE } },
    ],
    ['junk', `not JSON at all ${HUGE}`],
  ])('that is %s: reported, and no request fails for it', async (_name, event) => {
    await sseServer({
      'tools/call': (seen, stream) => {
        sse(stream, event, { event: 'message' });
        sse(stream, result(seen, { content: [{ type: 'text', text: 'done' }] }), { event: 'message' });
      },
    });
    const { client, diagnostics } = await connect();
    expect(await client.callTool('chatty', {})).toEqual({ content: [{ type: 'text', text: 'done' }] });
    expect(diagnostics.filter((d) => d.kind === 'oversize')).toHaveLength(1);
  });
});
