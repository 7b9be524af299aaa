/**
 * The stdio shutdown rules from the server's side, with a real child process: a client closing
 * the server's stdin means "finish up". Calls in flight complete and their answers are written
 * to stdout, then the process exits by itself (code 0); a call that does not finish within the
 * grace period is aborted and the process still exits; a call waiting for the client's answer
 * fails at once (the client can no longer answer). Needs `npm run build` (the fixture imports
 * `mcpwire/server` from dist/).
 */
import type { ChildProcess } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { KIT_FINISHING_SERVER, startKitStdio } from './support/kit-stdio.js';
import { eventually } from './support/wait.js';

interface Served {
  child: ChildProcess;
  exited: Promise<number | null>;
  /** The parsed lines on stdout so far. */
  answers: Array<Record<string, unknown>>;
  stderr: string[];
  send(message: Record<string, unknown>): void;
}

function serve(graceMs?: number): Served {
  const raw = startKitStdio(KIT_FINISHING_SERVER, graceMs === undefined ? [] : [String(graceMs)]);
  const exited = raw.ended.then((end) => end.code);
  return { child: raw.child, exited, answers: raw.messages, stderr: raw.stderr, send: (message) => raw.write(message) };
}

function handshake(served: Served, capabilities: Record<string, unknown> = {}): Promise<unknown> {
  served.send({
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities, clientInfo: { name: 'raw', version: '1' } },
  });
  served.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  return eventually(() => served.answers.find((a) => a.id === 0), { what: 'the initialize answer' });
}

const hold = (id: number, name: string) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name: 'hold', arguments: { name } },
});

describe('a stdio server whose stdin ends', () => {
  it('finishes the calls in flight, writes their answers, then exits with code 0', async () => {
    const served = serve();
    await handshake(served);
    served.send(hold(1, 'a'));
    served.send(hold(2, 'b'));
    await eventually(
      () => (served.stderr.includes('started a') && served.stderr.includes('started b') ? true : undefined),
      { what: 'both calls running' },
    );
    served.child.stdin!.end();
    // The calls are released only once the server has seen the end of its input.
    // (A server that aborts its calls on the end of stdin exits instead: then there is nothing to release.)
    await eventually(
      () => (served.stderr.includes('input ended') || served.stderr.includes('exiting') ? true : undefined),
      { what: 'the server seeing the end of stdin' },
    );
    served.child.kill('SIGUSR2');
    expect(await served.exited).toBe(0);
    expect(
      served.answers
        .filter((a) => a.id === 1 || a.id === 2)
        .map((a) => (a.result as { content: Array<{ text: string }> }).content[0]!.text)
        .sort(),
    ).toEqual(['released a', 'released b']);
    expect(served.stderr).not.toContain('aborted a');
    expect(served.stderr.at(-1)).toBe('exiting');
  });

  it('exits at once when nothing is in flight', async () => {
    const served = serve();
    await handshake(served);
    served.child.stdin!.end();
    expect(await served.exited).toBe(0);
  });

  it('aborts a call still running after the grace period, and exits', async () => {
    const served = serve(300);
    await handshake(served);
    served.send(hold(1, 'stuck'));
    await eventually(() => (served.stderr.includes('started stuck') ? true : undefined), { what: 'the call running' });
    served.child.stdin!.end();
    expect(await served.exited).toBe(0);
    expect(served.stderr).toContain('aborted stuck');
    // An aborted call is not answered (its answer would be a lie: it did not finish).
    expect(served.answers.find((a) => a.id === 1)).toBeUndefined();
  });

  it('fails a call that waits for the client at once, since the client can no longer answer', async () => {
    const served = serve(60_000);
    await handshake(served, { roots: {} });
    served.send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'ask', arguments: {} } });
    await eventually(() => served.answers.find((a) => a.method === 'roots/list'), {
      what: 'the server asking for roots',
    });
    served.child.stdin!.end();
    expect(await served.exited).toBe(0);
    expect(served.answers.find((a) => a.id === 1)).toMatchObject({
      result: { isError: true, content: [{ type: 'text', text: 'no roots: CONNECTION_CLOSED' }] },
    });
  });
});
