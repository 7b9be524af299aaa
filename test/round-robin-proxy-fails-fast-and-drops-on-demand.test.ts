/**
 * The round-robin proxy's failure modes (`test/support/round-robin-proxy.ts`), over three real
 * backend processes (`test/support/nodes.ts` running `test/support/http-node.mjs`): a backend
 * SIGKILLed gives 502 for the requests routed to it (at once, not a hang) and cuts a stream it
 * was serving; `kill(i)` also takes it out of the rotation; `dropNext()` cuts the client's
 * connection mid-stream after the chunk it waits for, the backend sees its client gone, and the
 * proxy serves on.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { startNodes } from './support/nodes.js';
import { isAlive } from './support/processes.js';
import { startRoundRobinProxy } from './support/round-robin-proxy.js';
import { readText } from './support/stream-reader.js';
import { eventually, within } from './support/wait.js';

const HTTP_NODE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'support/http-node.mjs');

async function threeNodes() {
  return startNodes(3, { script: HTTP_NODE, env: (i) => ({ NODE_NAME: `n${i}` }) });
}

async function status(url: string): Promise<number> {
  const response = await within(fetch(url), { what: `an answer from ${url}`, timeoutMs: 10_000 });
  await response.arrayBuffer();
  return response.status;
}

describe('the round-robin proxy when things break', () => {
  it('answers 502 at once for a dead backend and cuts the stream it was serving', async () => {
    const nodes = await threeNodes();
    const proxy = await startRoundRobinProxy(nodes.urls());
    proxy.sendNextTo(0);
    const stream = readText((await fetch(`${proxy.url}/sse`)).body);
    await stream.until((t) => t.includes('data: 1'), 'the first event from n0');

    expect(nodes.nodes[0]!.rssBytes()).toBeGreaterThan(1_000_000);
    await nodes.sigkill(0);
    expect(nodes.nodes[0]!.rssBytes()).toBeUndefined();
    expect((await stream.end()).broken).toBe(true);
    expect(proxy.log[0]).toMatchObject({ backend: 0, status: 200, end: 'backend-lost' });

    await nodes.sigkill(1);
    expect([
      await status(`${proxy.url}/who`),
      await status(`${proxy.url}/who`),
      await status(`${proxy.url}/who`),
    ]).toEqual([502, 200, 502]);
    expect(proxy.log.slice(1).map((r) => [r.backend, r.status])).toEqual([
      [1, 502],
      [2, 200],
      [0, 502],
    ]);
  });

  it('kill(i) kills the backend, cuts its streams and routes around it', async () => {
    const nodes = await threeNodes();
    const proxy = await startRoundRobinProxy(nodes.nodes.map((n, i) => ({ url: n.url, kill: () => nodes.sigkill(i) })));
    proxy.sendNextTo(1);
    const stream = readText((await fetch(`${proxy.url}/sse`)).body);
    await stream.until((t) => t.includes('data: 1'), 'the first event from n1');

    await proxy.kill(1);
    expect(isAlive(nodes.nodes[1]!.pid)).toBe(false);
    expect(proxy.backends[1]!.down).toBe(true);
    expect((await stream.end()).broken).toBe(true);
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push(await status(`${proxy.url}/who`));
    expect(statuses).toEqual([200, 200, 200, 200]);
    expect(proxy.log.slice(1).map((r) => r.backend)).toEqual([2, 0, 2, 0]);
  });

  it('dropNext() cuts the client connection after the awaited chunk; the backend sees its client gone', async () => {
    const nodes = await threeNodes();
    const proxy = await startRoundRobinProxy(nodes.urls());
    const dropped = proxy.dropNext({ when: (body) => body.includes('data: 2\n\n') });
    const stream = readText((await fetch(`${proxy.url}/sse`)).body);
    await stream.until((t) => t.includes('data: 1\n\n'), 'the first event');
    const backend = nodes.nodes[proxy.log[0]!.backend]!;
    await fetch(`${backend.url}/release`, { method: 'POST' });

    expect(await within(dropped, { what: 'the drop' })).toMatchObject({ path: '/sse', end: 'dropped' });
    expect(await stream.end()).toMatchObject({ broken: true });
    expect(stream.text).toBe('data: 1\n\ndata: 2\n\n');
    await eventually(
      async () => {
        const stats = (await (await fetch(`${backend.url}/stats`)).json()) as { open: number; closedEarly: number };
        return stats.open === 0 && stats.closedEarly === 1 ? stats : undefined;
      },
      { what: 'the backend seeing its client gone' },
    );
    expect(await status(`${proxy.url}/who`)).toBe(200);
  });
});
