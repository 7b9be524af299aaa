/**
 * server-everything over stdio, trigger-long-running-operation: progress reaches the caller and
 * keeps a call alive past its idle timeout (with or without a callback); without progress, or
 * with reset disabled, or past the hard cap, the call times out (TIMEOUT, not CANCELLED); an
 * AbortSignal cancels with CANCELLED and a cancel notice, and the server keeps serving.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProgressParams } from '../../src/protocol/types.js';
import type { TransportDiagnostic } from '../../src/protocol/transport.js';
import { StdioTransport } from '../../src/transport/stdio/stdio.js';
import { RecordingTransport } from '../kit/recording-transport.js';
import { type EverythingHarness, startEverything } from './support/everything-harness.js';
import { everything, textOf } from './support/reference-servers.js';

const LONG = 'trigger-long-running-operation';

interface Sent {
  id?: number;
  method?: string;
  params?: {
    name?: string;
    arguments?: Record<string, unknown>;
    _meta?: { progressToken?: number };
    requestId?: number;
    reason?: string;
  };
}

describe('server-everything: progress, timeouts and cancellation', () => {
  let recording: RecordingTransport;
  let harness: EverythingHarness;
  const diagnostics: TransportDiagnostic[] = [];

  beforeAll(async () => {
    recording = new RecordingTransport(await StdioTransport.spawn(everything(), { name: 'everything' }));
    harness = await startEverything({ transport: recording });
    harness.client.on('diagnostic', (d) => diagnostics.push(d));
  });
  afterAll(async () => {
    await harness?.stop();
  });

  const sent = () => recording.sent.map((r) => r.message as Sent);
  const lastCall = () =>
    sent()
      .filter((m) => m.method === 'tools/call' && m.params?.name === LONG)
      .at(-1)!;
  const cancelFor = (id: number | undefined) =>
    sent().find((m) => m.method === 'notifications/cancelled' && m.params?.requestId === id);

  it('delivers increasing progress with the total to onProgress and to the progress event', async () => {
    const progress: ProgressParams[] = [];
    const global: ProgressParams[] = [];
    const off = harness.client.on('progress', (p) => global.push(p));
    const result = await harness.client.callTool(
      LONG,
      { duration: 0.8, steps: 4 },
      { onProgress: (p) => progress.push(p) },
    );
    off();
    expect(textOf(result)).toBe('Long running operation completed. Duration: 0.8 seconds, Steps: 4.');
    expect(progress.map((p) => p.progress)).toEqual([1, 2, 3, 4]);
    expect(progress.every((p) => p.total === 4)).toBe(true);
    const token = lastCall().params?._meta?.progressToken;
    expect(token).toBeDefined();
    expect(progress.every((p) => p.progressToken === token)).toBe(true);
    expect(global).toEqual(progress);
  });

  it('lets progress reset a 1500 ms idle timeout on a 3.2 s operation', async () => {
    const progress: number[] = [];
    const started = performance.now();
    const result = await harness.client.callTool(
      LONG,
      { duration: 3.2, steps: 8 },
      { timeoutMs: 1_500, onProgress: (p) => progress.push(p.progress) },
    );
    // The server sleeps 3.2 s in all, so the call outlived its idle timeout twice over.
    expect(performance.now() - started).toBeGreaterThan(3_000);
    expect(textOf(result)).toContain('completed');
    expect(progress).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it('resets the idle timeout on progress without any progress callback', async () => {
    const result = await harness.client.callTool(LONG, { duration: 2.4, steps: 6 }, { timeoutMs: 1_000 });
    expect(textOf(result)).toContain('completed');
    expect(lastCall().params?._meta?.progressToken).toBeDefined();
  });

  it('times out (TIMEOUT, not CANCELLED) when no progress is asked for, and tells the server', async () => {
    const call = harness.client.callTool(LONG, { duration: 2, steps: 2 }, { timeoutMs: 600, trackProgress: false });
    await expect(call).rejects.toMatchObject({ code: 'TIMEOUT', server: 'everything', method: 'tools/call' });
    const request = lastCall();
    expect(request.params?._meta?.progressToken).toBeUndefined();
    expect(cancelFor(request.id)).toMatchObject({
      params: { requestId: request.id, reason: expect.stringContaining('timed out') },
    });
  });

  it('times out despite progress when resetTimeoutOnProgress is false', async () => {
    const progress: number[] = [];
    const call = harness.client.callTool(
      LONG,
      { duration: 2, steps: 8 },
      { timeoutMs: 900, resetTimeoutOnProgress: false, onProgress: (p) => progress.push(p.progress) },
    );
    await expect(call).rejects.toMatchObject({ code: 'TIMEOUT' });
    expect(progress.length).toBeGreaterThan(0);
  });

  it('stops at the hard cap however much progress flows', async () => {
    const call = harness.client.callTool(
      LONG,
      { duration: 2.4, steps: 8 },
      { timeoutMs: 5_000, maxTotalTimeoutMs: 1_000 },
    );
    const error = await call.then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(error).toMatchObject({ code: 'TIMEOUT' });
    expect(error!.message).toContain('total timeout of 1000 ms');
  });

  it('cancels through an AbortSignal with CANCELLED, sends notifications/cancelled, ignores late progress and keeps serving', async () => {
    const controller = new AbortController();
    const progress: number[] = [];
    const call = harness.client.callTool(
      LONG,
      { duration: 2, steps: 10 },
      {
        signal: controller.signal,
        onProgress: (p) => {
          progress.push(p.progress);
          if (p.progress === 2) controller.abort(new Error('user pressed stop'));
        },
      },
    );
    const error = await call.then(
      () => undefined,
      (e: unknown) => e as Error & { cause?: unknown },
    );
    expect(error).toMatchObject({ code: 'CANCELLED', server: 'everything', method: 'tools/call' });
    expect((error!.cause as Error).message).toBe('user pressed stop');
    const request = lastCall();
    expect(cancelFor(request.id)).toMatchObject({ params: { requestId: request.id } });

    // The server is still serving, while its cancelled loop goes on emitting progress.
    expect(textOf(await harness.client.callTool('echo', { message: 'still here' }))).toBe('Echo: still here');
    await harness.client.ping();
    const token = request.params!._meta!.progressToken!;
    await expect
      .poll(
        () =>
          recording.received.some(
            (r) =>
              (r.message as { params?: { progressToken?: number; progress?: number } }).params?.progressToken ===
                token && (r.message as { params: { progress: number } }).params.progress > 3,
          ),
        { timeout: 5_000 },
      )
      .toBe(true);
    expect(progress).toEqual([1, 2]);
    // The SDK server suppresses the answer of a cancelled request; nothing arrived late.
    expect(diagnostics.filter((d) => d.kind === 'late-response')).toEqual([]);
  });

  it('rejects at once, sending nothing, when the signal is already aborted', async () => {
    const before = recording.sent.length;
    await expect(
      harness.client.callTool(LONG, { duration: 1, steps: 1 }, { signal: AbortSignal.abort() }),
    ).rejects.toMatchObject({ code: 'CANCELLED' });
    expect(recording.sent.length).toBe(before);
  });
});
