/**
 * Back-pressure on a stdio server's stdin: a thousand sends into a full pipe wait on one list,
 * not on a drain/close listener pair each (which made Node print MaxListenersExceededWarning),
 * all complete once the server reads, and all reject with CONNECTION_CLOSED if it goes first.
 */
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { StdioTransport } from '../src/transport/stdio/stdio.js';
import { eventually, FIXTURES } from './support/processes.js';

const server = { command: process.execPath, args: [path.join(FIXTURES, 'stdio', 'reads-after-sigusr1.mjs')] };
const CALLS = 1_000;
const PAD = 'x'.repeat(300); // 1,000 × ~350 bytes: several times a pipe plus the stream's buffer

const warnings: Error[] = [];
const onWarning = (warning: Error) => warnings.push(warning);
const opened: StdioTransport[] = [];
afterEach(async () => {
  process.off('warning', onWarning);
  warnings.length = 0;
  await Promise.all(opened.splice(0).map((t) => t.close()));
});

/** A server that is not reading yet, and sends that fill its pipe; resolves with what `send` returned. */
async function fillThePipe(): Promise<{
  t: StdioTransport;
  answers: unknown[];
  sends: Array<Promise<void> | undefined>;
}> {
  const lines: string[] = [];
  const t = await StdioTransport.spawn(server, {
    name: 'slow',
    onStderr: (l) => lines.push(l),
    closeTimeouts: { stdinEndMs: 200, sigtermMs: 200 },
  });
  opened.push(t);
  await eventually(() => (lines.includes('waiting for SIGUSR1') ? true : undefined));
  const answers: unknown[] = [];
  t.onMessage((value) => answers.push(value));
  process.on('warning', onWarning);
  const sends: Array<Promise<void> | undefined> = [];
  for (let id = 1; id <= CALLS; id++) sends.push(t.send({ jsonrpc: '2.0', id, method: 'echo', params: { pad: PAD } }));
  return { t, answers, sends };
}

/** Lets queued 'warning' events (emitted on the next tick) arrive. */
const warningsDelivered = () => new Promise<void>((resolve) => setImmediate(resolve));

describe.skipIf(process.platform === 'win32')('a thousand sends into a full stdin pipe', () => {
  it('all wait, all complete once the server reads, every answer arrives, and Node prints no MaxListenersExceededWarning', async () => {
    const { t, answers, sends } = await fillThePipe();
    const waiting = sends.filter((s) => s !== undefined);
    // Back-pressure is real: most sends could not be written and wait for a drain.
    expect(waiting.length).toBeGreaterThan(CALLS / 2);
    process.kill(t.pid, 'SIGUSR1');
    await Promise.all(waiting);
    await eventually(() => (answers.length === CALLS ? true : undefined), 15_000);
    await warningsDelivered();
    expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning').map((w) => w.message)).toEqual([]);
  });

  it('all reject with CONNECTION_CLOSED when the server is stopped before it reads', async () => {
    const { t, sends } = await fillThePipe();
    const waiting = sends.filter((s) => s !== undefined);
    expect(waiting.length).toBeGreaterThan(CALLS / 2);
    const settled = Promise.allSettled(waiting);
    t.destroy();
    const outcomes = await settled;
    expect(
      new Set(outcomes.map((o) => (o.status === 'rejected' ? (o.reason as { code?: string }).code : o.status))),
    ).toEqual(new Set(['CONNECTION_CLOSED']));
    await warningsDelivered();
    expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning')).toEqual([]);
  });
});
